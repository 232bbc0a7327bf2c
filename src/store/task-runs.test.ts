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
