/**
 * A real run's bookkeeping on the embedded database, without a server: reports are written in
 * batches; what a dead server had not written yet stays undone (a resumed run does it again); a
 * run failed as interrupted takes no more writes; leases: an expired one is interrupted by another
 * server, never by its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Task } from '../../src/core/tasks/model.js';
import type { VertexRef } from '../../src/deploy/index.js';
import { runReports } from '../../src/server/domain/runs/run-reports.js';
import * as store from '../../src/store/index.js';
import * as runs from '../../src/store/task-runs.js';

const ref = (vertex: number, id: string): VertexRef => ({ vertex, node: '1', task: { id, type: 'shell', version: '2.1.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'release' } } satisfies Task });

describe('a real run\'s bookkeeping', () => {
  let db: store.Database;
  let cluster: number;
  before(async () => {
    db = await store.openStore({ inMemory: true });
    await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', '{}'::jsonb)`);
    cluster = (await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes, status) VALUES ('c', 'r', '[]', '{}', 'deploying') RETURNING id`))[0].id;
  });
  after(() => db.close());
  const create = (owner: number, leaseSeconds?: number) =>
    runs.createRealDeployment(db, cluster, 'default', ['a', 'b', 'c', 'd'].map((t) => ({ node: '1', taskId: t, type: 'shell' })), owner, leaseSeconds);
  const statuses = async (id: number) => Object.fromEntries((await runs.taskRuns(db, id)).map((t) => [t.task_id, t.status]));

  test('reports not yet written when the server dies are not done: a resume runs them again', async () => {
    const id = await create(1);
    // Rows are numbered in the order given: vertex v is row v here.
    const reports = runReports(db, id, { positionOf: (v) => v, flushMs: 60_000 });
    for (const [v, t] of [[0, 'a'], [1, 'b']] as const) {
      reports.events.started!(ref(v, t), 1);
      reports.events.finished(ref(v, t), 'ready', { exitCode: 0, output: `${t} ran\n`, attempts: 1 });
    }
    await reports.flush();
    reports.events.started!(ref(2, 'c'), 1);
    reports.events.finished(ref(2, 'c'), 'ready', { exitCode: 0, output: '', attempts: 1 });
    assert.deepEqual(await statuses(id), { a: 'ready', b: 'ready', c: 'pending', d: 'pending' }, 'c waits in memory');
    // The server dies here (its presence is gone): the run is interrupted.
    assert.equal(await store.failInterruptedDeployments(db, async () => false), 1);
    const [row] = await db.query<{ status: string; message: string; done: number }>('SELECT status, message, done FROM deployments WHERE id = $1', [id]);
    assert.deepEqual(row, { status: 'interrupted', message: 'interrupted: the server running it stopped', done: 2 });
    const resumable = await runs.resumable(db, cluster, 'default');
    assert.ok('done' in resumable);
    assert.deepEqual([...resumable.done].map((k) => k.split('\u0000')[1]).sort(), ['a', 'b'], 'only what was written counts as done');
    // Whatever the dead run still sends is refused.
    await reports.close();
    assert.deepEqual(await statuses(id), { a: 'ready', b: 'ready', c: 'skipped', d: 'skipped' });
    assert.equal((await runs.taskRuns(db, id, { withOutput: true })).find((t) => t.task_id === 'a')?.output, 'a ran\n');
    assert.equal(await runs.endRealDeployment(db, id, 'succeeded'), false, 'its end does not overwrite the interruption');
    assert.equal((await db.query<{ status: string }>('SELECT status FROM deployments WHERE id = $1', [id]))[0].status, 'interrupted');
  });

  test('an expired lease is interrupted by another server, not by its own; a renewal says when it is lost', async () => {
    await db.query(`UPDATE clusters SET status = 'deploying' WHERE id = $1`, [cluster]);
    const id = await create(7, 1);
    assert.deepEqual(await runs.renewLease(db, id, 7, 1), { held: true, stopRequested: false });
    assert.deepEqual(await runs.renewLease(db, id, 8, 1), { held: false, stopRequested: false }, 'another server cannot renew it');
    await new Promise((r) => setTimeout(r, 1300));
    // Its server is alive (its presence lock held), but the lease expired: only another server acts.
    assert.equal(await store.failInterruptedDeployments(db, async () => true, 7), 0, 'its own server leaves it: it renews its leases itself');
    assert.equal((await db.query<{ status: string }>('SELECT status FROM deployments WHERE id = $1', [id]))[0].status, 'running');
    assert.equal(await store.failInterruptedDeployments(db, async () => true, 9), 1);
    const [row] = await db.query<{ status: string; message: string }>('SELECT status, message FROM deployments WHERE id = $1', [id]);
    assert.deepEqual(row, { status: 'interrupted', message: 'interrupted: the server running it stopped renewing its lease' });
    assert.equal((await db.query<{ status: string }>('SELECT status FROM clusters WHERE id = $1', [cluster]))[0].status, 'error');
    assert.deepEqual(await runs.renewLease(db, id, 7, 1), { held: false, stopRequested: false }, 'the first server learns it lost the run');
    // A lease renewed in time keeps the run.
    await db.query(`UPDATE clusters SET status = 'deploying' WHERE id = $1`, [cluster]);
    const kept = await create(7, 30);
    assert.equal(await store.failInterruptedDeployments(db, async () => true, 9), 0);
    assert.equal(await runs.requestStop(db, kept), true);
    assert.deepEqual(await runs.renewLease(db, kept, 7), { held: true, stopRequested: true }, 'a stop asked anywhere is heard with the renewal');
    // The grace the operator asked for travels with it, for the server running the deployment.
    assert.equal(await runs.requestStop(db, kept, 5), true);
    assert.deepEqual(await runs.renewLease(db, kept, 7), { held: true, stopRequested: true, stopGraceS: 5 });
  });

  test('a removal is kept with its run: a resume continues it on the nodes still in the environment, and only when the run is the one to resume', async () => {
    const [n1, n2, n3] = await Promise.all([1, 2, 3].map(async (i) => (await db.query<{ id: number }>(`INSERT INTO nodes (name, hardware, cluster_id) VALUES ($1, '{}'::jsonb, $2) RETURNING id`, [`rm-${i}`, cluster]))[0].id));
    const id = await runs.createRealDeployment(db, cluster, 'deletion', [{ node: String(n1), taskId: 'erase', type: 'shell' }], 7);
    await runs.recordRemoval(db, id, { nodes: [n1, n2] });
    assert.deepEqual(await runs.removalOf(db, id), { nodes: [n1, n2] });
    assert.equal(await runs.removalToResume(db, cluster, 'deletion'), undefined, 'a running removal is not resumed');
    await db.query(`UPDATE deployments SET status = 'stopped' WHERE id = $1`, [id]);
    // n2 was cleaned by the first run and left; n3 was never part of the removal.
    await db.query('UPDATE nodes SET cluster_id = NULL WHERE id = $1', [n2]);
    assert.deepEqual(await runs.removalToResume(db, cluster, 'deletion'), { nodes: [n1] });
    assert.equal(await runs.removalToResume(db, cluster, 'default'), undefined, 'per graph type');
    void n3;
  });
});
