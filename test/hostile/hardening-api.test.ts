/**
 * The API cases of issue 20 that need files on the server's disk (cases/api-hardening.ts), on a
 * real `hearth serve` of their own, judged as api.test.ts judges its cases.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hearthBin, startServer, type RunningServer } from '../support/serve.js';
import type { KnownIds } from './cases/api.js';
import { apiHardeningCases, colouredPlugin, escapingPlugin, heavyPlugin, nearBombPackage } from './cases/api-hardening.js';
import { prepare, runApiCase, send } from './api-run.js';
import { allowedWait, repoRoot } from './harness.js';

const built = existsSync(join(repoRoot, 'dist', 'server', 'start.js'));
const options = { skip: built ? false : 'the server is not built: run `npx tsc -p tsconfig.build.json`' };
const root = mkdtempSync(join(tmpdir(), 'hearth-hostile-api-'));
const cases = apiHardeningCases(root);

let server: RunningServer;
let ids: KnownIds;

before(async () => {
  if (!built) return;
  server = await startServer();
  ids = await prepare(server);
});

after(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

for (const c of cases) {
  test(`API: ${c.name} → HTTP ${c.status}${c.code ? ` ${c.code}` : ''}`, options, async (t) => {
    t.diagnostic(`${Math.round(await runApiCase(server, ids, c))} ms`);
  });
}

test('hearth plugin list and show print a title holding terminal escapes escaped (it set the window title and cleared the screen)', options, async () => {
  const dir = escapingPlugin(root);
  const registered = await send(server, { method: 'POST', path: '/api/v1/plugins/folders', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: dir }) });
  assert.equal(registered.status, 201, registered.body);
  const warned = (JSON.parse(registered.body) as { findings: Array<{ code: string }> }).findings.map((f) => f.code);
  assert.ok(warned.includes('yaml/control-character-value'), `the control characters are flagged: ${warned.join(', ')}`);
  const id = (JSON.parse(registered.body) as { plugin: { id: string } }).plugin.id;
  for (const args of [['plugin', 'list'], ['plugin', 'show', id]]) {
    const run = spawnSync(process.execPath, [hearthBin, ...args, '--server', server.url, '--token', server.token], { encoding: 'utf8', timeout: 60_000 });
    const output = `${run.stdout}${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.doesNotMatch(output, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, `hearth ${args.join(' ')} printed a control character raw: ${JSON.stringify(output)}`);
    assert.match(output, /Evil \\u001b\]0;pwned\\u0007\\u001b\[2J/, `the title is shown, escaped: ${output}`);
  }
});

test("hearth plugin list and show escape a plugin's colour sequences, the very ones Hearth's own output uses (text and --json)", options, async () => {
  const dir = colouredPlugin(root);
  const registered = await send(server, { method: 'POST', path: '/api/v1/plugins/folders', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: dir }) });
  assert.equal(registered.status, 201, registered.body);
  const id = (JSON.parse(registered.body) as { plugin: { id: string } }).plugin.id;
  for (const args of [['plugin', 'list'], ['plugin', 'show', id], ['plugin', 'list', '--json'], ['plugin', 'show', id, '--json']]) {
    const run = spawnSync(process.execPath, [hearthBin, ...args, '--server', server.url, '--token', server.token], { encoding: 'utf8', timeout: 60_000 });
    const output = `${run.stdout}${run.stderr}`;
    assert.equal(run.status, 0, output);
    assert.doesNotMatch(output, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/, `hearth ${args.join(' ')} printed a control character raw: ${JSON.stringify(output)}`);
    // Text shows `\u001b[31m`; JSON the same escape inside a string (its backslash escaped once more).
    assert.match(output, /Red \\{1,2}u001b\[31mALERT\\{1,2}u001b\[0m \\{1,2}u001b\[1mbold/, `the title is shown, escaped: ${output}`);
    if (args.includes('--json')) {
      const answer = JSON.parse(run.stdout) as { title?: string } | Array<{ id: string; title: string }>;
      const title = Array.isArray(answer) ? answer.find((p) => p.id === id)?.title : answer.title;
      assert.equal(title, 'Red \u001b[31mALERT\u001b[0m \u001b[1mbold\u001b[32m green \u001b[2m', '--json still carries the title itself');
    }
  }
});

test('a plugin folder that takes seconds to validate does not stop the server answering others', options, async () => {
  const dir = heavyPlugin(root, 300_000);
  const allowed = await allowedWait(async () => assert.equal((await send(server, { method: 'GET', path: '/api/v1/releases', auth: false })).status, 200));
  const started = performance.now();
  const registering = send(server, { method: 'POST', path: '/api/v1/plugins/folders', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: dir }) });
  let done = false;
  void registering.then(() => (done = true));
  const waits: number[] = [];
  // Ask for something cheap while the folder is being read.
  while (!done && performance.now() - started < 60_000) {
    const asked = performance.now();
    const answer = await send(server, { method: 'GET', path: '/api/v1/releases', auth: false });
    assert.equal(answer.status, 200);
    if (!done) waits.push(performance.now() - asked);
    await new Promise((r) => setTimeout(r, 100));
  }
  const registered = await registering;
  assert.equal(registered.status, 400, registered.body);
  assert.match(registered.body, /schema\/too-many-entries/);
  assert.ok(waits.length >= 3, `the read took long enough to ask ${waits.length} times (${Math.round(performance.now() - started)} ms)`);
  assert.ok(Math.max(...waits) < allowed.bound, `answers while a folder was being read took ${waits.map(Math.round).join(', ')} ms; ${allowed.describe(Math.max(...waits))}`);
});

test('a package that inflates 150-fold to 400 MB (under the bomb ratio): the server keeps answering and never holds it', options, async () => {
  const file = join(root, 'near-bomb.tar.gz');
  await nearBombPackage(file, 400);
  const body = readFileSync(file);
  const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const allowed = await allowedWait(async () => assert.equal((await send(server, { method: 'GET', path: '/api/v1/releases', auth: false })).status, 200));
  const before = peak();
  const started = performance.now();
  const installing = send(server, { method: 'POST', path: '/api/v1/plugins', headers: { 'content-type': 'application/octet-stream' }, body });
  let done = false;
  void installing.then(() => (done = true));
  const waits: number[] = [];
  while (!done && performance.now() - started < 120_000) {
    const asked = performance.now();
    assert.equal((await send(server, { method: 'GET', path: '/api/v1/releases', auth: false })).status, 200);
    if (!done) waits.push(performance.now() - asked);
    await new Promise((r) => setTimeout(r, 100));
  }
  const installed = await installing;
  assert.equal(installed.status, 400, installed.body);
  assert.match(installed.body, /package\/no-manifest/);
  assert.ok(Math.max(0, ...waits) < allowed.bound, `answers while the package was read took ${waits.map(Math.round).join(', ')} ms; ${allowed.describe(Math.max(0, ...waits))}`);
  const grown = peak() - before;
  assert.ok(grown < 200, `the server's peak memory grew by ${Math.round(grown)} MB reading a ${Math.round(body.length / 1e6)} MB package of 400 MB`);
});

test('API: the server is healthy after every hostile request', options, async () => {
  const res = await send(server, { method: 'GET', path: '/api/v1/releases' });
  assert.equal(res.status, 200);
});
