/**
 * Task reports as a run writes them (applyTaskUpdates), on both databases: the columns travel as
 * arrays and the times as epoch milliseconds (issue 30), so text that looks like an array's syntax
 * or its NULL, characters PostgreSQL refuses, and the ISO times of older callers must all come back
 * as they were reported.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { openStore } from './open.js';
import * as runs from './task-runs.js';
import { deploymentTasks } from './deployments.js';
import { OUTCOME_SQL } from './outcomes.js';

for (const which of ['pglite', 'postgres'] as const) {
  const url = process.env.HEARTH_TEST_DATABASE_URL;
  test(`task reports come back as reported (${which})`, { skip: which === 'postgres' && !url ? 'HEARTH_TEST_DATABASE_URL not set' : false }, async () => {
  const schema = `hearth_taskruns_${randomBytes(5).toString('hex')}`;
  const db = which === 'pglite' ? await openStore({ inMemory: true }) : await openStore({ databaseUrl: url, schema });
  try {
    await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', '{}'::jsonb)`);
    const cluster = (await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes) VALUES ('c', 'r', '[]', '{}') RETURNING id`))[0].id;
    const id = await db.transaction((tx) => runs.createRealDeployment(tx, cluster, 'default', [0, 1, 2, 3].map((i) => ({ node: '1', taskId: `t${i}`, type: 'shell' })), 1));
    const t0 = Date.parse('2026-11-28T10:00:00.123Z');
    await runs.applyTaskUpdates(db, id, [{ position: 0, status: 'running', attempts: 1, startedMs: t0 }, { position: 1, status: 'running', startedAt: '2026-11-28T10:00:01.456Z' }]);
    const odd = 'NULL';
    const n = await runs.applyTaskUpdates(db, id, [
      { position: 0, status: 'ready', exitStatus: 0, attempts: 1, output: odd, finishedMs: t0 + 5 },
      { position: 1, status: 'error', exitStatus: 3, output: 'a "q" \\ {b,c} \u0000 \ud800 é', message: 'exit, "3"', finishedAt: '2026-11-28T10:00:02.789Z' },
      { position: 2, status: 'stopped', message: 'stopped' },
    ]);
    assert.equal(n, 3);
    const rows = await runs.taskRuns(db, id, { withOutput: true });
    const by = new Map(rows.map((r) => [r.position, r]));
    assert.equal(by.get(0)!.output, 'NULL');
    assert.equal(by.get(0)!.started_at, '2026-11-28T10:00:00.123Z');
    assert.equal(by.get(0)!.finished_at, '2026-11-28T10:00:00.128Z');
    assert.equal(by.get(1)!.output, 'a "q" \\ {b,c} \ufffd \ufffd é');
    assert.equal(by.get(1)!.message, 'exit, "3"');
    assert.equal(by.get(1)!.exit_status, 3);
    assert.equal(by.get(1)!.started_at, '2026-11-28T10:00:01.456Z');
    assert.equal(by.get(1)!.finished_at, '2026-11-28T10:00:02.789Z');
    assert.equal(by.get(2)!.status, 'skipped');
    assert.equal(by.get(3)!.status, 'pending');
    const [{ done }] = await db.query<{ done: number }>('SELECT done FROM deployments WHERE id = $1', [id]);
    assert.equal(done, 3);
    // A time that is not whole milliseconds is refused by name, and nothing of its batch is written.
    await assert.rejects(runs.applyTaskUpdates(db, id, [{ position: 3, status: 'ready', finishedMs: t0 + 0.5 }]), /whole epoch milliseconds/);
    assert.equal((await runs.taskRuns(db, id, { task: 't3' }))[0].status, 'pending');

    // A run's rows say which tasks were skipped by the graph and which a resumed run finished, and
    // only those: a run with neither (its skipped and done columns sent empty) has every row pending.
    const resumed = await db.transaction((tx) =>
      runs.createRealDeployment(tx, cluster, 'default', [{ node: '1', taskId: 'a', type: 'shell', skipped: true }, { node: '1', taskId: 'b', type: 'puppet', doneIn: id }, { node: '2', taskId: 'c', type: 'shell' }], 1),
    );
    assert.deepEqual((await runs.taskRuns(db, resumed)).map((r) => [r.node, r.task_id, r.type, r.position, r.status, r.message]), [['1', 'a', 'shell', 0, 'skipped', null], ['1', 'b', 'puppet', 1, 'ready', `done in deployment ${id}`], ['2', 'c', 'shell', 2, 'pending', null]]);
    const [{ done: resumedDone }] = await db.query<{ done: number }>('SELECT done FROM deployments WHERE id = $1', [resumed]);
    assert.equal(resumedDone, 1);
    // Names as they were given, even those that look like an array literal's syntax or its NULL.
    const names = ['NULL', 'a "q" \\ {b,c}', ' x ', ''];
    const fresh = await db.transaction((tx) => runs.createRealDeployment(tx, cluster, 'default', names.map((name, i) => ({ node: name, taskId: names[(i + 1) % 4], type: names[(i + 2) % 4] })), 1));
    assert.deepEqual((await runs.taskRuns(db, fresh)).map((r) => [r.node, r.task_id, r.type, r.position, r.status, r.message]), names.map((name, i) => [name, names[(i + 1) % 4], names[(i + 2) % 4], i, 'pending', null]));
  } finally {
    if (which === 'postgres') await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
    await db.close();
  }
  });
}

// A run's task list, its tasks with outcomes and what a resume skips are read as one JSON value
// (many-rows.ts), not a row each: they must say exactly what the rows say, read the ordinary way,
// times with microseconds, NULLs, texts JSON must escape and every status included.
for (const which of ['pglite', 'postgres'] as const) {
  const url = process.env.HEARTH_TEST_DATABASE_URL;
  test(`a run's tasks read as one value are its rows (${which})`, { skip: which === 'postgres' && !url ? 'HEARTH_TEST_DATABASE_URL not set' : false }, async () => {
    const schema = `hearth_manyrows_${randomBytes(5).toString('hex')}`;
    const db = which === 'pglite' ? await openStore({ inMemory: true }) : await openStore({ databaseUrl: url, schema });
    try {
      await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', '{}'::jsonb)`);
      const cluster = (await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes) VALUES ('c', 'r', '[]', '{}') RETURNING id`))[0].id;
      const odd = ['plain', 'a "q" \\ {b,c}', 'line\nbreak\ttab', 'é ☃ 𝄞', '', 'NULL', '</script>'];
      const tasks = Array.from({ length: 60 }, (_, i) => ({ node: odd[i % odd.length] + (i % 3), taskId: `t${i}`, type: i % 5 === 0 ? 'stage' : 'shell', ...(i % 11 === 0 ? { skipped: true } : {}) }));
      const id = await db.transaction((tx) => runs.createRealDeployment(tx, cluster, 'default', tasks, 1));
      const statuses = ['running', 'ready', 'error', 'stopped'] as const;
      const t0 = Date.parse('2026-11-28T10:00:00.000Z');
      await runs.applyTaskUpdates(db, id, tasks.map((_, i) => i).filter((i) => i % 11 !== 0 && i % 7 !== 0).map((i) => ({
        position: i,
        status: statuses[i % 4],
        ...(i % 2 ? { exitStatus: i % 4 === 2 ? 2 : 0, attempts: 1 + (i % 3) } : {}),
        ...(i % 3 ? { message: i % 4 === 2 ? 'timed out after 5 s' : i % 4 === 3 ? 'stopped by the operator' : odd[i % odd.length] } : {}),
        output: odd[i % odd.length].repeat(3),
        startedMs: t0 + i * 1000 + 7,
        ...(i % 4 ? { finishedMs: t0 + i * 1001 + 999 } : {}),
      })));
      // Times the writer never makes but a database holds: microseconds, a half millisecond, the last one.
      await db.query(`UPDATE deployment_tasks SET started_at = '2026-11-28 10:00:00.122999+00', finished_at = '2026-11-28 23:59:59.9999995+00' WHERE deployment_id = $1 AND position = 1`, [id]);
      await db.query(`UPDATE deployment_tasks SET started_at = '1999-12-31 23:59:59.0005+00' WHERE deployment_id = $1 AND position = 2`, [id]);
      const iso = (t: Date | string | null) => (t === null ? null : new Date(t).toISOString());
      const byRows = async (where: string, params: unknown[]) =>
        (await db.query<runs.TaskRunView & { started_at: Date | string | null; finished_at: Date | string | null }>(
          `SELECT node, task_id, type, position, status, exit_status, attempts, message, started_at, finished_at, output FROM deployment_tasks WHERE deployment_id = $1${where}
           ORDER BY CASE status WHEN 'error' THEN 0 WHEN 'running' THEN 1 ELSE 2 END, position`,
          [id, ...params],
        )).map((r) => ({ ...r, started_at: iso(r.started_at), finished_at: iso(r.finished_at) }));
      const withoutOutput = (rows: runs.TaskRunView[]) => rows.map(({ output: _, ...r }) => r);
      const all = await byRows('', []);
      assert.ok(all.some((r) => r.status === 'error') && all.some((r) => r.status === 'running') && all.some((r) => r.status === 'pending'));
      assert.deepEqual(await runs.taskRuns(db, id), withoutOutput(all));
      assert.deepEqual(await runs.taskRuns(db, id, { withOutput: true }), all);
      assert.deepEqual(await runs.taskRuns(db, id, { node: tasks[3].node, withOutput: true }), await byRows(' AND node = $2', [tasks[3].node]));
      assert.deepEqual(await runs.taskRuns(db, id, { status: 'error' }), withoutOutput(await byRows(' AND status = $2', ['error'])));
      assert.deepEqual(await runs.taskRuns(db, id, { task: 'nothing-of-that-name' }), []);
      assert.equal((await runs.taskRuns(db, id)).find((r) => r.position === 1)!.finished_at, iso((await db.query<{ f: Date }>('SELECT finished_at AS f FROM deployment_tasks WHERE deployment_id = $1 AND position = 1', [id]))[0].f));

      // The live stream's changes since a moment: started or ended after it, in the order they did.
      const since = '2026-11-28T10:00:20.000Z';
      const changed = (await db.query<runs.TaskRunView & { started_at: Date | string | null; finished_at: Date | string | null }>(
        `SELECT node, task_id, type, position, status, exit_status, attempts, message, started_at, finished_at FROM deployment_tasks
         WHERE deployment_id = $1 AND (started_at > $2::timestamptz OR finished_at > $2::timestamptz) ORDER BY coalesce(finished_at, started_at), position`,
        [id, since],
      )).map((r) => ({ ...r, started_at: iso(r.started_at), finished_at: iso(r.finished_at) }));
      assert.ok(changed.length > 10 && changed.length < all.length - 10, 'some tasks changed since, not all');
      assert.deepEqual((await runs.taskChanges(db, id, since)).tasks, changed);
      assert.deepEqual((await runs.taskChanges(db, id, '2100-01-01T00:00:00.000Z')).tasks, []);

      const records = await db.query<{ node: string; taskId: string; position: number; status: string; outcome: string }>(`SELECT node, task_id AS "taskId", position, status, ${OUTCOME_SQL} AS outcome FROM deployment_tasks WHERE deployment_id = $1 ORDER BY position`, [id]);
      assert.deepEqual(await deploymentTasks(db, id), records);
      assert.ok(new Set(records.map((r) => r.outcome)).size >= 5, 'several outcomes are compared');

      await runs.endRealDeployment(db, id, 'failed', 'a test');
      const ready = await db.query<{ node: string; task_id: string }>(`SELECT node, task_id FROM deployment_tasks WHERE deployment_id = $1 AND status = 'ready' AND type NOT IN ('stage', 'group', 'skipped')`, [id]);
      const resume = await runs.resumable(db, cluster, 'default');
      assert.ok('done' in resume && ready.length > 0);
      assert.deepEqual([...resume.done].sort(), ready.map((r) => `${r.node}\u0000${r.task_id}`).sort());
    } finally {
      if (which === 'postgres') await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
      await db.close();
    }
  });
}
