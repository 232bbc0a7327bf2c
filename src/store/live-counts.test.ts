/**
 * A running run's counts as its writer keeps them (live-counts.ts) must be what counting its rows
 * says, after every batch, on both databases: reports in random order and batches, tasks started
 * several times, messages that decide an outcome (timed out, killed, stopped, not run) said in one
 * report and kept by a later one without, stops stored as skipped, and a resumed run's done and
 * skipped tasks. A batch the database refuses leaves the counts as they were.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { emptyCounts, type RunCounts } from '../core/lifecycle/index.js';
import { LiveCounts } from './live-counts.js';
import { openStore } from './open.js';
import { OUTCOME_SQL, runCounts } from './outcomes.js';
import * as runs from './task-runs.js';

/** A small deterministic generator, so a failure names a seed that replays it. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const ENDS: Array<Pick<runs.TaskRunUpdate, 'status' | 'message'>> = [
  { status: 'ready' },
  { status: 'error', message: 'exit status 2' },
  { status: 'error', message: 'timed out after 3 s' },
  { status: 'error', message: 'killed at the end of the grace period' },
  { status: 'error' },
  { status: 'stopped', message: 'stopped: the deployment was stopped' },
  { status: 'stopped' },
  { status: 'skipped', message: 'not run: a failed on node 1' },
  { status: 'skipped' },
];

for (const which of ['pglite', 'postgres'] as const) {
  const url = process.env.HEARTH_TEST_DATABASE_URL;
  test(`a running run's kept counts are its rows' counts (${which})`, { skip: which === 'postgres' && !url ? 'HEARTH_TEST_DATABASE_URL not set' : false }, async () => {
    const schema = `hearth_livecounts_${randomBytes(5).toString('hex')}`;
    const db = which === 'pglite' ? await openStore({ inMemory: true }) : await openStore({ databaseUrl: url, schema });
    const counted = async (id: number): Promise<RunCounts> => {
      const c = emptyCounts();
      for (const r of await db.query<{ o: keyof RunCounts; n: number }>(`SELECT ${OUTCOME_SQL} AS o, count(*)::int AS n FROM deployment_tasks WHERE deployment_id = $1 GROUP BY 1`, [id])) c[r.o] = r.n;
      return c;
    };
    try {
      await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', '{}'::jsonb)`);
      const cluster = (await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes) VALUES ('c', 'r', '[]', '{}') RETURNING id`))[0].id;
      for (const seed of [1, 2, 3]) {
        const next = random(seed);
        const tasks: Array<{ node: string; taskId: string; type: string; skipped?: boolean; doneIn?: number }> = Array.from({ length: 300 }, (_, i) => ({ node: String(i % 7), taskId: `t${i}`, type: 'shell', ...(next() < 0.1 ? { skipped: true } : next() < 0.2 ? { doneIn: 99 } : {}) }));
        const id = await db.transaction((tx) => runs.createRealDeployment(tx, cluster, 'default', tasks, 1));
        const live = new LiveCounts(tasks);
        assert.deepEqual((await runCounts(db, [id])).get(id), await counted(id), `seed ${seed}: as created`);
        // Each task to run: one to three starts (a retry), then maybe an end; some end in a later batch.
        const toRun = tasks.map((t, i) => ({ t, i })).filter(({ t }) => !t.skipped && t.doneIn === undefined).map(({ i }) => i);
        const reports: runs.TaskRunUpdate[] = [];
        for (const position of toRun) {
          const starts = 1 + Math.floor(next() * 3);
          for (let a = 1; a <= starts; a++) reports.push({ position, status: 'running', attempts: a, ...(a > 1 && next() < 0.5 ? { message: 'timed out after 1 s' } : {}) });
          if (next() < 0.85) reports.push({ position, ...ENDS[Math.floor(next() * ENDS.length)] });
        }
        // Batches in the writer's way: at most one report a task, in the order made.
        let batch = new Map<number, runs.TaskRunUpdate>();
        const send = async () => {
          const updates = [...batch.values()];
          batch = new Map();
          const after = live.after(updates);
          await runs.applyTaskUpdates(db, id, updates, after.counts);
          after.commit();
          assert.deepEqual((await runCounts(db, [id])).get(id), await counted(id), `seed ${seed}: after a batch`);
        };
        for (const r of reports) {
          if (batch.has(r.position) || batch.size >= 1 + Math.floor(next() * 60)) await send();
          batch.set(r.position, r);
        }
        await send();
        const before = live.counts;
        // Refused by the database (a time that is not whole milliseconds): nothing changes, and the counts stay.
        const refused = [{ position: toRun[0], status: 'ready' as const, finishedMs: 0.5 }];
        const after = live.after(refused);
        await assert.rejects(runs.applyTaskUpdates(db, id, refused, after.counts), /whole epoch milliseconds/);
        assert.deepEqual(live.counts, before);
        assert.deepEqual((await runCounts(db, [id])).get(id), await counted(id));
        // A write whose answer was lost after its commit: its row is finished, the writer's counts
        // do not know it. The end must leave that row as written.
        const unfinished = live.unfinishedPositions();
        const lostAnswer = unfinished.find((p) => toRun.includes(p));
        if (lostAnswer !== undefined) await runs.applyTaskUpdates(db, id, [{ position: lostAnswer, status: 'ready' }]);
        // Ended: counted from the rows (every unfinished task now skipped), not from the writer's
        // counts. Seed 2's end reads every row; the others' only the rows the writer's counts say
        // are unfinished, as the server's does.
        await runs.endRealDeployment(db, id, 'failed', 'a test', 'not run', seed === 2 ? undefined : unfinished);
        const ended = await counted(id);
        assert.equal(ended.pending + ended.running, 0, `seed ${seed}: nothing left pending or running`);
        assert.deepEqual((await runCounts(db, [id])).get(id), ended);
        if (lostAnswer !== undefined) {
          const [row] = await db.query<{ status: string }>('SELECT status FROM deployment_tasks WHERE deployment_id = $1 AND position = $2', [id, lostAnswer]);
          assert.equal(row.status, 'ready', `seed ${seed}: the row written after the counts were taken stays as written`);
        }
      }
      // A writer that does not count (verify networks') leaves the run's rows to be counted.
      const id = await db.transaction((tx) => runs.createRealDeployment(tx, cluster, 'default', [0, 1].map((i) => ({ node: '1', taskId: `t${i}`, type: 'shell' })), 1));
      await runs.applyTaskUpdates(db, id, [{ position: 0, status: 'error', message: 'timed out after 2 s' }]);
      assert.deepEqual((await runCounts(db, [id])).get(id), { ...emptyCounts(), timed_out: 1, pending: 1 });
    } finally {
      if (which === 'postgres') await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
      await db.close();
    }
  });
}
