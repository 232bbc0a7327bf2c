/**
 * `hearth serve` as a child process on a data folder of the test's, for tests about the process
 * itself (start-up, signals, restarts): started, read as it prints, stopped on every path.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { hearthBin } from './serve.js';

export interface ServeProcess {
  child: ChildProcessByStdio<null, Readable, Readable>;
  url: string;
  output: () => string;
}

/** `hearth serve` (embedded database) on `dataDir`, once it says the address it is starting at. */
export async function serveProcess(dataDir: string, env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address in 120 s:\n${out}`)), 120_000);
    child.stdout.on('data', () => {
      const m = /Hearth is starting at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`hearth serve exited with ${code}:\n${out}`)));
  }).catch((err: Error) => {
    child.kill('SIGKILL');
    throw err;
  });
  return { child, url, output: () => out };
}

/** Once the banner is printed: the start-up work is done. */
export async function ready(s: ServeProcess): Promise<void> {
  const until = Date.now() + 120_000;
  while (!/Press Ctrl-C/.test(s.output())) {
    assert.ok(Date.now() < until, `not ready in 120 s:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `signal`, then SIGKILL when it has not ended 30 s later; nothing when it has ended already. */
export async function stop(s: ServeProcess, signal: NodeJS.Signals): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
}
