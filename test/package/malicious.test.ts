/**
 * One test per hostile or damaged package shape. Each must be refused with a clear finding, and
 * nothing may be written: the reader's temporary parent stays empty.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildPlugin, readPackage, readTarGz, writeTarGz, type ReadEntry, type TarEntry, type TarLimits } from '../../src/package/build/index.js';
import { createPlugin } from '../../src/package/create/index.js';
import { acceptAll, isEmptyDir, rawTarGz, tempDir, type RawEntry } from './support.js';

const work = tempDir();
const unpackTo = tempDir();
let good: Buffer;
let goodEntries: ReadEntry[];
const TOP = 'shape-1.0.0';

before(async () => {
  const created = createPlugin('shape', { parentDir: work.path });
  assert.ok(created.ok);
  const built = await buildPlugin(created.dir!, { validate: acceptAll, runHook: false, outDir: join(work.path, 'out') });
  assert.ok(built.ok, JSON.stringify(built.findings));
  good = readFileSync(built.path!);
  goodEntries = readTarGz(good);
});
after(() => {
  work.remove();
  unpackTo.remove();
});

let counter = 0;
async function refused(bytes: Buffer, code: string, limits?: Partial<TarLimits>): Promise<string> {
  const file = join(work.path, `case-${++counter}.tar.gz`);
  writeFileSync(file, bytes);
  const result = await readPackage(file, { tempDir: unpackTo.path, limits });
  assert.equal(result.ok, false, `expected ${code} to be refused`);
  assert.equal(result.dir, undefined);
  const codes = result.findings.map((f) => f.code);
  assert.ok(codes.includes(code), `expected ${code}, got ${codes.join(', ')}: ${result.findings.map((f) => f.message).join(' | ')}`);
  assert.ok(result.findings.every((f) => f.severity === 'error' && f.message.length > 10));
  assert.ok(isEmptyDir(unpackTo.path), 'nothing may be written for a refused package');
  return result.findings.map((f) => f.message).join('\n');
}

/** The good package with its entries changed by `edit`, rewritten with the real writer. */
function tampered(edit: (entries: TarEntry[]) => TarEntry[]): Buffer {
  const entries: TarEntry[] = goodEntries.map((e) => ({ path: e.path, type: e.type, executable: e.executable, data: Buffer.from(e.data) }));
  return writeTarGz(edit(entries));
}

const raw = (entries: RawEntry[], end = true): Buffer => rawTarGz([{ name: `${TOP}/`, type: '5', mode: 0o755 }, ...entries], end);

test('the good package is accepted and unpacked into a fresh folder under the given parent', async () => {
  const file = join(work.path, 'good.tar.gz');
  writeFileSync(file, good);
  const result = await readPackage(file, { tempDir: unpackTo.path });
  assert.ok(result.ok, JSON.stringify(result.findings));
  assert.ok(result.dir!.startsWith(unpackTo.path));
  assert.equal(readFileSync(join(result.dir!, 'metadata.yaml'), 'utf8').includes('name: shape'), true);
  await result.cleanup();
  assert.ok(isEmptyDir(unpackTo.path));
});

test('a file changed after the build is refused (checksum mismatch)', async () => {
  const message = await refused(
    tampered((es) => es.map((e) => (e.path === `${TOP}/deployment_tasks.yaml` ? { ...e, data: Buffer.concat([e.data!, Buffer.from('# evil\n')]) } : e))),
    'package/checksum-mismatch',
  );
  assert.match(message, /deployment_tasks\.yaml/);
});

test('a file listed in the manifest but absent is refused', async () => {
  await refused(tampered((es) => es.filter((e) => e.path !== `${TOP}/node_roles.yaml`)), 'package/missing-file');
});

test('a file not in the manifest is refused', async () => {
  await refused(tampered((es) => [...es, { path: `${TOP}/deployment_scripts/backdoor.sh`, type: 'file', executable: true, data: Buffer.from('#!/bin/sh\n') }]), 'package/extra-file');
});

test('a package without a manifest is refused', async () => {
  await refused(tampered((es) => es.filter((e) => !e.path.endsWith('hearth-package.json'))), 'package/no-manifest');
});

test('a manifest that is not JSON, or of the wrong shape, is refused', async () => {
  const withManifest = (text: string) => tampered((es) => es.map((e) => (e.path.endsWith('hearth-package.json') ? { ...e, data: Buffer.from(text) } : e)));
  await refused(withManifest('{ not json'), 'package/bad-manifest');
  await refused(withManifest(JSON.stringify({ format: 'hearth-package/1', name: 'shape', version: '1.0.0', package_version: '5.0.0', releases: [], files: { 'a': 'nothex' }, builder: { version: '1' } })), 'package/bad-manifest');
});

test('a manifest naming another plugin than metadata.yaml is refused', async () => {
  await refused(
    tampered((es) =>
      es.map((e) => {
        if (!e.path.endsWith('hearth-package.json')) return e;
        const m = JSON.parse(e.data!.toString());
        m.name = 'other';
        return { ...e, data: Buffer.from(JSON.stringify(m)) };
      }),
    ),
    'package/manifest-mismatch',
  );
});

test('a path with ".." is refused', async () => {
  const message = await refused(raw([{ name: `${TOP}/../../etc/cron.d/x`, data: 'boom' }]), 'package/unsafe-path');
  assert.match(message, /\.\./);
});

test('an absolute path is refused', async () => {
  await refused(raw([{ name: '/etc/passwd', data: 'root::0:0' }]), 'package/unsafe-path');
});

test('a symbolic link (leaving the package or not) is refused', async () => {
  const message = await refused(raw([{ name: `${TOP}/escape`, type: '2', linkname: '/etc/shadow' }]), 'package/special-entry');
  assert.match(message, /symbolic link.*\/etc\/shadow/);
  await refused(raw([{ name: `${TOP}/inside`, type: '2', linkname: 'metadata.yaml' }]), 'package/special-entry');
});

test('a hard link is refused', async () => {
  const message = await refused(raw([{ name: `${TOP}/hard`, type: '1', linkname: '../../etc/passwd' }]), 'package/special-entry');
  assert.match(message, /hard link/);
});

test('device files and FIFOs are refused', async () => {
  assert.match(await refused(raw([{ name: `${TOP}/dev`, type: '3' }]), 'package/special-entry'), /character device/);
  assert.match(await refused(raw([{ name: `${TOP}/blk`, type: '4' }]), 'package/special-entry'), /block device/);
  assert.match(await refused(raw([{ name: `${TOP}/fifo`, type: '6' }]), 'package/special-entry'), /FIFO/);
});

test('an entry over the size limit is refused', async () => {
  await refused(raw([{ name: `${TOP}/big.bin`, data: Buffer.alloc(4096) }]), 'package/entry-too-large', { maxEntryBytes: 1024 });
});

test('a decompression bomb (files adding up past the total limit) is refused', async () => {
  const many = Array.from({ length: 8 }, (_, i) => ({ name: `${TOP}/zeros-${i}`, data: Buffer.alloc(64 * 1024) }));
  await refused(raw(many), 'package/too-large', { maxTotalBytes: 128 * 1024, maxEntryBytes: 1024 * 1024, maxEntries: 100 });
  // A stream that inflates far beyond the limit is stopped while inflating, not after.
  await refused(gzipSync(Buffer.alloc(32 * 1024 * 1024)), 'package/too-large', { maxTotalBytes: 1024 * 1024, maxEntries: 10 });
});

test('too many entries are refused', async () => {
  const many = Array.from({ length: 50 }, (_, i) => ({ name: `${TOP}/f${i}`, data: 'x' }));
  await refused(raw(many), 'package/too-many-entries', { maxEntries: 20 });
});

test('a truncated package is refused, whether cut in the gzip stream or in the tar', async () => {
  await refused(good.subarray(0, Math.floor(good.length / 2)), 'package/truncated');
  await refused(raw([{ name: `${TOP}/half`, data: 'short', sizeField: 4096 }]), 'package/truncated');
  await refused(raw([{ name: `${TOP}/a`, data: 'a' }], false), 'package/truncated');
});

test('a damaged header (bad checksum) and a file that is not gzip are refused', async () => {
  await refused(raw([{ name: `${TOP}/a`, data: 'a', badChecksum: true }]), 'package/bad-header');
  await refused(Buffer.from('PK\u0003\u0004 this is a zip, not a package'), 'package/not-gzip');
});

test('the same path twice, or a file used as a folder, is refused', async () => {
  await refused(raw([{ name: `${TOP}/a`, data: 'one' }, { name: `${TOP}/a`, data: 'two' }]), 'package/duplicate-entry');
  await refused(raw([{ name: `${TOP}/a`, data: 'one' }, { name: `${TOP}/a/b`, data: 'two' }]), 'package/duplicate-entry');
});

test('a package with loose files at the top, or a top folder not named <name>-<version>, is refused', async () => {
  await refused(tampered((es) => [...es, { path: 'README', type: 'file', data: Buffer.from('hi') }]), 'package/layout');
  await refused(tampered((es) => es.map((e) => ({ ...e, path: e.path.replace(TOP, 'renamed-9.9') }))), 'package/layout');
});

test('a missing package file is a clear error, not a crash', async () => {
  const result = await readPackage(join(work.path, 'nope.tar.gz'), { tempDir: unpackTo.path });
  assert.equal(result.ok, false);
  assert.equal(result.findings[0].code, 'package/missing');
});
