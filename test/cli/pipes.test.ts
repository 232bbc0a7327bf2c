/**
 * `hearth … | head`: when the reader of its output goes away, every command ends quietly with
 * status 0, as `cat` does, never with an EPIPE stack trace. The built `bin/hearth` (`npm run
 * build` first), its stdout a pipe the test closes: after the first chunk (long output), or
 * before anything was written (short output), and the same for stderr.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const hearthBin = fileURLToPath(new URL('../../bin/hearth', import.meta.url));
const release = fileURLToPath(new URL('../../release', import.meta.url));

interface Ended {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs `hearth args`, reading `closing` (stdout or stderr) as `head` would: its first chunk, or
 * nothing at all (`atOnce`), then closes it. The other stream is read to the end.
 */
function piped(args: string[], closing: 'stdout' | 'stderr', atOnce: boolean): Promise<Ended> {
  const child = spawn(process.execPath, [hearthBin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HEARTH_SERVER: 'http://127.0.0.1:9' } });
  const reader = child[closing]!;
  const other = closing === 'stdout' ? child.stderr! : child.stdout!;
  let stderr = '';
  if (closing === 'stdout') other.on('data', (d) => (stderr += d));
  else other.resume();
  if (atOnce) reader.destroy();
  else reader.once('data', () => reader.destroy());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hearth ${args.join(' ')} did not end in 60 s; stderr so far:\n${stderr}`));
    }, 60_000);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stderr });
    });
  });
}

const quiet = (run: Ended, what: string) => {
  assert.equal(run.signal, null, `${what}: killed by ${run.signal}`);
  assert.doesNotMatch(run.stderr, /EPIPE|Error|at /, `${what}: no stack trace`);
  assert.equal(run.status, 0, `${what}: status 0 when the reader left; stderr:\n${run.stderr}`);
};

test('hearth graph --format dot | head: ends quietly with status 0', async () => {
  // Some hundred kilobytes of dot: far more than a pipe holds, so writes go on after head left.
  const args = ['graph', '--release', release, '--nodes', 'controller:3,compute:60', '--format', 'dot'];
  quiet(await piped(args, 'stdout', false), 'after the first chunk');
  quiet(await piped(args, 'stdout', true), 'reader gone before the first write');
});

test('other commands, long and short output, stdout or stderr closed: quiet, status 0', async () => {
  const release_show = ['release', 'show', '--release', release, '--json'];
  quiet(await piped(release_show, 'stdout', false), 'release show --json after the first chunk');
  quiet(await piped(['plugin', 'validate', release], 'stdout', true), 'plugin validate');
  quiet(await piped(['--help'], 'stdout', true), '--help');
  quiet(await piped(['graph', '--help'], 'stdout', true), 'graph --help');
  // The error message of a client command with no server goes to stderr, whose reader left.
  const unreachable = await piped(['env', 'list'], 'stderr', true);
  assert.equal(unreachable.signal, null);
  assert.equal(unreachable.status, 0, 'stderr reader gone: quiet, status 0');
});

test('hearth serve goes on serving when the reader of its log leaves', async () => {
  const { startServer } = await import('../support/serve.js');
  const server = await startServer();
  try {
    server.process.stdout!.destroy();
    server.process.stderr!.destroy();
    // Requests are logged: each write now fails, and the server answers all the same.
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${server.url}/api/v1/releases`, { headers: { authorization: `Bearer ${server.token}` } });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    assert.equal(server.process.exitCode, null, 'still running');
  } finally {
    await server.stop();
  }
});
