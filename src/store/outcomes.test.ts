import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outcomeOfStored } from '../core/lifecycle/index.js';
import { openStore } from './open.js';
import { createDeployment } from './deployments.js';
import { runCounts, OUTCOME_SQL } from './outcomes.js';

// Every way the runners have written a task's end, old and new.
const CASES: Array<{ status: string; message: string | null; outcome?: string }> = [
  { status: 'pending', message: null },
  { status: 'running', message: null },
  { status: 'ready', message: null },
  { status: 'ready', message: 'done in deployment 3' },
  { status: 'error', message: null },
  { status: 'error', message: 'exit status 7' },
  { status: 'error', message: 'timed out after 3 s' },
  { status: 'error', message: 'killed: the grace period of the stop ended' },
  { status: 'skipped', message: null },
  { status: 'skipped', message: 'condition is false' },
  { status: 'skipped', message: 'not run' },
  { status: 'skipped', message: 'not run: deploy failed on node 3' },
  { status: 'skipped', message: 'not run: the deployment was stopped' },
  { status: 'skipped', message: 'stopped: the server shut down before it started' },
  { status: 'error', message: 'exit status 1', outcome: 'killed' },
];

test('the database reads each stored task end as core does, and counts a run by outcome', async () => {
  const db = await openStore({ inMemory: true });
  try {
    await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'ubuntu', '{}')`);
    const [cluster] = await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes) VALUES ('e', 'r', '[]', '{}') RETURNING id`);
    const id = await createDeployment(db, cluster.id, 'default', CASES.map((_, i) => ({ node: '1', taskId: `t${i}` })));
    for (const [i, c] of CASES.entries()) {
      await db.query('UPDATE deployment_tasks SET status = $3, message = $4, outcome = $5 WHERE deployment_id = $1 AND position = $2', [id, i, c.status, c.message, c.outcome ?? null]);
    }
    const rows = await db.query<{ position: number; outcome: string }>(`SELECT position, ${OUTCOME_SQL} AS outcome FROM deployment_tasks WHERE deployment_id = $1 ORDER BY position`, [id]);
    const expected = CASES.map((c) => c.outcome ?? outcomeOfStored(c));
    assert.deepEqual(rows.map((r) => r.outcome), expected);
    const counts = (await runCounts(db, [id])).get(id)!;
    assert.equal(Object.values(counts).reduce((a, b) => a + b, 0), CASES.length, 'the counts sum to the run');
    assert.deepEqual(counts, { pending: 1, running: 1, succeeded: 2, failed: 2, timed_out: 1, killed: 2, skipped: 2, not_run: 2, stopped: 2 });
    // A running run is counted afresh each time; a finished one is counted once and kept.
    assert.equal((await db.query<{ counts: unknown }>('SELECT counts FROM deployments WHERE id = $1', [id]))[0].counts, null);
    await db.query(`UPDATE deployments SET status = 'failed' WHERE id = $1`, [id]);
    await runCounts(db, [id]);
    assert.deepEqual((await db.query<{ counts: unknown }>('SELECT counts FROM deployments WHERE id = $1', [id]))[0].counts, counts);
    assert.deepEqual((await runCounts(db, [id])).get(id), counts, 'read back from the run');
  } finally {
    await db.close();
  }
});
