/**
 * How the CLI reads a task record's outcome and a run's counts, and prints progress and times. One
 * place, so that every command says the same thing: a task is done only when it `succeeded`;
 * failed, skipped, not run, stopped and remaining are counted apart. The words are the lifecycle's
 * (src/core/lifecycle/states.ts). A server that sends `outcome` and `counts` is read as it says;
 * an older one (only `status` and `done`) is read through core's mapping of the stored statuses.
 */
import { emptyCounts, outcomeOfStored, type RunCounts, type TaskOutcome } from '../../core/lifecycle/index.js';

/** The few fields of a task record the CLI reads (an older server sends no `outcome`). */
export interface TaskLike {
  status: string;
  outcome?: string | null;
  exit_status?: number | null;
  message?: string | null;
}

/** A run record as the CLI reads it (an older server sends no `counts`). */
export interface RunLike {
  status: string;
  total: number;
  done: number;
  counts?: Partial<RunCounts> | null;
}

/** A task record's outcome, in the model's words. */
export function outcomeOf(t: TaskLike): TaskOutcome {
  if (t.outcome) return t.outcome as TaskOutcome;
  return outcomeOfStored({ status: t.status, exitStatus: t.exit_status ?? null, message: t.message ?? null });
}

/** Whether a task record has ended (the live stream sends its start too). */
export const hasEnded = (t: TaskLike): boolean => !['pending', 'running'].includes(outcomeOf(t));

/**
 * A run's tasks by outcome: the run's own `counts`; else counted from its task records when the
 * caller has them; else (an older server, no records at hand) `done` read as succeeded and the
 * rest as pending, which is all such a server says (its `done` counted skipped tasks too).
 */
export function countsOf(d: RunLike, tasks?: readonly TaskLike[]): RunCounts {
  const c = emptyCounts();
  if (d.counts) {
    for (const key of Object.keys(c) as TaskOutcome[]) c[key] = d.counts[key] ?? 0;
    return c;
  }
  if (tasks && tasks.length === d.total) {
    for (const t of tasks) c[outcomeOf(t)]++;
    return c;
  }
  c.succeeded = d.done;
  c.pending = Math.max(0, d.total - d.done);
  return c;
}

/** Progress in words: "3/10 tasks succeeded, 1 failed, 2 skipped, 4 remaining". */
export function progressText(d: RunLike, tasks?: readonly TaskLike[]): string {
  const c = countsOf(d, tasks);
  const remaining = c.pending + c.running;
  const parts = [`${c.succeeded}/${d.total} tasks succeeded`];
  const apart: Array<[number, string]> = [
    [c.failed, 'failed'],
    [c.timed_out, 'timed out'],
    [c.killed, 'killed'],
    [c.skipped, 'skipped'],
    [c.not_run, 'not run'],
    [c.stopped, 'stopped'],
    [remaining, d.status === 'running' ? 'remaining' : 'never ran'],
  ];
  for (const [n, word] of apart) if (n > 0) parts.push(`${n} ${word}`);
  return parts.join(', ');
}

/** "2025-01-31 14:05:09": ISO's order, 24-hour, with the date, in this machine's time zone. */
export function stamp(at: Date | string | number = Date.now()): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '????-??-?? ??:??:??';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** "45s", "1m30s", "2h05m10s"; under a minute with tenths when `precise` ("1.2s"). */
export function duration(ms: number, precise = false): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return precise ? `${s.toFixed(1)}s` : `${Math.floor(s)}s`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, '0');
  return h ? `${h}h${String(m).padStart(2, '0')}m${sec}s` : `${m}m${sec}s`;
}
