/**
 * Deployments as the API gives them. A dry run records each task's status; a real run (its own
 * issue) adds when each task started and finished, its exit status, attempts and output, which
 * these views show as soon as the API carries them.
 */
import type { Schemas } from '../../../src/api/client.js';

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
}

export const finished = (d: Deployment | null) => d !== null && d.status !== 'running';

/** Failures first, then what runs, what waits, what is done, what was skipped. */
const ORDER: Record<string, number> = { error: 0, failed: 0, stopped: 1, running: 2, pending: 3, ready: 4, skipped: 5 };
export const byFailuresFirst = (a: TaskRun, b: TaskRun) => (ORDER[a.status] ?? 6) - (ORDER[b.status] ?? 6) || a.position - b.position;

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

/** The status of a task in words. */
export const STATUS_WORDS: Record<string, string> = { ready: 'done', error: 'failed', running: 'running', pending: 'waiting', skipped: 'skipped (its condition did not hold, or an earlier task failed)', stopped: 'stopped' };

/** One shape for both task listings. */
/** A task as either listing gives it (`task_id` or `taskId`), with `taskId` always set. */
export const normalizeTask = (t: Omit<TaskRun, 'taskId'> & { taskId?: string }): TaskRun => ({ ...t, taskId: t.taskId ?? t.task_id ?? '' });

/** The key of one task of one node, for output streamed while it runs. */
export const liveKey = (node: string, taskId: string) => `${node}\u0000${taskId}`;
