/**
 * The shell session's command wrapper on a local shell (the same `sh` a node runs it in, without
 * SSH): what it does when the node is too busy to start the watcher before a quick command ends.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ShellSession } from './session.js';

const realSetsid = execFileSync('sh', ['-c', 'command -v setsid'], { encoding: 'utf8' }).trim();
const folder = mkdtempSync(join(tmpdir(), 'hearth-session-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** A session whose `setsid` starts 0.3 s late, as on a loaded node. */
const slowSession = (): ShellSession => {
  writeFileSync(join(folder, 'setsid'), `#!/bin/sh\nsleep 0.3\nexec ${realSetsid} "$@"\n`);
  chmodSync(join(folder, 'setsid'), 0o755);
  return new ShellSession(['env', `PATH=${folder}:${process.env.PATH}`, 'sh', '-c'], () => ({ code: 'ssh/failed', message: 'failed' }));
};

test('a command that ends before its watcher has started still ends, and the next one runs', async (t) => {
  const session = slowSession();
  t.after(() => session.close());
  // Before the fix, the first command never printed its end line: the shell waited for a watcher
  // that missed its kill and read the shell's own stdin (a task "still running" for an hour).
  for (const word of ['one', 'two', 'three']) {
    const r = await session.run(`echo ${word}`, { timeoutMs: 5_000 });
    assert.deepEqual(r, { exitCode: 0, output: `${word}\n`, timedOut: false }, word);
  }
  assert.ok(session.idle, 'the session is free for the next command');
});

test('a failing quick command reports its status, and the session stays usable', async (t) => {
  const session = slowSession();
  t.after(() => session.close());
  const failed = await session.run('echo nope >&2; exit 7', { timeoutMs: 5_000 });
  assert.equal(failed.exitCode, 7);
  assert.equal(failed.output, 'nope\n');
  const next = await session.run('printf %s "$((6 * 7))"', { timeoutMs: 5_000 });
  assert.deepEqual(next, { exitCode: 0, output: '42', timedOut: false });
});

test('closing the session ends the command it was running', async (t) => {
  const session = slowSession();
  t.after(() => session.close());
  const marker = join(folder, 'still-running');
  const running = session.run(`sleep 1; touch ${marker}.started; sleep 30; touch ${marker}`, { timeoutMs: 60_000 });
  await new Promise((r) => setTimeout(r, 2_000));
  session.close();
  const r = await running;
  assert.equal(r.exitCode, null);
  assert.equal(r.transportError, undefined, 'cut off by Hearth, not a lost connection');
  // The watcher saw its stdin close and sent TERM to the command's session.
  await new Promise((r) => setTimeout(r, 1_500));
  assert.throws(() => execFileSync('test', ['-e', marker]), 'the command did not go on to its end');
});
