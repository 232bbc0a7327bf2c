/**
 * How long tasks took in past real runs, for the Graph tab's estimate (issue 25): each task's
 * median seconds over the runs of one environment, or of every environment of one release, from
 * the tasks that ran and succeeded (a task taken as done from a resumed run did not run: no
 * attempts, not counted).
 */
import type { Queryable } from './database.js';

export interface TaskDuration {
  /** Median seconds from start to end. */
  seconds: number;
  /** Runs it was measured in. */
  runs: number;
}

export interface PastDurations {
  byTask: Map<string, TaskDuration>;
  /** Real runs with at least one measured task. */
  runs: number;
}

export async function pastTaskDurations(q: Queryable, scope: { clusterId: number } | { releaseId: string }, graphType: string): Promise<PastDurations> {
  const [where, value] = 'clusterId' in scope ? ['d.cluster_id = $1', scope.clusterId] : ['d.cluster_id IN (SELECT id FROM clusters WHERE release_id = $1)', scope.releaseId];
  const rows = await q.query<{ task_id: string; seconds: number | string; runs: number | string }>(
    `SELECT t.task_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM t.finished_at - t.started_at)) AS seconds, count(DISTINCT t.deployment_id) AS runs
     FROM deployment_tasks t JOIN deployments d ON d.id = t.deployment_id
     WHERE ${where} AND d.graph_type = $2 AND d.mode = 'real' AND t.status = 'ready' AND t.attempts > 0
       AND t.started_at IS NOT NULL AND t.finished_at IS NOT NULL AND t.finished_at >= t.started_at
     GROUP BY t.task_id`,
    [value, graphType],
  );
  const [{ runs }] = await q.query<{ runs: number | string }>(
    `SELECT count(DISTINCT t.deployment_id) AS runs FROM deployment_tasks t JOIN deployments d ON d.id = t.deployment_id
     WHERE ${where} AND d.graph_type = $2 AND d.mode = 'real' AND t.status = 'ready' AND t.attempts > 0 AND t.started_at IS NOT NULL AND t.finished_at IS NOT NULL`,
    [value, graphType],
  );
  return { byTask: new Map(rows.map((r) => [r.task_id, { seconds: Number(r.seconds), runs: Number(r.runs) }])), runs: Number(runs) };
}
