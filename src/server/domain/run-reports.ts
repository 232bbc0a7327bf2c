/**
 * A real run's bookkeeping: what deploy/ reports (each task's start and end) waits here, one entry
 * per task holding its latest state, and is written in batches (one statement per batch, on a short
 * timer, when a batch is full, and at the end), so a run of 200,000 tasks costs a hundred
 * statements, not 400,000. A task is recorded finished only once its batch is written: when the
 * server dies first, the task is still pending in the database, so a resumed run does it again.
 * The same timer renews the run's lease and hears a stop asked through another server.
 */
import type { EventEmitter } from 'node:events';
import { OUTPUT_LIMIT, type RunEvents, type TaskOutcome, type VertexRef } from '../../deploy/index.js';
import type { Database } from '../../store/index.js';
import * as runs from '../../store/task-runs.js';

export interface RunReportsOptions {
  /** Each vertex's row (its place in the run), as the run was created. */
  positionOf: (vertex: number) => number;
  /** Write every this many ms (and when `batchSize` reports wait). */
  flushMs?: number;
  batchSize?: number;
  /** Where running tasks' output chunks go (the live stream); not stored until the task ends. */
  output?: EventEmitter;
  /** Called on each tick after the batch is sent (lease renewal, stop requests). */
  tick?: () => void;
}

export interface RunReports {
  events: RunEvents;
  /** Sends what waits; resolves once everything sent so far is written (or failed). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
  /** Reports lost because a write failed (the database was unreachable): those tasks stay pending. */
  readonly lost: number;
}

const trim = (s: string) => (s.length > OUTPUT_LIMIT ? s.slice(s.length - OUTPUT_LIMIT) : s);

export function runReports(db: Database, deploymentId: number, options: RunReportsOptions): RunReports {
  const batchSize = options.batchSize ?? 2000;
  // Keyed by vertex: a number key keeps the map cheap at 200,000 tasks.
  let pending = new Map<number, runs.TaskRunUpdate>();
  let writing: Promise<void> = Promise.resolve();
  let lost = 0;
  const flush = (): Promise<void> => {
    if (!pending.size) return writing;
    const batch = [...pending.values()];
    pending = new Map();
    writing = writing.then(
      () =>
        runs.applyTaskUpdates(db, deploymentId, batch).then(
          () => undefined,
          () => void (lost += batch.length),
        ),
    );
    return writing;
  };
  const timer = setInterval(() => {
    void flush();
    options.tick?.();
  }, options.flushMs ?? 250);
  const put = (v: VertexRef, u: runs.TaskRunUpdate) => {
    const before = pending.get(v.vertex);
    if (before?.startedAt && !u.startedAt) u.startedAt = before.startedAt;
    pending.set(v.vertex, u);
    if (pending.size >= batchSize) void flush();
  };
  const output = options.output;
  const events: RunEvents = {
    started: (v, attempt) => put(v, { position: options.positionOf(v.vertex), status: 'running', attempts: attempt, startedAt: new Date().toISOString() }),
    output: (v, chunk) => {
      if (output?.listenerCount('chunk')) output.emit('chunk', { node: v.node, task_id: v.task.id, chunk });
    },
    finished: (v, state, o?: TaskOutcome) => {
      const u: runs.TaskRunUpdate = { position: options.positionOf(v.vertex), status: state, finishedAt: new Date().toISOString() };
      if (o) {
        u.exitStatus = o.exitCode;
        u.attempts = o.attempts;
        u.output = trim(o.output);
        if (o.message) u.message = o.message;
      }
      put(v, u);
    },
  };
  return {
    events,
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
    get lost() {
      return lost;
    },
  };
}
