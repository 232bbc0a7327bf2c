/**
 * Hostile requests of issue 20 (Hardening II) that need files of their own on the server's disk:
 * run by hardening-api.test.ts against a real `hearth serve`, judged like every API case (the
 * expected 4xx with the one error shape, within the bound, nothing stored changed).
 */
import { randomFillSync } from 'node:crypto';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { rawHeader } from '../../package/support.js';
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

/**
 * A plugin whose title and description hold exactly the colour sequences Hearth's own output uses
 * (red, bold, reset: cli/terminal.ts lets those through), which a plugin must not pass off as
 * Hearth's (issue 24, item 23).
 */
export function colouredPlugin(root: string): string {
  return pluginFolder(root, 'coloured', (m) =>
    m.replace(/^title: .*$/m, 'title: "Red \\e[31mALERT\\e[0m \\e[1mbold\\e[32m green \\e[2m"').replace(/^description: .*$/m, 'description: "\\e[33myellow\\e[36m cyan\\e[0m\\r\\e[2K erased"'),
  );
}

/** A plugin whose environment_config.yaml holds `keys` attributes (item 7): seconds of validation. */
export function heavyPlugin(root: string, keys: number): string {
  const dir = pluginFolder(root, 'heavy');
  writeFileSync(join(dir, 'environment_config.yaml'), `attributes:\n${Array.from({ length: keys }, (_, i) => ` ${i.toString(16)}: 1\n`).join('')}`);
  return dir;
}

/**
 * A package of `megabytes` MB of low-entropy data that compresses about 150-fold, under the
 * 200-fold bomb ratio (item 8), written to `path` as a stream (the test never holds it whole).
 */
export async function nearBombPackage(path: string, megabytes: number): Promise<void> {
  const size = megabytes * 1024 * 1024;
  const gzip = createGzip({ level: 9 });
  const done = pipeline(gzip, createWriteStream(path));
  const write = (b: Buffer) => (gzip.write(b) ? Promise.resolve() : new Promise<void>((r) => gzip.once('drain', () => r())));
  await write(rawHeader({ name: 'blob-1.0.0/', type: '5' }, 0));
  const chunk = Buffer.alloc(64 * 1024);
  // Files of 128 MB each, under the per-file limit: only the total is large.
  const part = 128 * 1024 * 1024;
  for (let index = 0; index * part < size; index++) {
    const length = Math.min(part, size - index * part);
    await write(rawHeader({ name: `blob-1.0.0/blob-${index}.bin` }, length));
    for (let written = 0; written < length; written += chunk.length) {
      randomFillSync(chunk, 0, 330);
      chunk.fill(0, 330);
      await write(Buffer.from(chunk));
    }
  }
  await write(Buffer.alloc(1024));
  gzip.end();
  await done;
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
