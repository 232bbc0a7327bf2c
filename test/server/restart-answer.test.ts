/**
 * A restart answers GET /api/v1/releases at once, from what the last clean stop left in the data
 * folder (store/answer-snapshot.ts), while PGlite is still starting; after a crash, or once
 * anything else opened the folder, it waits for the database as before (issue 30).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { hearthBin } from '../support/serve.js';
import { claimDataFolder } from '../../src/store/lock.js';

const built = existsSync(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js'));
const TOKEN = 'restart-answer-token-0123456789';
const ANSWER = 'releases-answer.json';

interface Server {
  child: ChildProcessByStdio<null, Readable, Readable>;
  url: string;
  output: () => string;
}

/** `hearth serve` on `dataDir`, once it says the address it is starting at. */
async function serve(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], { env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Once the banner is printed: then a SIGTERM is a clean stop (hearth serve handles it from there). */
async function ready(s: Server): Promise<void> {
  const until = Date.now() + 120_000;
  while (!/Press Ctrl-C/.test(s.output())) {
    assert.ok(Date.now() < until, `not ready in 120 s:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stop(s: Server, signal: NodeJS.Signals): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill(signal);
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
}

test('a restart answers the releases before its database is open, exactly as the stop left them; not after a crash or another open', { skip: built ? false : 'dist/ is not built (npm run build)', timeout: 600_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-restart-answer-'));
  const dataDir = join(root, 'data');
  const running: Server[] = [];
  try {
    const first = await serve(dataDir);
    running.push(first);
    await ready(first);
    const before = await (await fetch(`${first.url}/api/v1/releases`)).text();
    assert.ok((JSON.parse(before) as unknown[]).length >= 1, 'the bundled release is installed');
    await stop(first, 'SIGTERM');
    assert.equal(first.child.exitCode, 0, first.output());
    assert.equal(statSync(join(dataDir, ANSWER)).mode & 0o777, 0o600, 'the stop left its answer, for the owner alone');

    // Asked the moment the address is printed: the answer comes while /readyz still says starting.
    const second = await serve(dataDir);
    running.push(second);
    const early = await fetch(`${second.url}/api/v1/releases`);
    const readyz = await fetch(`${second.url}/readyz`);
    assert.equal(early.status, 200);
    assert.match(early.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(await early.text(), before, 'the same answer as before the stop');
    assert.equal(readyz.status, 503, 'answered before the database was open (PGlite takes most of a second to start)');
    assert.ok(!existsSync(join(dataDir, ANSWER)), 'taken away as the folder was opened');
    await ready(second);
    assert.equal(await (await fetch(`${second.url}/api/v1/releases`)).text(), before, 'the database says the same');
    // A crash leaves no answer: the next start waits for its database.
    await stop(second, 'SIGKILL');
    assert.ok(!existsSync(join(dataDir, ANSWER)));
    const third = await serve(dataDir);
    running.push(third);
    const waited = await fetch(`${third.url}/api/v1/releases`);
    assert.equal(waited.status, 200);
    assert.equal((await fetch(`${third.url}/readyz`)).status, 200, 'after a crash the answer waited for the database');
    assert.equal(await waited.text(), before);
    await ready(third);
    await stop(third, 'SIGTERM');
    assert.ok(existsSync(join(dataDir, ANSWER)));
    // Anything else that opens the folder (hearth db import, hearth token…) takes it away.
    rmSync(claimDataFolder(dataDir));
    assert.ok(!existsSync(join(dataDir, ANSWER)), 'whoever opens the folder removes the answer');
  } finally {
    for (const s of running) await stop(s, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});
