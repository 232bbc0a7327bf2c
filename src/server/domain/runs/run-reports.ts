/**
 * A real run's bookkeeping: what deploy/ reports (each task's start and end) waits here, one entry
 * per task holding its latest state, and is written in batches (one statement per batch, on a short
 * timer, when a batch is full, and at the end), so a run of 200,000 tasks costs a hundred
 * statements, not 400,000. A task is recorded finished only once its batch is written: when the
 * server dies first, the task is still pending in the database, so a resumed run does it again.
 * The same timer renews the run's lease and hears a stop asked through another server.
 * A batch the database refuses (a full disk, the database gone) is kept and sent again, later
 * each time, and the failure is told to the caller (which logs it): a report is never dropped for
 * a write that failed, so no task that ran reads as "not run" because of one.
 */
import type { EventEmitter } from 'node:events';
import { OUTPUT_LIMIT, type RunEvents, type TaskOutcome, type VertexRef } from '../../../deploy/index.js';
import type { Database } from '../../../store/index.js';
import type { LiveCounts } from '../../../store/live-counts.js';
import * as runs from '../../../store/task-runs.js';
import { storageFailure } from '../../errors.js';

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
  /**
   * The run's counts by outcome as created, kept up to date and stored with each batch, so a look
   * at the run reads them instead of counting its rows. Without, the run's rows are counted.
   */
  counts?: LiveCounts;
  /** Told of each failed write: the error, how many reports wait, how many failures in a row. */
  onWriteFailure?: (err: unknown, waiting: number, failures: number) => void;
}

export interface RunReports {
  events: RunEvents;
  /** Sends what waits; resolves once everything sent so far is written (or failed, and kept). */
  flush(): Promise<void>;
  /**
   * Stops the timer and writes what is left, trying again (each time later, up to 5 s apart)
   * until it is written or `giveUp` aborts (the server shuts down).
   */
  close(giveUp?: AbortSignal): Promise<void>;
  /** Reports not written (yet): after `close`, those lost for good. */
  readonly lost: number;
  /** The first write failure of the run, if any (kept after later writes succeed). */
  readonly firstFailure: unknown;
}

const trim = (s: string) => (s.length > OUTPUT_LIMIT ? s.slice(s.length - OUTPUT_LIMIT) : s);

export function runReports(db: Database, deploymentId: number, options: RunReportsOptions): RunReports {
  const batchSize = options.batchSize ?? 2000;
  // Keyed by vertex: a number key keeps the map cheap at 200,000 tasks.
  let pending = new Map<number, runs.TaskRunUpdate>();
  let writing: Promise<void> = Promise.resolve();
  let failures = 0;
  let retryAt = 0;
  let firstFailure: unknown;
  let lastFailure: unknown;
  let inFlight = 0;
  // The batch is taken when its turn comes, not when asked for: a batch that failed is back in
  // the queue before the next is taken, so an older report never overwrites a newer one.
  const write = async () => {
    if (!pending.size) return;
    // At most `batchSize` reports, the oldest: when the walk outpaces the database (a fast transport),
    // everything waits by the write's turn, and one statement of 200,000 updates (bench deploy) made
    // PGlite rewrite the whole table in one transaction (no in-page reuse of the rows it had just
    // updated), twice the table and index, 7% more CPU (issue 24).
    let batch = pending;
    if (pending.size <= batchSize) pending = new Map();
    else {
      batch = new Map();
      for (const [v, u] of pending) {
        if (batch.size >= batchSize) break;
        batch.set(v, u);
        pending.delete(v);
      }
    }
    inFlight = batch.size;
    try {
      const updates = [...batch.values()];
      const counted = options.counts?.after(updates);
      await runs.applyTaskUpdates(db, deploymentId, updates, counted?.counts);
      counted?.commit();
      failures = 0;
    } catch (err) {
      failures++;
      firstFailure ??= err;
      lastFailure = err;
      retryAt = Date.now() + Math.min(5000, 250 * 2 ** failures);
      // Back in the queue; a newer report of the same task (made meanwhile) wins.
      for (const [v, u] of batch) {
        const newer = pending.get(v);
        if (!newer) pending.set(v, u);
        else if (u.startedMs !== undefined && newer.startedMs === undefined) newer.startedMs = u.startedMs;
      }
      options.onWriteFailure?.(err, pending.size, failures);
    } finally {
      inFlight = 0;
    }
    // What was left behind goes next (flush is declared below; called only once writes run).
    if (pending.size >= batchSize && due()) void flush();
  };
  // At most one write waits its turn: it takes everything reported by then. Queuing one per call
  // made a promise for every report put while a write was waiting (flush is asked at each put past
  // `batchSize`), tens of thousands in a large run: bench deploy's bookkeeping cost a third more.
  let queued = false;
  const flush = (): Promise<void> => {
    if (!pending.size || queued) return writing;
    queued = true;
    writing = writing.then(() => {
      queued = false;
      return write();
    });
    return writing;
  };
  const due = () => failures === 0 || Date.now() >= retryAt;
  const timer = setInterval(() => {
    if (due()) void flush();
    options.tick?.();
  }, options.flushMs ?? 250);
  const put = (v: VertexRef, u: runs.TaskRunUpdate) => {
    const before = pending.get(v.vertex);
    if (before?.startedMs !== undefined && u.startedMs === undefined) u.startedMs = before.startedMs;
    pending.set(v.vertex, u);
    if (pending.size >= batchSize && due()) void flush();
  };
  const output = options.output;
  // Times as Date.now()'s numbers: no Date and no ISO string per report (issue 30).
  const events: RunEvents = {
    started: (v, attempt) => put(v, { position: options.positionOf(v.vertex), status: 'running', attempts: attempt, startedMs: Date.now() }),
    output: (v, chunk) => {
      if (output?.listenerCount('chunk')) output.emit('chunk', { node: v.node, task_id: v.task.id, chunk });
    },
    finished: (v, state, o?: TaskOutcome) => {
      const u: runs.TaskRunUpdate = { position: options.positionOf(v.vertex), status: state, finishedMs: Date.now() };
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
    async close(giveUp?: AbortSignal) {
      clearInterval(timer);
      await flush();
      // A refusal that is not the storage's (a bug: a value the database cannot hold) does not
      // pass by waiting: after a few, what is left is lost, and the caller says so in the run.
      while (pending.size && !giveUp?.aborted && (failures < 5 || storageFailure(lastFailure))) {
        options.tick?.();
        await new Promise<void>((resolve) => {
          const wake = () => (clearTimeout(t), resolve());
          const t = setTimeout(() => (giveUp?.removeEventListener('abort', wake), resolve()), Math.max(0, retryAt - Date.now()));
          giveUp?.addEventListener('abort', wake, { once: true });
        });
        if (!giveUp?.aborted) await flush();
      }
    },
    get lost() {
      return pending.size + inFlight;
    },
    get firstFailure() {
      return firstFailure;
    },
  };
}
