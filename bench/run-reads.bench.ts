/**
 * What reading a large real run costs the server (issue 30): a run of 200,000 tasks whose reports
 * were written as the server writes them (batches of starts and ends), read as the server reads it
 * while it runs (the live stream's look every 500 ms: its changes since the last look and its
 * counts; the task list) and once it has ended (the task list, one node's tasks with their output,
 * the nodes' outcomes, what a resume may skip, the Graph tab's durations, the run with its tasks).
 * PGlite in a thread of its own, as `hearth serve` runs it; CPU of both threads. Bookkeeping that is
 * cheaper to write but dearer to read shows here: bench deploy measures only the writing.
 * `HEARTH_BENCH_RUN_READS_TASKS` replaces the run's size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as store from '../src/store/index.js';
import { pastTaskDurations } from '../src/store/task-durations.js';
import { LiveCounts } from '../src/store/live-counts.js';
import * as runs from '../src/store/task-runs.js';

const TASKS = Number(process.env.HEARTH_BENCH_RUN_READS_TASKS ?? 200_000);
const NODES = 1000;
const BATCH = 1000;

const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-run-reads-'));
const db = await store.openStore({ dataDir, thread: true });
try {
  await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', '{}'::jsonb)`);
  const [{ id: cluster }] = await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes) VALUES ('bench', 'r', '[]', '{}') RETURNING id`);
  const list = Array.from({ length: TASKS }, (_, i) => ({ node: String(i % NODES), taskId: `task-${Math.floor(i / NODES)}`, type: 'shell' }));
  const id = await db.transaction((tx) => runs.createRealDeployment(tx, cluster, 'default', list, 1));
  // The run's counts kept with each batch, as its writer keeps them (run-reports.ts).
  const live = new LiveCounts(list);
  // Ten tasks start each millisecond, each ends 5 ms after it started; a batch holds the starts of
  // BATCH tasks and the ends of the BATCH before (a real transport's tasks outlast a batch).
  const t0 = Date.now() - TASKS / 10 - 10_000;
  for (let c = 0; c <= TASKS / BATCH; c++) {
    const batch: runs.TaskRunUpdate[] = [];
    if (c < TASKS / BATCH) for (let i = c * BATCH; i < (c + 1) * BATCH; i++) batch.push({ position: i, status: 'running', attempts: 1, startedMs: t0 + Math.floor(i / 10) });
    if (c > 0) for (let i = (c - 1) * BATCH; i < c * BATCH; i++) batch.push({ position: i, status: 'ready', exitStatus: 0, attempts: 1, output: `task ${i} done\n`, finishedMs: t0 + Math.floor(i / 10) + 5 });
    const counted = live.after(batch);
    await runs.applyTaskUpdates(db, id, batch, counted.counts);
    counted.commit();
  }
  const lastHalfSecond = new Date(t0 + TASKS / 10 - 500).toISOString();
  const rows: string[] = [];
  async function time(what: string, read: () => Promise<number>): Promise<void> {
    const wall: number[] = [];
    const cpu: number[] = [];
    let n = 0;
    for (let k = 0; k < 3; k++) {
      const c = process.cpuUsage();
      const s = performance.now();
      n = await read();
      wall.push(performance.now() - s);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1];
    rows.push(`| ${what} | ${median(wall).toFixed(0)} | ${median(cpu).toFixed(0)} | ${n} |`);
  }
  await time('running: the live stream\'s look (changes in the last 0.5 s, counts)', async () => {
    const changes = await runs.taskChanges(db, id, lastHalfSecond);
    await store.runCounts(db, [id]);
    return changes.tasks.length;
  });
  await time('running: its counts alone (kept by the writer)', async () => Object.values((await store.runCounts(db, [id])).get(id)!).reduce((a, b) => a + b, 0));
  await time('running: the task list', async () => (await runs.taskRuns(db, id)).length);
  await runs.endRealDeployment(db, id, 'failed', 'bench');
  await time('ended: the task list', async () => (await runs.taskRuns(db, id)).length);
  await time('ended: one node\'s tasks with output', async () => (await runs.taskRuns(db, id, { node: '5', withOutput: true })).length);
  await time('ended: the nodes\' outcomes', async () => (await store.nodeOutcomes(db, id)).size);
  await time('ended: what a resume may skip', async () => {
    const r = await runs.resumable(db, cluster, 'default');
    return 'done' in r ? r.done.size : 0;
  });
  await time('ended: the Graph tab\'s durations', async () => (await pastTaskDurations(db, { clusterId: cluster }, 'default')).byTask.size);
  await time('ended: the run with its tasks', async () => (await store.deploymentTasks(db, id)).length);
  console.log(`\n## reading a real run of ${TASKS} tasks on ${NODES} nodes (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${cpus().length} cores), median of 3`);
  console.log('| read | wall ms | CPU ms (both threads) | rows |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
