/** Deployments: one row per run, and one per (node, task) with its status, so progress is visible while it runs. */
import type { TaskOutcome } from '../core/lifecycle/index.js';
import { type Queryable, json } from './database.js';
import { manyRows } from './many-rows.js';
import { OUTCOME_SQL } from './outcomes.js';

export type DeploymentStatus = 'running' | 'succeeded' | 'failed' | 'stopped' | 'interrupted';
export type TaskRunStatus = 'pending' | 'running' | 'ready' | 'error' | 'skipped';

export interface DeploymentRecord {
  id: number;
  clusterId: number;
  graphType: string;
  status: DeploymentStatus;
  total: number;
  done: number;
  message?: string;
  startedAt: string;
  finishedAt?: string;
  /** Who asked a stop (the admin token or a user, and the address it came from), and when. */
  stoppedBy?: string;
  stoppedAt?: string;
  /** Who asked for the run: a user's name (with the personal token's), or `admin-token`. */
  requestedBy?: string;
  /** Nodes left out of the run (offline, with skip_offline). */
  skippedNodes?: Array<{ id: number; name: string; reach_error?: string | null }>;
}

export interface TaskRunRecord {
  node: string;
  taskId: string;
  position: number;
  status: TaskRunStatus;
  /** Why it ended (docs/lifecycle.md). */
  outcome: TaskOutcome;
}

interface Row {
  id: number;
  cluster_id: number;
  graph_type: string;
  status: DeploymentStatus;
  total: number;
  done: number;
  message: string | null;
  started_at: Date | string;
  finished_at: Date | string | null;
  stopped_by?: string | null;
  stopped_at?: Date | string | null;
  requested_by?: string | null;
  skipped_nodes?: DeploymentRecord['skippedNodes'] | null;
}

function toRecord(r: Row): DeploymentRecord {
  const rec: DeploymentRecord = { id: r.id, clusterId: r.cluster_id, graphType: r.graph_type, status: r.status, total: r.total, done: r.done, startedAt: new Date(r.started_at).toISOString() };
  if (r.message !== null) rec.message = r.message;
  if (r.finished_at !== null) rec.finishedAt = new Date(r.finished_at).toISOString();
  if (r.stopped_by) rec.stoppedBy = r.stopped_by;
  if (r.stopped_at) rec.stoppedAt = new Date(r.stopped_at).toISOString();
  if (r.requested_by) rec.requestedBy = r.requested_by;
  if (r.skipped_nodes) rec.skippedNodes = r.skipped_nodes;
  return rec;
}

export async function createDeployment(q: Queryable, clusterId: number, graphType: string, tasks: Array<{ node: string; taskId: string; skipped?: boolean }>, owner = 0): Promise<number> {
  const rows = await q.query<{ id: number }>('INSERT INTO deployments (cluster_id, graph_type, status, total, owner) VALUES ($1, $2, $3, $4, $5) RETURNING id', [clusterId, graphType, 'running', tasks.length, owner]);
  const id = rows[0].id;
  await q.query(
    `INSERT INTO deployment_tasks (deployment_id, node, task_id, position, status)
     SELECT $1, t->>'node', t->>'taskId', (i - 1)::int, CASE WHEN (t->>'skipped')::boolean THEN 'skipped' ELSE 'pending' END FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(t, i)`,
    [id, json(tasks)],
  );
  return id;
}

export async function setTaskStatus(q: Queryable, deploymentId: number, node: string, taskId: string, status: TaskRunStatus): Promise<void> {
  const timeColumn = status === 'running' ? 'started_at' : 'finished_at';
  await q.query(`UPDATE deployment_tasks SET status = $4, ${timeColumn} = now() WHERE deployment_id = $1 AND node = $2 AND task_id = $3`, [deploymentId, node, taskId, status]);
  if (status !== 'running' && status !== 'pending') await q.query('UPDATE deployments SET done = done + 1 WHERE id = $1', [deploymentId]);
}

/** The simulated orchestrator finishes tasks in order, a slice at a time: positions [from, to) are done. */
export async function completeTaskRange(q: Queryable, deploymentId: number, from: number, to: number): Promise<void> {
  await q.query(`UPDATE deployment_tasks SET status = 'ready', started_at = coalesce(started_at, now()), finished_at = now() WHERE deployment_id = $1 AND position >= $2 AND position < $3 AND status IN ('pending', 'running')`, [deploymentId, from, to]);
  await q.query('UPDATE deployments SET done = $2 WHERE id = $1', [deploymentId, to]);
}

export async function finishDeployment(q: Queryable, id: number, status: Exclude<DeploymentStatus, 'running'>, message?: string): Promise<void> {
  await q.query('UPDATE deployments SET status = $2, message = $3, finished_at = now() WHERE id = $1', [id, status, message ?? null]);
}

/** Who asked a run to stop, and when (the first ask stands). */
export async function recordStop(q: Queryable, id: number, by: string): Promise<void> {
  await q.query(`UPDATE deployments SET stopped_by = coalesce(stopped_by, $2), stopped_at = coalesce(stopped_at, now()) WHERE id = $1`, [id, by]);
}

/** Who asked for a run, written in the transaction that records it. */
export async function recordRequester(q: Queryable, id: number, by: string): Promise<void> {
  await q.query('UPDATE deployments SET requested_by = $2 WHERE id = $1', [id, by]);
}

/** The nodes a run left out (offline ones, when asked to skip them). */
export async function recordSkippedNodes(q: Queryable, id: number, nodes: NonNullable<DeploymentRecord['skippedNodes']>): Promise<void> {
  await q.query('UPDATE deployments SET skipped_nodes = $2::jsonb WHERE id = $1', [id, json(nodes)]);
}

export async function getDeployment(q: Queryable, id: number): Promise<DeploymentRecord | undefined> {
  const rows = await q.query<Row>('SELECT * FROM deployments WHERE id = $1', [id]);
  return rows[0] && toRecord(rows[0]);
}

export async function deploymentsOf(q: Queryable, clusterId: number): Promise<DeploymentRecord[]> {
  return (await q.query<Row>('SELECT * FROM deployments WHERE cluster_id = $1 ORDER BY id DESC', [clusterId])).map(toRecord);
}

/**
 * One page of the deployments (of one environment, or of all), newest first, read by the key: those
 * older than deployment `after` (which must be in the list: `undefined` when it is not), at most `limit`.
 */
export async function pageOfDeployments(q: Queryable, filter: { clusterId?: number }, page: { after?: number; limit?: number }): Promise<DeploymentRecord[] | undefined> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.clusterId !== undefined) where.push(`cluster_id = $${params.push(filter.clusterId)}`);
  if (page.after !== undefined) {
    const marker = await q.query(`SELECT 1 FROM deployments WHERE ${[...where, `id = $${params.length + 1}`].join(' AND ')}`, [...params, page.after]);
    if (!marker.length) return undefined;
    where.push(`id < $${params.push(page.after)}`);
  }
  const limit = page.limit !== undefined ? ` LIMIT $${params.push(page.limit)}` : '';
  return (await q.query<Row>(`SELECT * FROM deployments${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC${limit}`, params)).map(toRecord);
}

export async function deploymentTasks(q: Queryable, id: number): Promise<TaskRunRecord[]> {
  // Every task of a run, thousands in a large one: one value, not a row each (many-rows.ts).
  const rows = await manyRows(q, ['node', 'task_id', 'position', 'status', OUTCOME_SQL], 'FROM deployment_tasks WHERE deployment_id = $1', 'position', [id]);
  return rows.map((r) => ({ node: r[0] as string, taskId: r[1] as string, position: r[2] as number, status: r[3] as TaskRunStatus, outcome: r[4] as TaskOutcome }));
}

/**
 * Runs whose server is gone are marked `interrupted`, their tasks that never started `stopped`
 * and those that were running `killed` (their processes on the node die with the connection), their
 * nodes back to their state before the run (or `error` where a task was killed), and their
 * environments put in `error`, so nothing stays "deploying" and `--resume` can continue them on any
 * server. A server is gone when `alive(owner)` says so (crashed or killed: on PostgreSQL its
 * presence lock is free), or when its run's lease has expired: it stopped renewing it (hung, or
 * cut off from the database) though its presence may linger. `self`, this server's own presence,
 * never counts as gone: its runs renew their leases themselves. Each run is failed in one
 * statement (so a kill during the sweep leaves it whole: running and deploying, or failed and in
 * error), re-checking the lease in that statement so a renewal just made wins. Any environment
 * left `deploying` with no running deployment (by a sweep of an older Hearth cut short) is put in
 * `error` too. Returns how many runs and environments it changed.
 */
export async function failInterruptedDeployments(q: Queryable, alive: (owner: number) => Promise<boolean> = async () => false, self?: number): Promise<number> {
  const running = await q.query<{ id: number; owner: number; expired: boolean }>(`SELECT id, owner, coalesce(lease_expires_at < now(), false) AS expired FROM deployments WHERE status = 'running'`);
  let changed = 0;
  for (const d of running) {
    const leaseLost = d.expired && d.owner !== self;
    if (!leaseLost && (await alive(d.owner))) continue;
    const [row] = await q.query<{ failed: number }>(
      `WITH failed AS (
         UPDATE deployments SET status = 'interrupted', message = $2, finished_at = now()
         WHERE id = $1 AND status = 'running' AND (NOT $3 OR lease_expires_at < now()) RETURNING id, cluster_id),
       skipped AS (
         UPDATE deployment_tasks SET status = CASE WHEN status = 'running' THEN 'error' ELSE 'skipped' END,
           message = coalesce(message, CASE WHEN status = 'running' THEN 'killed: its server stopped while it ran' ELSE 'stopped: its server stopped before it started' END)
         WHERE deployment_id IN (SELECT id FROM failed) AND status IN ('pending', 'running')),
       errored AS (
         UPDATE clusters SET status = 'error' WHERE id IN (SELECT cluster_id FROM failed) AND status = 'deploying'),
       nodes_back AS (
         UPDATE nodes n SET status = CASE WHEN EXISTS (SELECT 1 FROM deployment_tasks t WHERE t.deployment_id IN (SELECT id FROM failed) AND t.node = n.id::text AND t.status = 'running') THEN 'error' ELSE coalesce(n.status_before, 'discovered') END
         WHERE n.cluster_id IN (SELECT cluster_id FROM failed) AND n.status IN ('deploying', 'provisioning'))
       SELECT count(*)::int AS failed FROM failed`,
      [d.id, leaseLost ? 'interrupted: the server running it stopped renewing its lease' : 'interrupted: the server running it stopped', leaseLost],
    );
    changed += row?.failed ?? 0;
  }
  return changed + (await repairStuckClusters(q));
}

/**
 * Environments `deploying` with no running deployment. Each is locked and checked again before it
 * is changed: a deployment starting meanwhile holds the environment's row until it commits, so the
 * check after the lock sees its run and leaves the environment alone.
 */
async function repairStuckClusters(q: Queryable): Promise<number> {
  const stuck = await q.query<{ id: number }>(
    `SELECT c.id FROM clusters c WHERE c.status = 'deploying' AND NOT EXISTS (SELECT 1 FROM deployments d WHERE d.cluster_id = c.id AND d.status = 'running')`,
  );
  let repaired = 0;
  for (const { id } of stuck) {
    const repair = async (tx: Queryable) => {
      const locked = await tx.query<{ status: string }>('SELECT status FROM clusters WHERE id = $1 FOR UPDATE', [id]);
      if (locked[0]?.status !== 'deploying') return;
      const runs = await tx.query(`SELECT 1 FROM deployments WHERE cluster_id = $1 AND status = 'running' LIMIT 1`, [id]);
      if (runs.length) return;
      await tx.query(`UPDATE clusters SET status = 'error' WHERE id = $1`, [id]);
      repaired++;
    };
    // Inside a caller's transaction already (a deployment starting), or a transaction of its own.
    if (isDatabase(q)) await q.transaction(repair);
    else await repair(q);
  }
  return repaired;
}

const isDatabase = (q: Queryable): q is Queryable & { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> } => typeof (q as { transaction?: unknown }).transaction === 'function';
