/**
 * Hostile requests of issue 20 (Hardening II) that need files of their own on the server's disk:
 * run by hardening-api.test.ts against a real `hearth serve`, judged like every API case (the
 * expected 4xx with the one error shape, within the bound, nothing stored changed).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlugin } from '../../../src/package/create/index.js';
import type { ApiCase } from './api.js';

const json = (method: string, path: string, body: unknown) => ({ method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A skeleton plugin under `root/<name>`, with `edit` applied to its metadata.yaml. */
function pluginFolder(root: string, name: string, edit: (metadata: string) => string = (m) => m): string {
  const created = createPlugin(name, { parentDir: root });
  if (!created.ok || !created.dir) throw new Error(`could not create ${name}: ${JSON.stringify(created.findings)}`);
  const path = join(created.dir, 'metadata.yaml');
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return created.dir;
}

/** A plugin whose title and description spell terminal escapes (item 13). */
export function escapingPlugin(root: string): string {
  return pluginFolder(root, 'escaping', (m) =>
    m.replace(/^title: .*$/m, 'title: "Evil \\e]0;pwned\\a\\e[2J title"').replace(/^description: .*$/m, 'description: "reads \\u202Eesrever\\u202C and \\x1b[8mhidden"'),
  );
}

/** A plugin whose environment_config.yaml holds `keys` attributes (item 7): seconds of validation. */
export function heavyPlugin(root: string, keys: number): string {
  const dir = pluginFolder(root, 'heavy');
  writeFileSync(join(dir, 'environment_config.yaml'), `attributes:\n${Array.from({ length: keys }, (_, i) => ` ${i.toString(16)}: 1\n`).join('')}`);
  return dir;
}

/** The cases, their folders written under `root` (which the caller removes). */
export function apiHardeningCases(root: string): ApiCase[] {
  const dotted = pluginFolder(root, 'dotted', (m) => m.replace(/^version: .*$/m, "version: '0/../../clusters/2'"));
  return [
    // Item 9: one strict name and version pattern everywhere.
    { name: "registering a plugin folder whose version is '0/../../clusters/2'", request: json('POST', '/api/v1/plugins/folders', { path: dotted }), status: 400, code: 'schema/bad-format' },
    { name: 'uninstalling a plugin whose id climbs to an environment (encoded)', request: (ids) => ({ method: 'DELETE', path: `/api/v1/plugins/${encodeURIComponent(`dotted@0/../../clusters/${ids.cluster}`)}` }), status: 404 },
  ];
}
