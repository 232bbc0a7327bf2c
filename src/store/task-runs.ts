/**
 * What each task of a real deployment did: status, exit status, attempts, the last 1 MiB of its
 * output, why it ended, when it started and finished. The orchestrator reports in batches (one
 * statement for any number of tasks), so bookkeeping keeps up with thousands of nodes.
 */
import type { RunCounts } from '../core/lifecycle/index.js';
import { storableText } from '../core/text/unstorable.js';
import { boolArray, intArray, textArray } from './array-literal.js';
import type { Queryable } from './database.js';
import { LiveCounts, storedStatus } from './live-counts.js';
import { epochMs, isoTime, manyRows } from './many-rows.js';

/**
 * Text as PostgreSQL can hold it: a task prints whatever bytes it likes, but a text or jsonb value
 * refuses NUL (and jsonb a lone UTF-16 surrogate), and one refused value lost the whole batch of
 * reports it travelled in. Both become U+FFFD, as bytes that are not UTF-8 already do when output
 * is decoded; everything else is kept as printed. Core's one rule (core/text/unstorable.ts): one
 * regex test per text, and a copy only of text that holds such a character, not a replace pass
 * over every task's output and message.
 */
export { storableText };
const storableOrNull = (s: string | undefined | null): string | null => (s === undefined || s === null ? null : storableText(s));

export interface TaskRunUpdate {
  /** The task's place in its run (the row's key, as `createRealDeployment` numbered them). */
  position: number;
  status: 'running' | 'ready' | 'error' | 'skipped' | 'stopped';
  exitStatus?: number | null;
  attempts?: number;
  output?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  /**
   * The same times as milliseconds since the epoch (`Date.now()`), which win over the ISO forms:
   * a large run reports 400,000 times, and a number costs neither a Date nor a string per report.
   */
  startedMs?: number;
  finishedMs?: number;
}

export interface TaskRunView {
  node: string;
  task_id: string;
  type: string | null;
  position: number;
  status: string;
  exit_status: number | null;
  attempts: number;
  message: string | null;
  started_at: string | null;
  finished_at: string | null;
  output?: string | null;
}

/**
 * Records a real run and one row per (node, task) with its type: arrays unnested in one statement
 * (a 200,000-task run in one round trip, several times faster than a JSON document).
 */
export async function createRealDeployment(
  q: Queryable,
  clusterId: number,
  graphType: string,
  tasks: Array<{ node: string; taskId: string; type: string; skipped?: boolean; doneIn?: number }>,
  owner: number,
  leaseSeconds = DEFAULT_LEASE_SECONDS,
): Promise<number> {
  const done = tasks.filter((t) => t.doneIn !== undefined).length;
  const [{ id }] = await q.query<{ id: number }>(
    `INSERT INTO deployments (cluster_id, graph_type, status, total, done, owner, mode, lease_expires_at, live_counts) VALUES ($1, $2, 'running', $3, $4, $5, 'real', now() + make_interval(secs => $6), $7::jsonb) RETURNING id`,
    [clusterId, graphType, tasks.length, done, owner, leaseSeconds, JSON.stringify(LiveCounts.planned(tasks))],
  );
  // A task done in the run being resumed is ready at once, saying where it ran.
  // The arrays are unnested in the select list, not in FROM: a set-returning function in FROM is
  // first copied whole into a tuplestore, which past work_mem (4 MB: tens of thousands of tasks)
  // went to a temporary file, written and read back (1,255 pages, 10 MB, for 200,000 tasks; issue
  // 30). In the select list they stream, in step (the shorter padded with NULLs, as a many-array
  // unnest pads them), and generate_series numbers the rows from 0 as WITH ORDINALITY did from 1.
  await q.query(
    `INSERT INTO deployment_tasks (deployment_id, node, task_id, type, position, status, message)
     SELECT $1, t.node, t.task_id, t.type, t.i, CASE WHEN t.done IS NOT NULL THEN 'ready' WHEN t.skipped THEN 'skipped' ELSE 'pending' END,
       CASE WHEN t.done IS NOT NULL THEN 'done in deployment ' || t.done END
     FROM (SELECT unnest($2::text[]) AS node, unnest($3::text[]) AS task_id, unnest($4::text[]) AS type, unnest($5::boolean[]) AS skipped, unnest($6::int[]) AS done,
       generate_series(0, $7::int - 1) AS i) t`,
    // Skipped and done are sent only when some task is either (a resume, offline nodes): empty,
    // unnest pads them with NULLs, which read as neither, and reading 400,000 elements that say
    // nothing was a fifth of the statement (issue 30).
    [id, textArray(tasks.map((t) => t.node)), textArray(tasks.map((t) => t.taskId)), textArray(tasks.map((t) => t.type)), tasks.some((t) => t.skipped === true) ? boolArray(tasks.map((t) => t.skipped === true)) : '{}', done ? intArray(tasks.map((t) => t.doneIn ?? null)) : '{}', tasks.length],
  );
  // Fresh statistics, so each batch of reports is joined by index lookups rather than by hashing
  // the whole run's rows (the planner's figures otherwise predate the run: quadratic in its size).
  // The row count and the key's columns are all that choice reads: the other eleven columns'
  // figures (texts sorted for their most common values) were two thirds of ANALYZE's time,
  // about 0.4 µs a task of the database's thread (issue 30).
  await q.query('ANALYZE deployment_tasks (deployment_id, position)');
  return id;
}

/** Whether each deployment was real or a dry run. */
export async function deploymentModes(q: Queryable, ids: number[]): Promise<Map<number, 'dry-run' | 'real'>> {
  if (!ids.length) return new Map();
  const rows = await q.query<{ id: number; mode: 'dry-run' | 'real' }>('SELECT id, mode FROM deployments WHERE id = ANY($1::int[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.mode]));
}

/**
 * Applies updates (at most one per task: the caller merges a task's start and end), in one
 * statement, and counts the finished ones in the same statement. A task that stopped because a
 * dependency failed is stored as `skipped` with its reason: the schema's statuses are Nailgun's.
 * Only a running deployment takes updates: a run whose lease was taken from it (its server was
 * thought dead) writes nothing more. `liveCounts`: the run's counts by outcome once these are
 * written (live-counts.ts), stored with them; without, the run's kept counts are dropped, and a
 * look counts its rows. Returns how many rows changed.
 */
export async function applyTaskUpdates(q: Queryable, deploymentId: number, updates: readonly TaskRunUpdate[], liveCounts?: RunCounts): Promise<number> {
  if (!updates.length) return 0;
  // One array per column, unnested: about a fifth less of the database's time than a JSON document
  // of the same rows (jsonb parsed, then each field converted), and no object per row here. Times
  // travel as epoch milliseconds (to_timestamp), not as ISO text parsed per row (issue 30), and as
  // whole offsets from the batch's first time: PostgreSQL reads a float8 element three times
  // slower than an integer one, and two per task were a fifth of the statement (issue 30). A column
  // no update sets is sent empty: unnest pads it with NULLs, as it would have been sent.
  const n = updates.length;
  const p = new Array<number>(n), s = new Array<string>(n), x = new Array<number | null>(n), a = new Array<number | null>(n);
  const o = new Array<string | null>(n), m = new Array<string | null>(n), b = new Array<number | null>(n), e = new Array<number | null>(n);
  let finished = 0;
  let base: number | undefined;
  const offset = (ms: number | undefined, iso: string | undefined): number | null => {
    const t = ms ?? (iso === undefined ? undefined : Date.parse(iso));
    if (t === undefined) return null;
    if (!Number.isSafeInteger(t)) throw new TypeError(`a task's time must be whole epoch milliseconds, not ${iso ?? t}`);
    base ??= t;
    return t - base;
  };
  let anyX = false, anyA = false, anyO = false, anyM = false, anyB = false, anyE = false;
  for (let i = 0; i < n; i++) {
    const u = updates[i];
    p[i] = u.position;
    s[i] = storedStatus(u.status);
    if (u.status !== 'running') finished++;
    anyX = (x[i] = u.exitStatus ?? null) !== null || anyX;
    anyA = (a[i] = u.attempts ?? null) !== null || anyA;
    anyO = (o[i] = u.output === undefined ? null : storableText(u.output)) !== null || anyO;
    anyM = (m[i] = u.message === undefined ? null : storableText(u.message)) !== null || anyM;
    anyB = (b[i] = offset(u.startedMs, u.startedAt)) !== null || anyB;
    anyE = (e[i] = offset(u.finishedMs, u.finishedAt)) !== null || anyE;
  }
  const none = '{}';
  // One call (migration 18 says why a function): the rows, the done count and the counts by outcome.
  const [row] = await q.query<{ changed: number }>(
    'SELECT hearth_apply_task_updates($1, $2::int[], $3::text[], $4::int[], $5::int[], $6::text[], $7::text[], $8::int8[], $9::int8[], $10, $11::int8, $12::jsonb) AS changed',
    [deploymentId, intArray(p), textArray(s), anyX ? intArray(x) : none, anyA ? intArray(a) : none, anyO ? textArray(o) : none, anyM ? textArray(m) : none, anyB ? intArray(b) : none, anyE ? intArray(e) : none, finished, base ?? 0, liveCounts ? JSON.stringify(liveCounts) : null],
  );
  return row?.changed ?? 0;
}

export async function taskRuns(q: Queryable, deploymentId: number, filter: { node?: string; status?: string; task?: string; withOutput?: boolean } = {}): Promise<TaskRunView[]> {
  const where = ['deployment_id = $1'];
  const params: unknown[] = [deploymentId];
  if (filter.node !== undefined) where.push(`node = $${params.push(filter.node)}`);
  if (filter.status !== undefined) where.push(`status = $${params.push(filter.status)}`);
  if (filter.task !== undefined) where.push(`task_id = $${params.push(filter.task)}`);
  // A whole run's list (the Deploy page's) is every task of it: read as one value (many-rows.ts).
  const rows = await manyRows(
    q,
    filter.withOutput ? [...TASK_COLUMNS, 'output'] : TASK_COLUMNS,
    `FROM deployment_tasks WHERE ${where.join(' AND ')}`,
    `CASE status WHEN 'error' THEN 0 WHEN 'running' THEN 1 ELSE 2 END, position`,
    params,
  );
  return rows.map((r) => taskView(r, filter.withOutput === true));
}

/** A task's columns as manyRows reads them, for `taskView`. */
const TASK_COLUMNS = ['node', 'task_id', 'type', 'position', 'status', 'exit_status', 'attempts', 'message', epochMs('started_at'), epochMs('finished_at')];

function taskView(r: unknown[], withOutput: boolean): TaskRunView {
  const view: TaskRunView = {
    node: r[0] as string,
    task_id: r[1] as string,
    type: r[2] as string | null,
    position: r[3] as number,
    status: r[4] as string,
    exit_status: r[5] as number | null,
    attempts: r[6] as number,
    message: r[7] as string | null,
    started_at: isoTime(r[8]),
    finished_at: isoTime(r[9]),
  };
  if (withOutput) view.output = r[10] as string | null;
  return view;
}

/**
 * The end of a real run: its status and words, and every task that never started marked skipped.
 * Only a run still running ends here: false when another server already failed it as interrupted
 * (its lease expired), whose word stands.
 */
export async function endRealDeployment(q: Queryable, deploymentId: number, status: 'succeeded' | 'failed' | 'stopped' | 'interrupted', message?: string, unfinished = 'not run', unfinishedPositions?: readonly number[]): Promise<boolean> {
  const ended = await q.query(`UPDATE deployments SET status = $2, message = $3, finished_at = now(), lease_expires_at = NULL, live_counts = NULL WHERE id = $1 AND status = 'running' RETURNING id`, [deploymentId, status, storableOrNull(message)]);
  if (!ended.length) return false;
  // `unfinished`: what an unrecorded task is said to be (when reports were lost, not "not run").
  // `unfinishedPositions`: where its writer's counts say those are (LiveCounts), so only those rows
  // are read; without, every row of the run is (50-80 ms at 200,000 tasks, issue 30).
  if (unfinishedPositions === undefined) {
    await q.query(`UPDATE deployment_tasks SET status = 'skipped', message = coalesce(message, $2) WHERE deployment_id = $1 AND status IN ('pending', 'running')`, [deploymentId, unfinished]);
  } else if (unfinishedPositions.length) {
    await q.query(`UPDATE deployment_tasks SET status = 'skipped', message = coalesce(message, $2) WHERE deployment_id = $1 AND position = ANY($3::int[]) AND status IN ('pending', 'running')`, [deploymentId, unfinished, intArray(unfinishedPositions)]);
  }
  return true;
}

/** How long a run's lease lasts without renewal (its server renews it several times a second). */
export const DEFAULT_LEASE_SECONDS = 30;

/**
 * Renews this server's lease on a run, and says whether a stop was asked (through any server).
 * `held: false`: the run is no longer this server's to run (another server failed it as
 * interrupted after the lease expired, or it ended): stop at once and write nothing more.
 */
export async function renewLease(q: Queryable, deploymentId: number, owner: number, seconds = DEFAULT_LEASE_SECONDS): Promise<{ held: boolean; stopRequested: boolean; stopGraceS?: number }> {
  const [row] = await q.query<{ stop_requested: boolean; stop_grace_s: number | null }>(
    `UPDATE deployments SET lease_expires_at = now() + make_interval(secs => $3) WHERE id = $1 AND owner = $2 AND status = 'running' RETURNING stop_requested, stop_grace_s`,
    [deploymentId, owner, seconds],
  );
  if (!row) return { held: false, stopRequested: false };
  return { held: true, stopRequested: row.stop_requested, ...(row.stop_grace_s === null || row.stop_grace_s === undefined ? {} : { stopGraceS: Number(row.stop_grace_s) }) };
}


/**
 * What a resumed run may skip: the environment's last deployment, when it was real, of this graph
 * type and did not succeed (failed, stopped, or interrupted with its server), and the tasks it
 * finished.
 */
export async function resumable(q: Queryable, clusterId: number, graphType: string): Promise<{ id: number; status: string; done: Set<string> } | { refusal: string }> {
  // Per graph type, real runs only: a dry run or another graph's run since never hides the run
  // to resume (docs/lifecycle.md).
  const [last] = await q.query<{ id: number; status: string }>(`SELECT id, status FROM deployments WHERE cluster_id = $1 AND graph_type = $2 AND mode = 'real' ORDER BY id DESC LIMIT 1`, [clusterId, graphType]);
  if (!last) return { refusal: graphType === 'default' ? 'the environment has never been deployed' : `its '${graphType}' graph has never run for real` };
  if (last.status === 'succeeded' || last.status === 'running') return { refusal: `its last deployment (${last.id}) ${last.status === 'running' ? 'is running' : 'succeeded'}: there is nothing to resume` };
  // Every task a large run finished: one value, not a row each (many-rows.ts).
  const rows = await manyRows(q, ['node', 'task_id'], `FROM deployment_tasks WHERE deployment_id = $1 AND status = 'ready' AND type NOT IN ('stage', 'group', 'skipped')`, 'position', [last.id]);
  return { id: last.id, status: last.status, done: new Set(rows.map((r) => `${r[0] as string}\u0000${r[1] as string}`)) };
}

/** Tasks that started or ended after `since` (ISO time), for the live stream; and the time to ask from next. */
export async function taskChanges(q: Queryable, deploymentId: number, since: string): Promise<{ tasks: TaskRunView[]; until: string }> {
  const [{ now }] = await q.query<{ now: Date | string }>('SELECT now() AS now');
  // Thousands a look in a large run (every 500 ms): one value, not a row each (many-rows.ts).
  const rows = await manyRows(q, TASK_COLUMNS, `FROM deployment_tasks WHERE deployment_id = $1 AND (started_at > $2::timestamptz OR finished_at > $2::timestamptz)`, 'coalesce(finished_at, started_at), position', [deploymentId, since]);
  return { tasks: rows.map((r) => taskView(r, false)), until: new Date(now).toISOString() };
}

/**
 * Ask whichever server runs a deployment to stop it, with the grace period asked for (seconds;
 * none: that server's default); false when it is not running.
 */
export async function requestStop(q: Queryable, deploymentId: number, graceS?: number): Promise<boolean> {
  return (await q.query(`UPDATE deployments SET stop_requested = true, stop_grace_s = $2 WHERE id = $1 AND status = 'running' RETURNING id`, [deploymentId, graceS ?? null])).length > 0;
}

/** What a deletion run was started to remove (node-removal.ts), kept with it for a resume on any server. */
export async function recordRemoval(q: Queryable, deploymentId: number, removal: { nodes: readonly number[]; environment?: boolean }): Promise<void> {
  await q.query('UPDATE deployments SET removal = $2::jsonb WHERE id = $1', [deploymentId, JSON.stringify({ nodes: [...removal.nodes], ...(removal.environment ? { environment: true } : {}) })]);
}

/** The removal a run was started for, if any. */
export async function removalOf(q: Queryable, deploymentId: number): Promise<{ nodes: number[]; environment?: boolean } | undefined> {
  const [row] = await q.query<{ removal: unknown }>('SELECT removal FROM deployments WHERE id = $1', [deploymentId]);
  const r = typeof row?.removal === 'string' ? JSON.parse(row.removal) : row?.removal;
  if (!r || typeof r !== 'object' || !Array.isArray((r as { nodes?: unknown }).nodes)) return undefined;
  const nodes = ((r as { nodes: unknown[] }).nodes).filter((n): n is number => typeof n === 'number');
  return { nodes, ...((r as { environment?: unknown }).environment === true ? { environment: true } : {}) };
}

/**
 * The removal the environment's last real run of this graph type was started for, when that run
 * is the one a resume would continue (not succeeded, not running), with only the nodes still in
 * the environment: a resumed deletion runs on those, never on every node of the environment.
 */
export async function removalToResume(q: Queryable, clusterId: number, graphType: string): Promise<{ nodes: number[]; environment?: boolean } | undefined> {
  const [last] = await q.query<{ id: number; status: string }>(`SELECT id, status FROM deployments WHERE cluster_id = $1 AND graph_type = $2 AND mode = 'real' ORDER BY id DESC LIMIT 1`, [clusterId, graphType]);
  if (!last || last.status === 'succeeded' || last.status === 'running') return undefined;
  const removal = await removalOf(q, last.id);
  if (!removal) return undefined;
  const here = new Set((await q.query<{ id: number }>('SELECT id FROM nodes WHERE cluster_id = $1', [clusterId])).map((r) => Number(r.id)));
  return { ...removal, nodes: removal.nodes.filter((id) => here.has(id)) };
}
