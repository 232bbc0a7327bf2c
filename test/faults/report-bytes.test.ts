/**
 * Task reports survive what tasks print and what the database does (issue 24): a NUL byte or a
 * lone UTF-16 surrogate in one task's output once made PostgreSQL refuse the whole batch, silently,
 * so tasks that ran (one failed with exit 7) read as "not run". On both engines: every report of
 * such a batch is written, the bytes shown as U+FFFD; a write the database refuses is kept, told,
 * and written again; what finally cannot be written is counted, never dropped silently.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Task } from '../../src/core/tasks/model.js';
import type { VertexRef } from '../../src/deploy/index.js';
import { runReports } from '../../src/server/domain/runs/run-reports.js';
import type { Database, Queryable } from '../../src/store/index.js';
import * as runs from '../../src/store/task-runs.js';
import { engines } from '../server/support/engines.js';

const ref = (vertex: number, id: string): VertexRef => ({ vertex, node: '1', task: { id, type: 'shell', version: '2.1.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'release' } } satisfies Task });

async function newRun(db: Database, tasks: string[]): Promise<number> {
  await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', '{}'::jsonb) ON CONFLICT DO NOTHING`);
  const [{ id: cluster }] = await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes, status) VALUES ('c' || floor(random() * 1e9)::text, 'r', '[]', '{}', 'deploying') RETURNING id`);
  return runs.createRealDeployment(db, cluster, 'default', tasks.map((t) => ({ node: '1', taskId: t, type: 'shell' })), 1);
}

/**
 * The database as the reports see it, with `refusal` deciding, statement by statement, which are
 * refused (and how): in a statement of its own or in a transaction, as task-runs.ts may send them.
 */
function refusing(db: Database, refusal: (sql: string) => Error | undefined): Database {
  const query = <T>(q: Pick<Database, 'query'>, sql: string, params?: readonly unknown[]): Promise<T[]> => {
    const err = refusal(sql);
    return err ? Promise.reject(err) : q.query<T>(sql, params);
  };
  return Object.create(db, {
    query: { value: (sql: string, params?: readonly unknown[]) => query(db, sql, params) },
    transaction: { value: <T>(work: (tx: Queryable) => Promise<T>) => db.transaction((tx) => work({ ...tx, query: (sql: string, params?: readonly unknown[]) => query(tx, sql, params) })) },
  });
}

for (const engine of engines()) {
  describe(`task reports on ${engine.name}`, () => {
    after(() => engine.dispose());

    test('a NUL, a lone surrogate or a broken UTF-8 sequence in output loses no report of its batch', async () => {
      const db = await engine.open();
      try {
        const id = await newRun(db, ['nul', 'surrogate', 'fails', 'plain']);
        const reports = runReports(db, id, { positionOf: (v) => v, flushMs: 60_000 });
        const outputs = ['before\u0000after\n', 'half \ud800 pair\n', Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x00]).toString('utf8'), 'ok\n'];
        ['nul', 'surrogate', 'fails', 'plain'].forEach((t, v) => {
          reports.events.started!(ref(v, t), 1);
          reports.events.finished(ref(v, t), t === 'fails' ? 'error' : 'ready', { exitCode: t === 'fails' ? 7 : 0, output: outputs[v], attempts: 1, ...(t === 'fails' ? { message: 'exit status 7 \u0000' } : {}) });
        });
        await reports.close();
        assert.equal(reports.lost, 0);
        assert.equal(reports.firstFailure, undefined, 'the batch was taken at the first try');
        const rows = Object.fromEntries((await runs.taskRuns(db, id, { withOutput: true })).map((t) => [t.task_id, t]));
        assert.equal(rows.nul.status, 'ready');
        assert.equal(rows.nul.output, 'before\uFFFDafter\n');
        assert.equal(rows.surrogate.output, 'half \uFFFD pair\n');
        assert.equal(rows.fails.status, 'error');
        assert.equal(rows.fails.exit_status, 7);
        assert.equal(rows.fails.output, 'a\uFFFD\uFFFDb\uFFFD');
        assert.equal(rows.fails.message, 'exit status 7 \uFFFD');
        assert.equal(rows.plain.output, 'ok\n');
        const [run] = await db.query<{ done: number }>('SELECT done FROM deployments WHERE id = $1', [id]);
        assert.equal(run.done, 4);
        // The run's own message goes through the same rule.
        assert.equal(await runs.endRealDeployment(db, id, 'failed', '1 task failed: fails \u0000'), true);
        assert.equal((await db.query<{ message: string }>('SELECT message FROM deployments WHERE id = $1', [id]))[0].message, '1 task failed: fails \uFFFD');
      } finally {
        await db.close();
      }
    });

    test('a write the database refuses is kept, told and written again; nothing reads as not run', async () => {
      const db = await engine.open();
      try {
        const id = await newRun(db, ['a', 'b', 'c']);
        // The database's disk is full for the first three writes (ENOSPC as PGlite's files say it).
        let refusals = 3;
        const full = refusing(db, (sql) => (/hearth_apply_task_updates/.test(sql) && refusals-- > 0 ? Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' }) : undefined));
        const told: number[] = [];
        const reports = runReports(full, id, { positionOf: (v) => v, flushMs: 20, onWriteFailure: (_err, _waiting, failures) => told.push(failures) });
        reports.events.started!(ref(0, 'a'), 1);
        reports.events.finished(ref(0, 'a'), 'ready', { exitCode: 0, output: 'a\n', attempts: 1 });
        reports.events.started!(ref(1, 'b'), 1);
        await new Promise((r) => setTimeout(r, 100));
        reports.events.finished(ref(1, 'b'), 'error', { exitCode: 7, output: 'b\n', attempts: 1 });
        await reports.close();
        assert.deepEqual(told, [1, 2, 3], 'each refusal is told');
        assert.equal(reports.lost, 0);
        assert.equal((reports.firstFailure as { code: string }).code, '53100');
        const rows = Object.fromEntries((await runs.taskRuns(db, id)).map((t) => [t.task_id, t]));
        assert.equal(rows.a.status, 'ready');
        assert.equal(rows.b.status, 'error');
        assert.equal(rows.b.exit_status, 7);
        assert.equal(rows.c.status, 'pending');
        assert.equal((await db.query<{ done: number }>('SELECT done FROM deployments WHERE id = $1', [id]))[0].done, 2, 'each finished task counted once');
      } finally {
        await db.close();
      }
    });

    test('reports that finally cannot be written are counted, and their tasks are not said to be not run', async () => {
      const db = await engine.open();
      try {
        const id = await newRun(db, ['a', 'b']);
        const broken = refusing(db, (sql) => (/hearth_apply_task_updates/.test(sql) ? new Error('a bug') : undefined));
        const reports = runReports(broken, id, { positionOf: (v) => v, flushMs: 10 });
        reports.events.finished(ref(0, 'a'), 'ready', { exitCode: 0, output: '', attempts: 1 });
        await reports.close();
        assert.equal(reports.lost, 1, 'a refusal that waiting does not cure is given up after a few tries, and counted');
        await runs.endRealDeployment(db, id, 'failed', 'deploy/reports-not-written: 1 task report was lost', 'not known whether it ran: its report could not be written');
        const rows = await runs.taskRuns(db, id);
        for (const r of rows) assert.equal(r.message, 'not known whether it ran: its report could not be written');
      } finally {
        await db.close();
      }
    });
  });
}
