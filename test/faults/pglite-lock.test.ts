/**
 * Two processes must never own one PGlite data folder (issue 20, item 5). The lock used to delete
 * a stale lock file and create its own: two servers starting together after a crash both did, in
 * 16 of 30 rounds, and rows one committed were gone when the folder was reopened. Here two real
 * processes race for 100 folders, each holding a lock left by a killed server, at the same instant
 * (within a millisecond): exactly one may win each. Then two real servers start on one folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hearthBin } from '../support/serve.js';
import { TOKEN } from './support.js';

const ROUNDS = 100;
/** Far above any pid the kernel hands out (pid_max is at most 2^22): a server that is gone. */
const DEAD_PID = '999999999';
const contender = fileURLToPath(new URL('./lock-contender.ts', import.meta.url));
const lockModule = process.env.HEARTH_LOCK_MODULE ?? fileURLToPath(new URL('../../src/store/pglite.ts', import.meta.url));
const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', contender, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`contender exited with ${code}: ${out}`));
    });
  });
}

test('two processes locking 100 folders left locked by a killed server, at the same instant: one wins each', async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-lock-race-'));
  try {
    const dirs = Array.from({ length: ROUNDS }, (_, i) => {
      const dir = join(root, `data${i}`);
      mkdirSync(dir);
      // What a killed server leaves, in the old form and in the current one.
      writeFileSync(join(dir, 'hearth-server.lock'), DEAD_PID);
      writeFileSync(join(dir, 'hearth-server.lock.1'), DEAD_PID);
      return dir;
    });
    // Both contenders load first (Node and tsx take a while), then meet at agreed instants.
    const start = String(Date.now() + 6_000);
    const [a, b] = await Promise.all([run([lockModule, start, '60', ...dirs]), run([lockModule, start, '60', ...dirs])]);
    const [first, second] = [a, b].map((out) => JSON.parse(out.trim().split('\n').pop()!) as string[]);
    const doubled = first.map((outcome, i) => (outcome === 'locked' && second[i] === 'locked' ? i : -1)).filter((i) => i >= 0);
    assert.deepEqual(doubled, [], `both processes locked folders ${doubled.join(', ')}`);
    for (let i = 0; i < ROUNDS; i++) {
      assert.deepEqual([first[i], second[i]].sort(), ['locked', 'store/data-dir-in-use'], `folder ${i}: ${first[i]} / ${second[i]}`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('two servers started on one folder after a crash: one serves, the other is refused and says why', { skip: built ? false : 'dist/ is not built' }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-lock-serve-'));
  writeFileSync(join(dataDir, 'hearth-server.lock'), DEAD_PID);
  const children = [0, 1].map(() =>
    spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], { env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  try {
    const outcomes = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve) => {
            let out = '';
            const look = (d: Buffer) => {
              out += d;
              if (/http:\/\/127\.0\.0\.1:\d+/.test(out)) resolve('serving');
            };
            child.stdout!.on('data', look);
            child.stderr!.on('data', look);
            child.on('exit', (code) => resolve(`exit ${code}: ${out}`));
            setTimeout(() => resolve(`no answer in time: ${out}`), 90_000).unref();
          }),
      ),
    );
    const serving = outcomes.filter((o) => o === 'serving').length;
    assert.equal(serving, 1, outcomes.join('\n'));
    const refused = outcomes.find((o) => o !== 'serving')!;
    assert.match(refused, /^exit 1: [\s\S]*another Hearth server \(pid \d+\) is using the data folder/);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
