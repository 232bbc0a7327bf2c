/**
 * Deployments as the API gives them. A dry run records each task's status; a real run (its own
 * issue) adds when each task started and finished, its exit status, attempts and output, which
 * these views show as soon as the API carries them.
 */
import type { Schemas } from '../../../src/api/client.js';
import { RUN_MEANING, TASK_OUTCOME_MEANING, TASK_OUTCOMES, type RunState, type TaskOutcome } from '../../../src/core/lifecycle/states.js';
import { countOutcomes, outcomeOfStored, type RunCounts } from '../../../src/core/lifecycle/outcomes.js';

/** A deployment as the API gives it, its tasks (when listed) in the page's own form. */
export type Deployment = Omit<Schemas['Deployment'], 'tasks'> & { tasks?: TaskRun[] };

export interface TaskRun {
  node: string;
  /** `GET /deployments/{id}/tasks` says `task_id`; the older `?tasks=true` listing says `taskId`. */
  task_id?: string;
  taskId: string;
  position: number;
  status: string;
  type?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  startedAt?: string | null;
  finishedAt?: string | null;
  exit_status?: number | null;
  exitStatus?: number | null;
  attempts?: number;
  output?: string | null;
  message?: string | null;
  /** Why it ended, in the lifecycle's words (servers before issue 25 send only `status`). */
  outcome?: string;
}

export const finished = (d: Deployment | null) => d !== null && d.status !== 'running';

/** Failures first, then what runs, what waits, what is done, what was skipped. */
const ORDER: Record<TaskOutcome, number> = { failed: 0, timed_out: 0, killed: 0, stopped: 1, not_run: 1, running: 2, pending: 3, succeeded: 4, skipped: 5 };
export const byFailuresFirst = (a: TaskRun, b: TaskRun) => ORDER[outcomeOf(a)] - ORDER[outcomeOf(b)] || a.position - b.position;

/**
 * `tasks` in byFailuresFirst's order, each task's outcome read once: sorting with byFailuresFirst
 * reads two outcomes per comparison, some 7 million at 200,000 tasks, on every change of a
 * watched run.
 */
export function failuresFirst(tasks: readonly TaskRun[]): TaskRun[] {
  const n = tasks.length;
  const rank = new Float64Array(n);
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    rank[i] = ORDER[outcomeOf(tasks[i])];
    order[i] = i;
  }
  order.sort((a, b) => rank[a] - rank[b] || tasks[a].position - tasks[b].position);
  return order.map((i) => tasks[i]);
}

/** Where each task of a list stands (by liveKey), kept beside the list it describes (mergeTasks). */
const places = new WeakMap<readonly TaskRun[], Map<string, number>>();

function placesOf(tasks: readonly TaskRun[]): Map<string, number> {
  let at = places.get(tasks);
  if (!at) {
    at = new Map();
    for (let i = 0; i < tasks.length; i++) at.set(liveKey(tasks[i].node, tasks[i].taskId), i);
    places.set(tasks, at);
  }
  return at;
}

/**
 * A new list of `tasks` with `changes` (as the live stream sends them, oldest first) merged in:
 * a task already listed is updated where it stands, a new one is added at the end. The tasks'
 * places are kept beside the list and handed on to the new one, so each change costs one lookup,
 * not a search of the whole run: merging each task event on its own into a copy of 200,000 tasks
 * kept a watched large run's page busy for seconds at every look of the stream.
 */
export function mergeTasks(tasks: readonly TaskRun[], changes: readonly TaskRun[]): TaskRun[] {
  if (!changes.length) return tasks as TaskRun[];
  const at = placesOf(tasks);
  const next = tasks.slice();
  for (const change of changes) {
    const key = liveKey(change.node, change.taskId);
    const i = at.get(key);
    if (i === undefined) {
      at.set(key, next.length);
      next.push(change);
    } else next[i] = { ...next[i], ...change };
  }
  // The places now describe `next` (a task added to it is not in `tasks`): the old list, if asked
  // again (React may call an update twice), counts its own afresh.
  places.delete(tasks);
  places.set(next, at);
  return next;
}

const time = (v: string | null | undefined) => (v ? Date.parse(v) : NaN);

/** Seconds a task (or a deployment) took, when both ends are known. */
export function seconds(start: string | null | undefined, end: string | null | undefined): number | null {
  const s = time(start);
  const e = time(end);
  return Number.isFinite(s) && Number.isFinite(e) ? Math.max(0, (e - s) / 1000) : null;
}

export const taskSeconds = (t: TaskRun) => seconds(t.started_at ?? t.startedAt, t.finished_at ?? t.finishedAt);

export function formatSeconds(s: number | null): string {
  if (s === null) return '—';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  const rest = Math.round(s % 60);
  return rest ? `${Math.floor(s / 60)} min ${rest} s` : `${Math.floor(s / 60)} min`;
}

/**
 * A task's outcome: the record's `outcome` when the server sends it, else read from its legacy
 * `status` (and message) by core's own rule, so an older server's records show the same words.
 */
export function outcomeOf(t: TaskRun): TaskOutcome {
  if (t.outcome && (TASK_OUTCOMES as readonly string[]).includes(t.outcome)) return t.outcome as TaskOutcome;
  return outcomeOfStored({ status: t.status, exitStatus: t.exit_status ?? t.exitStatus ?? null, message: t.message ?? null });
}

/** The lifecycle's label of an outcome, in a sentence's lower case ("timed out", "not run"). */
export const outcomeWord = (o: TaskOutcome) => TASK_OUTCOME_MEANING[o].label.toLowerCase();
export const outcomeMeaning = (o: TaskOutcome) => TASK_OUTCOME_MEANING[o].meaning;

/** A run's state in the lifecycle's words, lower case for a sentence. */
export const runWord = (status: string) => (RUN_MEANING[status as RunState]?.label ?? status).toLowerCase();
export const runMeaning = (status: string) => RUN_MEANING[status as RunState]?.meaning;

/**
 * A run's tasks by outcome: the server's `counts` when it sends them, else counted from the tasks
 * listed (by the same rule), else only what legacy `done` and `total` say.
 */
export function countsOf(d: Deployment): RunCounts | undefined {
  const sent = (d as { counts?: RunCounts }).counts;
  if (sent) return sent;
  if (d.tasks?.length) return countOutcomes(d.tasks.map(outcomeOf));
  return undefined;
}

/** Done means succeeded: skipped, failed or stopped work is not done (counted apart). */
export const doneOf = (d: Deployment) => countsOf(d)?.succeeded ?? d.done;

/** The outcomes counted apart beside "done", in the order people read them. */
export const APART: TaskOutcome[] = ['failed', 'timed_out', 'killed', 'skipped', 'not_run', 'stopped', 'running', 'pending'];

/** "2 failed, 1 skipped, 3 not run": the outcomes other than succeeded that have tasks. */
export const apartWords = (c: RunCounts | undefined) => (c ? APART.filter((o) => c[o] > 0).map((o) => `${c[o]} ${outcomeWord(o)}`).join(', ') : '');

/** A time as people compare them across days: local, 24-hour, with the date (2025-03-04 17:05:09). */
export function isoTime(iso: string | null | undefined): string {
  const t = iso ? new Date(iso) : undefined;
  if (!t || Number.isNaN(t.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())} ${p(t.getHours())}:${p(t.getMinutes())}:${p(t.getSeconds())}`;
}

/** One shape for both task listings. */
/** A task as either listing gives it (`task_id` or `taskId`), with `taskId` always set. */
export const normalizeTask = (t: Omit<TaskRun, 'taskId'> & { taskId?: string }): TaskRun => ({ ...t, taskId: t.taskId ?? t.task_id ?? '' });

/** The key of one task of one node, for output streamed while it runs. */
export const liveKey = (node: string, taskId: string) => `${node}\u0000${taskId}`;
