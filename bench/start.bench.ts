/**
 * Server start-up (issue 19): from spawning `hearth serve` (the built CLI, embedded database) to its
 * first answered request (`GET /healthz`, then `GET /readyz` and `GET /api/v1/releases`), on a first
 * start (an empty data folder) and on a restart, side by side with `node -e 0` in the same run.
 * Goals: a restart within 5x `node -e 0`, a first start within 15x. Runs take turns so a change of
 * machine load spreads over every case.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { report, summarise } from './harness.js';

const bin = fileURLToPath(new URL('../bin/hearth', import.meta.url));
const ROUNDS = Number(process.env.HEARTH_START_ROUNDS ?? 5);

/** Milliseconds from spawn to each of the three answers; the server is then stopped. */
async function startOnce(dataDir: string): Promise<{ health: number; ready: number; releases: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
    env: { ...process.env, DATABASE_URL: '', HEARTH_ADMIN_TOKEN: 'bench-start-token-0123456789' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start in 120 s:\n${out}`)), 120_000);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`hearth serve exited with ${code}:\n${out}`)));
    });
    const until = async (path: string) => {
      for (;;) {
        const res = await fetch(url + path).catch(() => undefined);
        if (res?.ok) return performance.now() - started;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const health = await until('/healthz');
    const ready = await until('/readyz');
    const releases = await until('/api/v1/releases');
    return { health, ready, releases };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
  }
}

const node: number[] = [];
const first = { health: [] as number[], releases: [] as number[] };
const restart = { health: [] as number[], releases: [] as number[] };
const loadBefore = loadavg()[0];
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  node.push(performance.now() - t0);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-start-'));
  try {
    const a = await startOnce(join(dir, 'data'));
    first.health.push(a.health);
    first.releases.push(a.releases);
    const b = await startOnce(join(dir, 'data'));
    restart.health.push(b.health);
    restart.releases.push(b.releases);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const baseline = summarise('node -e 0', node);
report(`hearth serve start-up (load ${loadBefore.toFixed(1)} -> ${loadavg()[0].toFixed(1)})`, [
  baseline,
  { ...summarise('restart: first answer (/healthz)', restart.health), baselineMs: baseline.medianMs, targetMs: Math.round(baseline.medianMs * 5), note: 'goal 5x node -e 0' },
  { ...summarise('restart: first data (/api/v1/releases)', restart.releases), baselineMs: baseline.medianMs },
  { ...summarise('first start: first answer (/healthz)', first.health), baselineMs: baseline.medianMs, targetMs: Math.round(baseline.medianMs * 15), note: 'goal 15x node -e 0' },
  { ...summarise('first start: first data (/api/v1/releases)', first.releases), baselineMs: baseline.medianMs },
]);
