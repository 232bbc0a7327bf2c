/** The three commands through the real CLI: exit statuses, --json on stdout only, progress text. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReporter, formatSummary } from '../../src/package/build/report.js';
import { readTarGz, writeTarGz } from '../../src/package/build/index.js';
import { tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const hearth = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), main, ...args], { cwd: work.path, encoding: 'utf8', env: { ...process.env, SOURCE_DATE_EPOCH: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

test('create, build --json and inspect: exit 0, JSON alone on stdout, a summary that names the plugin', () => {
  assert.equal(hearth('plugin', 'create', 'clidemo', '--package-version', '4.0.0').status, 0);
  const built = hearth('plugin', 'build', 'clidemo', '--out', 'out', '--json');
  assert.equal(built.status, 0, built.stderr);
  const result = JSON.parse(built.stdout) as { path: string; size: number; sha256: string };
  assert.equal(result.path, join(work.path, 'out', 'clidemo-1.0.0.tar.gz'));
  assert.match(result.sha256, /^[0-9a-f]{64}$/);
  const inspected = hearth('plugin', 'inspect', 'out/clidemo-1.0.0.tar.gz');
  assert.equal(inspected.status, 0, inspected.stderr);
  assert.match(inspected.stdout, /clidemo 1\.0\.0 \(package 4\.0\.0/);
  assert.match(inspected.stdout, /roles: +clidemo_role/);

  // Tampered: exit 1 with the reason.
  const entries = readTarGz(readFileSync(result.path)).map((e) => ({ ...e, data: e.path.endsWith('metadata.yaml') ? Buffer.from(e.data.toString().replace('Title', 'Evil')) : e.data }));
  writeFileSync(join(work.path, 'tampered.tar.gz'), writeTarGz(entries));
  const bad = hearth('plugin', 'inspect', 'tampered.tar.gz', '--json');
  assert.equal(bad.status, 1);
  assert.equal((JSON.parse(bad.stdout) as { findings: Array<{ code: string }> }).findings[0].code, 'package/checksum-mismatch');
});

test('bad usage exits 2; a failing hook passes its exit status on', () => {
  assert.equal(hearth('plugin', 'create', 'Bad Name').status, 2);
  assert.equal(hearth('plugin', 'create', 'x', '--package-version', '9.9.9').status, 2);
  assert.equal(hearth('plugin', 'build', 'no-such-folder').status, 2);
  assert.equal(hearth('plugin', 'inspect', 'no-such.tar.gz').status, 2);
  assert.equal(hearth('plugin', 'create', 'hooked').status, 0);
  writeFileSync(join(work.path, 'hooked', 'pre_build_hook'), '#!/bin/sh\necho from-the-hook\nexit 5\n', { mode: 0o755 });
  const r = hearth('plugin', 'build', 'hooked');
  assert.equal(r.status, 5);
  assert.match(r.stdout, /from-the-hook/);
  assert.match(r.stderr, /build\/hook-failed/);
});

test('progress: plain lines when not a terminal, redrawn lines on a terminal, nothing with --json', () => {
  const sink = (isTTY: boolean) => {
    let text = '';
    const stream = { isTTY, write: (s: string) => ((text += s), true) } as unknown as NodeJS.WriteStream;
    return { stream, text: () => text };
  };
  const plain = sink(false);
  const r1 = buildReporter(plain.stream, false);
  r1.onEvent({ step: 'validate', state: 'start' });
  r1.onEvent({ step: 'validate', state: 'done', detail: 'no errors' });
  r1.finish();
  assert.equal(plain.text(), 'build: validate: …\nbuild: validate: ok (no errors)\n');
  const tty = sink(true);
  const r2 = buildReporter(tty.stream, false);
  r2.onEvent({ step: 'package', state: 'start' });
  r2.onEvent({ step: 'package', state: 'done' });
  assert.equal(tty.text(), 'write package: …\r\x1b[2Kwrite package: ok\n');
  const quiet = sink(true);
  buildReporter(quiet.stream, true).onEvent({ step: 'hook', state: 'start' });
  assert.equal(quiet.text(), '');
  assert.match(formatSummary({ name: 'n', version: '1', packageVersion: '5.0.0', builderVersion: '0.1.0', releases: [], files: 3, roles: [], components: [], tasks: {}, isReleasePlugin: false }), /3 files verified/);
});
