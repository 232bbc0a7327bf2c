/**
 * A data folder Hearth may not write: the server must refuse to start with a clear message (no
 * stack trace, exit status not 0), and leave every byte of the folder as it was. Root ignores
 * file modes, so when the tests run as root the server runs as `nobody` (uid 65534).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hearthBin, startServer } from '../support/serve.js';
import { changes, snapshot, STACK_TRACE } from '../hostile/harness.js';
import { TOKEN } from './support.js';
import { asRoot, NOBODY, nobodyCannotRun } from '../support/nobody.js';

const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));
/** As root the server runs as `nobody`, who must be able to run Node and read Hearth itself, or the refusal would prove nothing. */
const skip = !built ? 'dist/ is not built' : nobodyCannotRun();

/** Run `hearth serve` on `dataDir` as a user who may not write it; resolve with its exit and output. */
function serveReadOnly(dataDir: string, home: string): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--data-dir', dataDir], {
      env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: TOKEN, HOME: home, TMPDIR: home },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
      // It must not get as far as listening; if it does, stop it and let the test fail.
      if (/http:\/\/127\.0\.0\.1:\d+/.test(output)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

function scratch(): { root: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), 'hearth-readonly-'));
  const home = join(root, 'home');
  mkdirSync(home);
  if (asRoot) chmodSync(root, 0o755);
  chmodSync(home, 0o777);
  return { root, home };
}

test('an existing data folder that is read-only: a clear refusal at start, nothing changed', { skip }, async () => {
  const { root, home } = scratch();
  const dataDir = join(root, 'data');
  try {
    // A real data folder with an environment in it, written by a normal run.
    const first = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN } });
    const res = await fetch(`${first.url}/api/v1/nodes`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ simulate: { count: 2 } }) });
    assert.equal(res.status, 201);
    await first.stop();
    const before = snapshot(dataDir);
    if (!asRoot) chmodSync(dataDir, 0o555);
    const run = await serveReadOnly(dataDir, home);
    if (!asRoot) chmodSync(dataDir, 0o755);
    assert.notEqual(run.code, 0, `the server must not start on a folder it cannot write:\n${run.output}`);
    assert.equal(run.signal, null, `it must exit by itself, not be killed:\n${run.output}`);
    assert.doesNotMatch(run.output, STACK_TRACE, 'no stack trace');
    assert.match(run.output, /data|folder|permission|read-only|write|EACCES/i, `the message names the problem:\n${run.output}`);
    assert.deepEqual(changes(before, snapshot(dataDir)), [], 'the data folder is left as it was');
    // And a normal run afterwards still finds the data whole.
    const again = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN } });
    const nodes = (await (await fetch(`${again.url}/api/v1/nodes`)).json()) as unknown[];
    await again.stop();
    assert.equal(nodes.length, 2);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a data folder that cannot be created: a clear refusal at start', { skip }, async () => {
  const { root, home } = scratch();
  const parent = join(root, 'locked');
  mkdirSync(parent, { mode: 0o555 });
  try {
    const run = await serveReadOnly(join(parent, 'data'), home);
    assert.notEqual(run.code, 0, run.output);
    assert.equal(run.signal, null, run.output);
    assert.doesNotMatch(run.output, STACK_TRACE, 'no stack trace');
    assert.match(run.output, /data|folder|permission|write|EACCES/i, run.output);
    assert.equal(existsSync(join(parent, 'data')), false);
  } finally {
    chmodSync(parent, 0o755);
    rmSync(root, { recursive: true, force: true });
  }
});
