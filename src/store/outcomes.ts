/**
 * Task outcomes and run counts as the database answers them (issue 25's model, src/core/lifecycle).
 * A row written with an `outcome` says it; a row written before (or by a writer that keeps only
 * Nailgun's status) is read from its status and message exactly as core's `outcomeOfStored`
 * reads it (a test runs both over every case).
 */
import { emptyCounts, type RunCounts, type TaskOutcome } from '../core/lifecycle/index.js';
import type { Queryable } from './database.js';

export const OUTCOME_SQL = `CASE
  WHEN outcome IS NOT NULL THEN outcome
  WHEN status = 'ready' THEN 'succeeded'
  WHEN status = 'error' AND message LIKE 'timed out%' THEN 'timed_out'
  WHEN status = 'error' AND message LIKE 'killed%' THEN 'killed'
  WHEN status = 'error' THEN 'failed'
  WHEN status = 'skipped' AND (message LIKE 'stopped%' OR message LIKE 'not run: the deployment was stopped%') THEN 'stopped'
  WHEN status = 'skipped' AND message LIKE 'not run%' THEN 'not_run'
  WHEN status = 'skipped' THEN 'skipped'
  WHEN status IN ('pending', 'running') THEN status
  ELSE 'failed' END`;

/** Each run's tasks by outcome, for the runs named. Markers count too: they are rows of the run. */
export async function runCounts(q: Queryable, ids: readonly number[]): Promise<Map<number, RunCounts>> {
  const out = new Map<number, RunCounts>();
  if (!ids.length) return out;
  // A finished run's rows no longer change (only a running run takes reports): its counts, once
  // counted, are kept on the run and read from there. A running real run's writer keeps its counts
  // with each batch it writes (live-counts.ts).
  const kept = await q.query<{ id: number; status: string; counts: RunCounts | null; live_counts: RunCounts | null }>('SELECT id, status, counts, live_counts FROM deployments WHERE id = ANY($1::int[])', [ids]);
  const toCount: number[] = [];
  for (const r of kept) {
    const known = r.status === 'running' ? r.live_counts : r.counts;
    if (known) out.set(r.id, { ...emptyCounts(), ...known });
    else toCount.push(r.id);
  }
  if (!toCount.length) return out;
  for (const id of toCount) out.set(id, emptyCounts());
  const rows = await q.query<{ id: number; outcome: TaskOutcome; n: number }>(
    `SELECT deployment_id AS id, ${OUTCOME_SQL} AS outcome, count(*)::int AS n FROM deployment_tasks WHERE deployment_id = ANY($1::int[]) GROUP BY 1, 2`,
    [toCount],
  );
  for (const r of rows) {
    const c = out.get(r.id);
    if (c && r.outcome in c) c[r.outcome] += r.n;
  }
  const finished = kept.filter((r) => !r.counts && r.status !== 'running').map((r) => r.id);
  if (finished.length) {
    // Kept only while the run is still finished; a failed write (a full disk, a read-only
    // database) costs nothing but counting again next time.
    await q
      .query(`UPDATE deployments d SET counts = c.counts FROM jsonb_each($1::jsonb) AS c(id, counts) WHERE d.id = c.id::int AND d.status <> 'running' AND d.counts IS NULL`, [
        JSON.stringify(Object.fromEntries(finished.map((id) => [id, out.get(id)]))),
      ])
      .catch(() => undefined);
  }
  return out;
}

/** The outcomes each node's tasks had in a run (each outcome once per node): what its state follows. */
export async function nodeOutcomes(q: Queryable, deploymentId: number): Promise<Map<string, TaskOutcome[]>> {
  const rows = await q.query<{ node: string; outcome: TaskOutcome }>(`SELECT DISTINCT node, ${OUTCOME_SQL} AS outcome FROM deployment_tasks WHERE deployment_id = $1`, [deploymentId]);
  const out = new Map<string, TaskOutcome[]>();
  for (const r of rows) {
    const list = out.get(r.node);
    if (list) list.push(r.outcome);
    else out.set(r.node, [r.outcome]);
  }
  return out;
}
