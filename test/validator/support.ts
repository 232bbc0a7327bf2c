/**
 * What the validator-depth tests share: hand-made plugin folders under `fixtures/` (real YAML files,
 * one folder per case), corpus plugins in a temporary copy with their release folders, and the
 * mitaka release (Fuel's mitaka-9.0 fixture with its Fuel library tasks), read once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding } from '../../src/core/findings.js';
import type { Release } from '../../src/core/release/model.js';
import { loadReleaseSource } from '../../src/package/release/source.js';
import { validatePlugin, type ValidationResult } from '../../src/package/validate/index.js';
import { corpusPath } from '../support/corpus.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';

export const fixture = (name: string): string => join(import.meta.dirname, 'fixtures', name);

export const MITAKA_FIXTURE = ['release', 'mitaka-eol', 'fuel-web', 'nailgun', 'nailgun', 'fixtures', 'openstack.yaml'];
export const MITAKA_TASKS = ['release', 'mitaka-eol', 'fuel-library'];

let mitaka: Release | undefined;
/** Mitaka on Ubuntu 14.04 with its 232 Fuel library tasks. */
export function mitakaRelease(): Release {
  if (!mitaka) {
    const source = loadReleaseSource(corpusPath(...MITAKA_FIXTURE), { tasksDir: corpusPath(...MITAKA_TASKS) });
    if (!source.release) throw new Error('the mitaka fixture gives no release');
    mitaka = source.release;
  }
  return mitaka;
}

/** Validate a corpus plugin as the reference was run: in a copy with its release folders. */
export function validateCorpusPlugin(name: string, release?: Release): ValidationResult {
  const parent = mkdtempSync(join(tmpdir(), 'hearth-depth-'));
  try {
    return validatePlugin(copyWithReleaseFolders(corpusPath('plugins', name), parent), release ? { release } : {});
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

export const withCode = (findings: Finding[], code: string): Finding[] => findings.filter((f) => f.code === code);
export const place = (f: Finding): string => `${f.file}:${f.line}:${f.column}`;
