/**
 * Corpus plugins come without `deployment_scripts/` and `repositories/` (only their definitions were
 * kept). A copy with those folders created is what the reference builder was run on, and what a
 * test installs or builds.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { basename, join, resolve, sep } from 'node:path';
import { readYamlFile } from '../../src/package/yaml/index.js';
import { tempFolder } from './temp.js';

/** Create, inside `dir`, the folders its metadata.yaml names per release (an unreadable file creates none). */
export function createReleaseFolders(dir: string): void {
  const { value } = readYamlFile(join(dir, 'metadata.yaml'), 'metadata.yaml');
  const releases = value && typeof value === 'object' ? (value as { releases?: unknown }).releases : undefined;
  for (const release of Array.isArray(releases) ? releases : []) {
    if (!release || typeof release !== 'object') continue;
    for (const key of ['deployment_scripts_path', 'repository_path']) {
      const path = (release as Record<string, unknown>)[key];
      if (typeof path !== 'string') continue;
      const target = resolve(dir, path);
      // Only inside the plugin: a hostile path is the validator's business, not the copier's.
      if (target.startsWith(resolve(dir) + sep)) mkdirSync(target, { recursive: true });
    }
  }
}

export function copyWithReleaseFolders(source: string, parent = tempFolder('hearth-plugin-')): string {
  const copy = join(parent, basename(source).replace(/[^a-z0-9_-]/gi, '_'));
  cpSync(source, copy, { recursive: true });
  createReleaseFolders(copy);
  return copy;
}
