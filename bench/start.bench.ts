/**
 * Server start-up (issue 19): from spawning `hearth serve` (the built CLI, embedded database) to its
 * first answered request (`GET /healthz`, then `GET /readyz` and `GET /api/v1/releases`), on a first
 * start (an empty data folder) and on a restart, side by side with `node -e 0` in the same run.
 * Goals: a restart within 5x `node -e 0`, a first start within 15x. Runs take turns so a change of
 * machine load spreads over every case. Also the server's memory once idle (issue 30: under 150 MB
 * RSS), against `node -e 0`'s own RSS in the same run, with what holds it: the largest mappings of
 * /proc/<pid>/smaps (PGlite's WebAssembly memory is the 128 MB reservation) and the threads' malloc
 * arenas. A first start's largest arena (17-38 of 41 MB) was V8's optimising compiler's, on one of its
 * background threads: TurboFan compiling PGlite's largest hot function (104 KB of WebAssembly, 42 MB
 * of compiler memory, 1 s) while the bundled release was installed, which glibc keeps once freed. At
 * the tiering budget store/pglite-thread.ts now sets, a first start no longer sends it up: 152-155 MB
 * idle, of which the bundled release's install is about 8 (144-145 MB with --no-bundled-release), the
 * rest the first start's own work (the data folder restored, the SSH key made). A server that has
 * answered enough requests has that function optimised, and holds its compiler's memory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { report, summarise } from './harness.js';

const bin = fileURLToPath(new URL('../bin/hearth', import.meta.url));
const ROUNDS = Number(process.env.HEARTH_START_ROUNDS ?? 5);

const IDLE_MS = 3000;
const kb = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);

/** glibc's malloc arenas of threads other than the main one: heaps aligned to, and at most, 64 MB. */
const ARENA = 64 * 1048576;

/**
 * Names an anonymous mapping: a thread's malloc arena (what V8's compilers and Node's threads
 * allocate with malloc; glibc keeps what was freed in it), or anonymous (V8's heaps, PGlite's
 * WebAssembly memory, malloc's large blocks).
 */
function anonymousName(start: number, size: number): string {
  return start % ARENA === 0 && size <= ARENA ? 'malloc arena' : 'anonymous';
}

/** A process's RSS (MB) and its largest mappings by resident size. */
function memoryOf(pid: number): { rssMb: number; anonMb: number; regions: string[] } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const regions: Array<{ name: string; sizeMb: number; rssMb: number }> = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const start = parseInt(head[1], 16);
      const size = parseInt(head[2], 16) - start;
      regions.push({ name: head[3] || anonymousName(start, size), sizeMb: size / 1048576, rssMb: 0 });
    }
    const rss = /^Rss:\s+(\d+)/.exec(line);
    if (rss && regions.length) regions[regions.length - 1].rssMb = Number(rss[1]) / 1024;
  }
  regions.sort((a, b) => b.rssMb - a.rssMb);
  const arenas = regions.filter((r) => r.name === 'malloc arena');
  const arenasMb = arenas.reduce((sum, r) => sum + r.rssMb, 0);
  return {
    rssMb: kb(status, 'VmRSS') / 1024,
    anonMb: kb(status, 'RssAnon') / 1024,
    regions: [...regions.slice(0, 6).map((r) => `${r.rssMb.toFixed(0)} of ${r.sizeMb.toFixed(0)} MB ${r.name}`), `all ${arenas.length} malloc arenas: ${arenasMb.toFixed(0)} MB`],
  };
}

/** Milliseconds from spawn to each of the three answers, and the memory once idle; the server is then stopped. */
async function startOnce(dataDir: string): Promise<{ health: number; ready: number; releases: number; memory: ReturnType<typeof memoryOf> }> {
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
    // Asked at once, beside the probes: the first useful answer, whenever it comes (a restart
    // answers it before /readyz does, from what the last clean stop left: store/answer-snapshot.ts).
    const firstData = until('/api/v1/releases');
    const health = await until('/healthz');
    const ready = await until('/readyz');
    const releases = await firstData;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { health, ready, releases, memory: memoryOf(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(undefined)));
  }
}

const node: number[] = [];
const nodeRss: number[] = [];
const first = { health: [] as number[], releases: [] as number[], rss: [] as number[], regions: [] as string[] };
const restart = { health: [] as number[], releases: [] as number[], rss: [] as number[], regions: [] as string[] };
const loadBefore = loadavg()[0];
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  node.push(performance.now() - t0);
  const rssOfNode = spawnSync(process.execPath, ['-e', "process.stdout.write(String(process.memoryUsage().rss))"], { encoding: 'utf8' }).stdout;
  nodeRss.push(Number(rssOfNode) / 1048576);
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-start-'));
  try {
    const a = await startOnce(join(dir, 'data'));
    first.health.push(a.health);
    first.releases.push(a.releases);
    first.rss.push(a.memory.rssMb);
    first.regions = a.memory.regions;
    const b = await startOnce(join(dir, 'data'));
    restart.health.push(b.health);
    restart.releases.push(b.releases);
    restart.rss.push(b.memory.rssMb);
    restart.regions = b.memory.regions;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const baseline = summarise('node -e 0', node);
report(`hearth serve start-up (load ${loadBefore.toFixed(1)} -> ${loadavg()[0].toFixed(1)})`, [
  baseline,
  { ...summarise('restart: first answer (/healthz)', restart.health), baselineMs: baseline.medianMs, targetMs: Math.round(baseline.medianMs * 5), note: 'goal 5x node -e 0' },
  { ...summarise('restart: first data (/api/v1/releases)', restart.releases), baselineMs: baseline.medianMs, targetMs: Math.round(baseline.medianMs * 5), note: 'goal 5x node -e 0 (issue 30)' },
  { ...summarise('first start: first answer (/healthz)', first.health), baselineMs: baseline.medianMs, targetMs: Math.round(baseline.medianMs * 15), note: 'goal 15x node -e 0' },
  { ...summarise('first start: first data (/api/v1/releases)', first.releases), baselineMs: baseline.medianMs },
]);

// Megabytes printed in the ms columns: the harness's table, with RSS in place of time.
const nodeRssT = summarise('node -e 0: RSS (MB)', nodeRss);
report(`hearth serve memory, idle ${IDLE_MS / 1000} s after its first answer of /api/v1/releases (MB in the ms columns; load ${loadavg()[0].toFixed(1)})`, [
  nodeRssT,
  { ...summarise('restart: RSS (MB)', restart.rss), baselineMs: nodeRssT.medianMs, targetMs: 150, note: 'goal under 150 MB' },
  { ...summarise('first start: RSS (MB)', first.rss), baselineMs: nodeRssT.medianMs, targetMs: 150, note: 'goal under 150 MB' },
]);
console.log(`\nWhat holds it (largest mappings by resident size, last restart): ${restart.regions.join('; ')}`);
console.log(`Last first start: ${first.regions.join('; ')}`);
