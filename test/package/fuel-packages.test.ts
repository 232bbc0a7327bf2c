/**
 * A plugin downloaded from Fuel's plugin catalog installs unchanged (issue 28, item 16): the RPM
 * Fuel Plugin Builder 2.0.0+ made (built here by the real rpmbuild, as fpb ran it, from corpus
 * plugins, with each payload compressor rpm offers) and a 1.0.0 plugin's `.fp` (made by the real
 * tar) are read by `hearth plugin inspect`, installed by the server and unpacked again from what
 * the database kept. Hostile RPMs keep a real RPM's front and carry a crafted cpio payload.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { inspectPackage, readPackage, type TarLimits } from '../../src/package/build/index.js';
import { readRpmFront } from '../../src/package/build/rpm.js';
import { PluginFiles } from '../../src/server/domain/plugin-files.js';
import * as store from '../../src/store/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';
import { testApp, type TestApp } from '../server/support/app.js';
import { engines } from '../server/support/engines.js';
import { isEmptyDir, tempDir } from './support.js';

const hasRpmbuild = spawnSync('rpmbuild', ['--version']).status === 0;
const needs = { skip: (needsCorpus.skip || (!hasRpmbuild && 'rpmbuild is not installed (Debian: apt-get install rpm): Fuel RPM tests skipped')) as string | false };
if (needs.skip) console.log(`# NOTE: ${needs.skip}`);

const work = tempDir('hearth-fuel-packages-');
after(() => work.remove());

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => p.split('\\').join('/'))
    .sort();
}

/** A corpus plugin as fpb packed it: its release folders made (with a script) and checksums.sha1 written. */
function fuelPlugin(corpusName: string): string {
  const dir = copyWithReleaseFolders(corpusPath('plugins', corpusName), join(work.path, `src-${Math.random().toString(36).slice(2)}`));
  mkdirSync(join(dir, 'deployment_scripts'), { recursive: true });
  writeFileSync(join(dir, 'deployment_scripts', 'deploy.sh'), '#!/bin/sh\necho deployed\n', { mode: 0o755 });
  const lines = filesUnder(dir).map((p) => `${createHash('sha1').update(readFileSync(join(dir, p))).digest('hex')} ${p}\n`);
  writeFileSync(join(dir, 'checksums.sha1'), lines.join(''));
  return dir;
}

/** The RPM rpmbuild makes of `dir` as fpb's spec did (Name <name>-<X.Y>, files in /var/www/nailgun/plugins/), plus a file elsewhere. */
function buildRpm(dir: string, name: string, version: string, payload: string): string {
  const short = version.split('.').slice(0, 2).join('.');
  const top = join(work.path, `rpm-${Math.random().toString(36).slice(2)}`);
  mkdirSync(top, { recursive: true });
  const spec = join(top, 'plugin.spec');
  writeFileSync(
    spec,
    [
      `Name: ${name}-${short}`,
      `Version: ${version}`,
      'Release: 1',
      'Summary: a plugin as Fuel Plugin Builder packed it',
      'License: Apache-2.0',
      'BuildArch: noarch',
      'AutoReq: no',
      '%description',
      'test',
      '%install',
      `mkdir -p %{buildroot}/var/www/nailgun/plugins/${name}-${short} %{buildroot}/etc/fuel-extra`,
      `cp -r ${dir}/. %{buildroot}/var/www/nailgun/plugins/${name}-${short}/`,
      'echo note > %{buildroot}/etc/fuel-extra/note',
      '%files',
      `/var/www/nailgun/plugins/${name}-${short}`,
      '/etc/fuel-extra',
      '',
    ].join('\n'),
  );
  const run = spawnSync('rpmbuild', ['-bb', '--nodeps', '--define', `_topdir ${top}`, '--define', `_binary_payload ${payload}`, '--define', '__os_install_post %{nil}', '--define', 'debug_package %{nil}', spec], { encoding: 'utf8', timeout: 180_000 });
  assert.equal(run.status, 0, `rpmbuild failed: ${run.stderr}`);
  return join(top, 'RPMS', 'noarch', `${name}-${short}-${version}-1.noarch.rpm`);
}

describe('Fuel packages', { skip: needs.skip }, () => {
  let plugin: string;
  let gzipRpm: string;
  before(() => {
    plugin = fuelPlugin('fuel-plugin-detach-database');
    gzipRpm = buildRpm(plugin, 'detach-database', '1.1.0', 'w9.gzdio');
  });

  for (const [payload, compressor] of [['w9.gzdio', 'gzip'], ['w2.xzdio', 'xz'], ['w19.zstdio', 'zstd'], ['w9.bzdio', 'bzip2']]) {
    test(`hearth plugin inspect reads a Fuel plugin RPM with a ${compressor} payload: the plugin under /var/www/nailgun/plugins/, the rest left out`, async () => {
      const rpm = payload === 'w9.gzdio' ? gzipRpm : buildRpm(plugin, 'detach-database', '1.1.0', payload);
      assert.equal((await readRpmFront(rpm, statSync(rpm).size)).compressor, compressor);
      const result = await inspectPackage(rpm, { tempDir: work.path });
      assert.ok(result.ok, JSON.stringify(result.findings));
      assert.deepEqual(result.findings.filter((f) => f.severity === 'error'), []);
      assert.equal(result.summary?.name, 'detach-database');
      assert.equal(result.summary?.version, '1.1.0');
      assert.equal(result.summary?.packageVersion, '4.0.0');
      assert.deepEqual(result.summary?.roles, ['standalone-database']);
      assert.deepEqual(result.summary?.fuel, { format: 'rpm', rpm: 'detach-database-1.1-1.1.0-1' });
      assert.deepEqual(Object.keys(result.manifest!.files).sort(), filesUnder(plugin));
      const ignored = result.findings.find((f) => f.code === 'package/rpm-ignored');
      assert.equal(ignored?.severity, 'info');
      assert.match(ignored!.message, /\/etc\/fuel-extra\/note/);
    });
  }

  test('hearth plugin inspect x.noarch.rpm through the real CLI: exit 0, the summary names the RPM; --json carries the left-out entries', () => {
    const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
    const hearth = (...args: string[]) => spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), main, ...args], { cwd: work.path, encoding: 'utf8', timeout: 120_000 });
    const text = hearth('plugin', 'inspect', gzipRpm);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /detach-database 1\.1\.0 \(package 4\.0\.0, Fuel plugin RPM detach-database-1\.1-1\.1\.0-1\)/);
    assert.match(text.stdout, /roles: +standalone-database/);
    const json = hearth('plugin', 'inspect', gzipRpm, '--json');
    assert.equal(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as { findings: Array<{ code: string; severity: string }> };
    assert.ok(parsed.findings.some((f) => f.code === 'package/rpm-ignored' && f.severity === 'info'), json.stdout);
  });

  test('the unpacked RPM holds the plugin\'s files byte for byte, the executable bit kept', async () => {
    const read = await readPackage(gzipRpm, { tempDir: work.path });
    try {
      assert.ok(read.ok && read.dir, JSON.stringify(read.findings));
      assert.equal(relative(join(read.dir, '..'), read.dir), 'detach-database-1.1');
      for (const p of filesUnder(plugin)) assert.deepEqual(readFileSync(join(read.dir, p)), readFileSync(join(plugin, p)), p);
      assert.ok(statSync(join(read.dir, 'deployment_scripts', 'deploy.sh')).mode & 0o100);
    } finally {
      await read.cleanup();
    }
  });

  test('a Fuel 6.x .fp (package_version 1.0.0, a tar.gz of <name>-<version>/) is read; changed after checksums.sha1 it is refused', async () => {
    const v1 = fuelPlugin('fuel-plugins--fuel_plugin_example_v1');
    const parent = join(work.path, 'fp');
    mkdirSync(parent);
    const fp = (file: string) => {
      const packed = spawnSync('tar', ['-czf', join(parent, file), '-C', join(v1, '..'), 'fuel_plugin_example-1.0.0'], { encoding: 'utf8' });
      assert.equal(packed.status, 0, packed.stderr);
      return join(parent, file);
    };
    spawnSync('mv', [v1, join(v1, '..', 'fuel_plugin_example-1.0.0')]);
    const at = join(v1, '..', 'fuel_plugin_example-1.0.0');
    const result = await inspectPackage(fp('fuel_plugin_example-1.0.0.fp'), { tempDir: work.path });
    assert.ok(result.ok, JSON.stringify(result.findings));
    assert.equal(result.summary?.name, 'fuel_plugin_example');
    assert.equal(result.summary?.packageVersion, '1.0.0');
    assert.deepEqual(result.summary?.fuel, { format: 'fp' });

    writeFileSync(join(at, 'tasks.yaml'), `${readFileSync(join(at, 'tasks.yaml'), 'utf8')}\n# changed\n`);
    const changed = await inspectPackage(fp('changed.fp'), { tempDir: work.path });
    assert.equal(changed.ok, false);
    const mismatch = changed.findings.find((f) => f.code === 'package/checksum-mismatch');
    assert.match(mismatch?.message ?? '', /tasks\.yaml does not match its sha1 in checksums\.sha1/, JSON.stringify(changed.findings));
  });

  describe('hostile and damaged RPMs are refused, naming the file and what is wrong, with nothing written', () => {
    const unpackTo = tempDir('hearth-fuel-unpack-');
    after(() => unpackTo.remove());
    let front: Buffer;
    before(async () => {
      const bytes = readFileSync(gzipRpm);
      front = bytes.subarray(0, (await readRpmFront(gzipRpm, bytes.length)).payloadOffset);
    });

    const P = './var/www/nailgun/plugins/evil-1.0';
    interface Cpio { name: string; mode: number; data?: Buffer; size?: number; nlink?: number }
    /** A cpio newc archive of `entries`, the trailer last. */
    const cpio = (entries: Cpio[]): Buffer => {
      const parts: Buffer[] = [];
      const pad = (n: number) => Buffer.alloc((4 - (n % 4)) % 4);
      for (const e of [...entries, { name: 'TRAILER!!!', mode: 0 }]) {
        const data = e.data ?? Buffer.alloc(0);
        const name = Buffer.from(`${e.name}\0`);
        const hex = (n: number) => n.toString(16).padStart(8, '0');
        const fields = [1, e.mode, 0, 0, e.nlink ?? 1, 0, e.size ?? data.length, 0, 0, 0, 0, name.length, 0];
        const header = Buffer.from(`070701${fields.map(hex).join('')}`, 'latin1');
        parts.push(header, name, pad(header.length + name.length), data, pad(data.length));
      }
      return Buffer.concat(parts);
    };
    const metadata = { name: `${P}/metadata.yaml`, mode: 0o100644, data: Buffer.from("name: evil\nversion: '1.0.0'\npackage_version: '5.0.0'\n") };

    let n = 0;
    async function refused(bytes: Buffer, code: string, pattern: RegExp, limits?: Partial<TarLimits>): Promise<void> {
      const file = join(work.path, `evil-${++n}.noarch.rpm`);
      writeFileSync(file, bytes);
      const result = await readPackage(file, { tempDir: unpackTo.path, limits });
      assert.equal(result.ok, false, `expected ${code}`);
      const found = result.findings.find((f) => f.code === code);
      assert.ok(found, `expected ${code}, got ${JSON.stringify(result.findings)}`);
      assert.equal(found.severity, 'error');
      assert.ok(found.message.startsWith(`evil-${n}.noarch.rpm: `), found.message);
      assert.match(found.message, pattern);
      assert.ok(isEmptyDir(unpackTo.path), 'nothing may be written for a refused RPM');
    }
    const rpmOf = (entries: Cpio[]) => Buffer.concat([front, gzipSync(cpio(entries))]);

    test('a path that climbs out with ..', async () => {
      await refused(rpmOf([metadata, { name: `${P}/../../../../../../etc/cron.d/evil`, mode: 0o100644, data: Buffer.from('* * * * * root sh\n') }]), 'package/unsafe-path', /climbs out of the package/);
    });
    test('an absolute path', async () => {
      await refused(rpmOf([metadata, { name: '/etc/passwd', mode: 0o100644, data: Buffer.from('x') }]), 'package/unsafe-path', /is absolute/);
    });
    test('a symbolic link in the plugin pointing out of it', async () => {
      await refused(rpmOf([metadata, { name: `${P}/deployment_scripts`, mode: 0o120777, data: Buffer.from('/etc') }]), 'package/special-entry', /deployment_scripts is a symbolic link/);
    });
    test('a device file and a hard link', async () => {
      await refused(rpmOf([metadata, { name: `${P}/disk`, mode: 0o060600 }]), 'package/special-entry', /is a block device/);
      await refused(rpmOf([metadata, { name: `${P}/twice`, mode: 0o100644, nlink: 2, data: Buffer.from('x') }]), 'package/special-entry', /is a hard link/);
    });
    test('a file claiming more than the size limit, and a payload that inflates past it', async () => {
      await refused(rpmOf([metadata, { name: `${P}/huge`, mode: 0o100644, size: 0xfffffff0 }]), 'package/entry-too-large', /huge is 4294967280 bytes, over the limit/);
      await refused(rpmOf([metadata, { name: `${P}/zeros`, mode: 0o100644, data: Buffer.alloc(300_000) }]), 'package/too-large', /more than/, { maxTotalBytes: 100_000 });
    });
    test('more entries than the limit, even where nothing is unpacked', async () => {
      const elsewhere = Array.from({ length: 20 }, (_, i) => ({ name: `./usr/share/doc/x/${i}`, mode: 0o100644, data: Buffer.from('x') }));
      await refused(rpmOf([metadata, ...elsewhere]), 'package/too-many-entries', /more than 10 entries/, { maxEntries: 10 });
    });
    test('a truncated RPM: cut in its headers, in its payload', async () => {
      const whole = readFileSync(gzipRpm);
      await refused(whole.subarray(0, 200), 'package/truncated', /truncated/);
      await refused(whole.subarray(0, front.length + Math.floor((whole.length - front.length) / 2)), 'package/truncated', /truncated/);
    });
    test('an xz payload cut short, and one whose program is not installed', async () => {
      const xzRpm = buildRpm(plugin, 'detach-database', '1.1.0', 'w2.xzdio');
      const xz = readFileSync(xzRpm);
      const xzFront = (await readRpmFront(xzRpm, xz.length)).payloadOffset;
      await refused(xz.subarray(0, xzFront + Math.floor((xz.length - xzFront) / 2)), 'package/truncated', /xz payload cannot be decompressed.*(Unexpected end|truncated)/i);
      const path = process.env.PATH;
      process.env.PATH = unpackTo.path; // an empty folder: no xz on it
      try {
        await refused(xz, 'package/unsupported-compressor', /xz-compressed and the program xz is not installed/);
      } finally {
        process.env.PATH = path;
      }
    });
    test('a payload that is not cpio, and an RPM with no plugin in it', async () => {
      await refused(Buffer.concat([front, gzipSync(Buffer.from('this is not a cpio archive at all, not even close to one\n'.repeat(4)))]), 'package/bad-payload', /not a cpio "newc" archive/);
      await refused(rpmOf([{ name: './etc/motd', mode: 0o100644, data: Buffer.from('hello') }]), 'package/layout', /holds no plugin under \/var\/www\/nailgun\/plugins\//);
    });
    test('a file that is not an RPM nor a package', async () => {
      await refused(Buffer.concat([Buffer.from([0xed, 0xab, 0xee, 0xdb, 9, 0]), Buffer.alloc(200)]), 'package/not-rpm', /RPM format version is 9\.0/);
    });
  });

  for (const engine of engines()) {
    describe(`the server installs Fuel packages on ${engine.name}`, () => {
      let t: TestApp;
      before(async () => {
        t = await testApp(engine, { withRelease: false });
      });
      after(async () => {
        await t.close();
        await engine.dispose();
      });

      test('POST /api/v1/plugins takes the RPM as it is, and the kept package unpacks again to the same files', async () => {
        const res = await t.call('POST', '/api/v1/plugins', readFileSync(gzipRpm), { 'content-type': 'application/octet-stream' });
        assert.equal(res.statusCode, 201, res.body);
        const body = res.json();
        assert.equal(body.plugin.id, 'detach-database@1.1.0');
        assert.ok(body.findings.some((f: { code: string }) => f.code === 'package/rpm-ignored'));
        const record = (await store.getPlugin(t.db, 'detach-database@1.1.0'))!;
        const where = await new PluginFiles(join(work.path, `server-${engine.name}`)).rootOf(t.db, record);
        assert.ok('root' in where, JSON.stringify(where));
        assert.deepEqual(filesUnder(where.root), filesUnder(plugin));
      });

      test('an RPM sent as application/x-rpm (what curl and browsers label it) is taken too', async () => {
        const res = await t.call('POST', '/api/v1/plugins', readFileSync(gzipRpm), { 'content-type': 'application/x-rpm' });
        // Installed already by the test before: the conflict proves the body was read as a package, not refused with 415.
        assert.equal(res.statusCode, 409, res.body);
        assert.match(res.json().message, /detach-database/);
      });
    });
  }
});
