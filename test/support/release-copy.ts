/**
 * Copies of the bundled release as newer (or other) versions of it, made in a temporary folder and
 * edited, for release upgrade and release sync tests (issue 28 item 15): registered as a release
 * plugin folder, as an operator installs one.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempFolder } from './temp.js';

const bundledRelease = fileURLToPath(new URL('../../release', import.meta.url));

/** Rewrite one file of a release folder. */
export const rewrite = (dir: string, file: string, f: (s: string) => string): void => writeFileSync(join(dir, file), f(readFileSync(join(dir, file), 'utf8')));

/** A copy of the bundled release at `version` (2026.1-1.N; its plugin version 1.N.0), with `edit` applied to its files. */
export function releaseCopy(version: string, edit: (dir: string) => void = () => {}): string {
  const dir = join(tempFolder('hearth-release-copy-'), 'release');
  cpSync(bundledRelease, dir, { recursive: true });
  rewrite(dir, 'metadata.yaml', (s) => s.replace(/^version: 1\.0\.0$/m, `version: 1.${version.split('.').at(-1)}.0`).replace('version: 2026.1-1.0', `version: ${version}`));
  edit(dir);
  return dir;
}

/** A newer release whose role base-os, component additional_service:octavia and setting syslog.syslog_port are gone. */
export function newerRelease(version = '2026.1-1.1'): string {
  return releaseCopy(version, (dir) => {
    rewrite(dir, 'hearth-2026.1/metadata/roles.yaml', (s) => s.slice(0, s.indexOf('\nbase-os:') + 1));
    rewrite(dir, 'hearth-2026.1/metadata/components.yaml', (s) => s.slice(0, s.indexOf("- name: 'additional_service:octavia'")));
    rewrite(dir, 'hearth-2026.1/attributes/attributes.yaml', (s) => s.replace(/\n {4}syslog_port: .*/, ''));
  });
}

/** Add a role `name` (installs the OS only, as base-os) to a release folder. */
export function addRole(dir: string, name: string): void {
  rewrite(dir, 'hearth-2026.1/metadata/roles.yaml', (s) => `${s.trimEnd()}\n${name}:\n  name: ${name}\n  description: Added by a test.\n  weight: 110\n  group: other\n  tags: [${name}]\n`);
  rewrite(dir, 'hearth-2026.1/metadata/tags.yaml', (s) => `${s.trimEnd()}\n${name}: {has_primary: false}\n`);
  rewrite(dir, 'hearth-2026.1/metadata/volumes.yaml', (s) => s.replace(/\n {2}base-os:\n/, `\n  ${name}:\n    - {allocate_size: all, id: os}\n  base-os:\n`));
}
