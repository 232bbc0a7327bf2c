/**
 * Walking core's per-node graph on real nodes. The order is core's (its edges: same-node and
 * cross-node dependencies, barriers, strategies as pacing edges); this file decides only *when*:
 * a vertex starts once everything before it has finished, a node runs one task at a time (as
 * Astute did, and as core's estimate assumes), and at most `maxParallel` tasks run at once.
 * Markers (stages, groups, skipped tasks, tasks whose condition was false, barriers) finish at once
 * without touching a node. A task that fails for good stops what depends on it, transitively;
 * independent work goes on. `fail_on_error: false` lets its dependents run anyway.
 * Nothing is stored here: every start and end is reported to the caller, which persists.
 */
import type { Task } from '../core/tasks/model.js';
import { nodeOfVertex, type DeploymentGraph } from '../core/graph/index.js';
import { MARKER_TYPES, type TaskOutcome } from './tasks.js';

export type VertexState = 'waiting' | 'running' | 'ready' | 'error' | 'skipped' | 'stopped';

export interface VertexRef {
  vertex: number;
  /** The graph's node id (the store's node id as text, or `master` / `sync`). */
  node: string;
  task: Task;
}

export interface RunEvents {
  started?(v: VertexRef, attempt: number): void;
  output?(v: VertexRef, chunk: string): void;
  /** `skipped`: a marker or a false condition; `stopped`: a dependency failed, or the run was stopped. */
  finished(v: VertexRef, state: Exclude<VertexState, 'waiting' | 'running'>, outcome?: TaskOutcome): void;
}

export interface RunInput {
  graph: DeploymentGraph;
  /** Runs one attempt of a task on its node; retries and their pauses are the runner's. */
  execute(v: VertexRef, attempt: number, signal: AbortSignal, onOutput: (chunk: string) => void): Promise<TaskOutcome>;
  events: RunEvents;
  maxParallel?: number;
  /**
   * Stop: running tasks finish (or are killed after `graceMs`), nothing new starts. A stop that
   * names its own grace period aborts with a `StopReason` as the reason, which wins over `graceMs`.
   */
  signal?: AbortSignal;
  graceMs?: number;
  /** Stop now: running tasks are killed at once (the run is no longer this server's). */
  kill?: AbortSignal;
  /** Awaited before each task starts (a server makes sure it still holds the run's lease). */
  hold?: () => Promise<void> | void;
  /** Vertices that finished in an earlier run (resume): taken as done, not run again. */
  done?: (vertex: number) => boolean;
  /** Pause between attempts, ms (tests shorten it); a task's `interval` (s) wins. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The reason a stop's signal may carry: the grace period this stop gives running tasks, and why
 * the run stops, in the words its task records keep ("the operator stopped the run", "the server
 * shut down").
 */
export interface StopReason {
  graceMs?: number;
  why?: string;
}

/** The grace period a stop gives: the one the stop asked for, else the run's, else 30 s. */
export function graceOf(signal: AbortSignal | undefined, fallback: number | undefined): number {
  const asked = (signal?.reason as Partial<StopReason> | undefined)?.graceMs;
  return typeof asked === 'number' && Number.isFinite(asked) && asked >= 0 ? asked : (fallback ?? 30_000);
}

export interface RunSummary {
  ran: number;
  failed: VertexRef[];
  /** Failed with fail_on_error false: reported, not fatal. */
  tolerated: VertexRef[];
  stopped: number;
  skipped: number;
  /** True when the signal stopped the run before everything was done. */
  interrupted: boolean;
}

const S_WAIT = 0;
const S_RUN = 1;
const S_OK = 2;
const S_FAIL = 3;
const S_STOP = 4;

const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : fallback);

/** `parameters.retries` more attempts after the first; `interval` seconds between them. */
export const attemptsOf = (task: Task): number => 1 + Math.min(100, Math.floor(num(task.parameters?.retries, 0)));
export const intervalOf = (task: Task): number => num(task.parameters?.interval, 1) * 1000;
export const failOnError = (task: Task): boolean => {
  const raw = task.extra?.fail_on_error ?? task.parameters?.fail_on_error;
  return !(raw === false || raw === 'false');
};

/** How many tasks the walk starts before it lets the event loop run (the loop below says why). */
const STARTS_PER_TURN = 500;

export async function runGraph(input: RunInput): Promise<RunSummary> {
  const { graph } = input;
  const n = graph.vertexCount;
  const maxParallel = Math.max(1, input.maxParallel ?? 50);
  const sleep = input.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Successors in compressed form, and how many predecessors each vertex still waits for.
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < graph.edgeFrom.length; i++) offsets[graph.edgeFrom[i] + 1]++;
  for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
  const succ = new Int32Array(graph.edgeFrom.length);
  const cursor = offsets.slice(0, n);
  const waiting = new Int32Array(n);
  for (let i = 0; i < graph.edgeFrom.length; i++) {
    succ[cursor[graph.edgeFrom[i]]++] = graph.edgeTo[i];
    waiting[graph.edgeTo[i]]++;
  }
  const state = new Uint8Array(n);
  const summary: RunSummary = { ran: 0, failed: [], tolerated: [], stopped: 0, skipped: 0, interrupted: false };
  const ref = (v: number): VertexRef => {
    const node = graph.nodes[nodeOfVertex(graph, v)];
    return { vertex: v, node: node.id, task: graph.classes[node.classIndex].slots[v - node.base].task };
  };
  const isMarker = (v: number) => v >= graph.barrierBase || graph.skipped[v] === 1 || MARKER_TYPES.has(ref(v).task.type);

  // Ready task vertices per node (a node runs one at a time), lowest vertex id first.
  // Indexed by the graph's node index: a Map and a Set keyed by it were looked up four times per
  // task, a tenth of a 10,000-node walk (issue 30).
  const queues: Array<number[] | undefined> = new Array(graph.nodes.length);
  const busy = new Uint8Array(graph.nodes.length);
  // A queue read from `idleHead` on: shift() on an array of thousands of nodes copied it whole
  // when V8 could not trim it in place, a third of bench deploy's walk at 10,000 nodes (issue 30).
  let idleWithWork: number[] = [];
  let idleHead = 0;
  let running = 0;
  const instant: number[] = [];

  const becomeReady = (v: number) => {
    if (input.done?.(v) || isMarker(v)) {
      instant.push(v);
      return;
    }
    const node = nodeOfVertex(graph, v);
    let q = queues[node];
    if (!q) queues[node] = q = [];
    // Insert keeping the queue sorted (queues are short: one node's ready tasks).
    let i = q.length;
    while (i > 0 && q[i - 1] > v) i--;
    q.splice(i, 0, v);
    if (!busy[node] && q.length === 1) idleWithWork.push(node);
  };

  const release = (v: number) => {
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const w = succ[e];
      if (state[w] !== S_WAIT) continue;
      if (--waiting[w] === 0) becomeReady(w);
    }
  };

  /** A failure stops every vertex that depends on it, through barriers and other nodes. */
  const stopDependents = (v: number, why: string) => {
    const stack = [v];
    while (stack.length) {
      const x = stack.pop()!;
      for (let e = offsets[x]; e < offsets[x + 1]; e++) {
        const w = succ[e];
        if (state[w] !== S_WAIT) continue;
        state[w] = S_STOP;
        stack.push(w);
        if (w < graph.barrierBase) {
          summary.stopped++;
          input.events.finished(ref(w), 'stopped', { exitCode: null, output: '', attempts: 0, message: why });
        }
      }
    }
  };

  const settleInstant = () => {
    while (instant.length) {
      const v = instant.pop()!;
      if (state[v] !== S_WAIT) continue;
      state[v] = S_OK;
      if (v < graph.barrierBase && !input.done?.(v)) {
        // A false condition or a `skipped` task did not run; a stage or group marker is passed.
        const r = ref(v);
        const skipped = graph.skipped[v] === 1 || r.task.type === 'skipped';
        if (skipped) summary.skipped++;
        input.events.finished(r, skipped ? 'skipped' : 'ready');
      }
      release(v);
    }
  };

  const controller = new AbortController();
  // Why the run stops, in words the task records keep: the caller's abort reason (an operator's
  // stop, a server's shutdown), else a plain stop.
  const stopWhy = (): string => {
    const why = (input.signal?.reason as Partial<StopReason> | undefined)?.why;
    return typeof why === 'string' && why ? why : 'the run was stopped';
  };
  const stopAll = () => {
    summary.interrupted = true;
    // Running tasks get a grace period, then are killed; nothing new starts meanwhile.
    setTimeout(() => controller.abort(), graceOf(input.signal, input.graceMs)).unref();
  };
  if (input.signal?.aborted) stopAll();
  else input.signal?.addEventListener('abort', stopAll, { once: true });
  const killAll = () => {
    summary.interrupted = true;
    controller.abort();
  };
  if (input.kill?.aborted) killAll();
  else input.kill?.addEventListener('abort', killAll, { once: true });

  let wake: (() => void) | undefined;
  const runOne = async (v: number, node: number) => {
    const r = ref(v);
    const attempts = attemptsOf(r.task);
    let outcome: TaskOutcome = { exitCode: null, output: '', attempts: 0 };
    await input.hold?.();
    if (controller.signal.aborted || summary.interrupted) outcome.message = `stopped: ${stopWhy()} before it started`;
    else for (let attempt = 1; attempt <= attempts; attempt++) {
      input.events.started?.(r, attempt);
      outcome = await input.execute(r, attempt, controller.signal, (chunk) => input.events.output?.(r, chunk)).catch((err: Error) => ({ exitCode: null, output: '', attempts: attempt, message: `Hearth failed running the task: ${err.message}` }));
      outcome.attempts = attempt;
      if (outcome.exitCode === 0 && !outcome.message) break;
      if (attempt < attempts && !summary.interrupted) await sleep(intervalOf(r.task));
      else break;
    }
    running--;
    busy[node] = 0;
    summary.ran++;
    // Killed, not failed: the grace period of a stop or a shutdown ended while it ran, or the run
    // was taken from this server. Its exit status (if any) is kept; the message says who.
    const killed = controller.signal.aborted && !(outcome.exitCode === 0 && !outcome.message) && outcome.attempts > 0;
    if (killed) outcome.message = `killed: ${input.kill?.aborted ? 'the run was taken over by another server (this one had lost its lease)' : `the grace period ended after ${stopWhy()}`}`;
    if (outcome.attempts === 0 && summary.interrupted) {
      // Held until the stop came: it never started, so it is stopped, as are its dependents.
      state[v] = S_STOP;
      summary.stopped++;
      input.events.finished(r, 'stopped', outcome);
      stopDependents(v, outcome.message ?? `stopped: ${stopWhy()} before it started`);
    } else if (outcome.exitCode === 0 && !outcome.message) {
      state[v] = S_OK;
      input.events.finished(r, 'ready', outcome);
      release(v);
    } else if (!failOnError(r.task)) {
      state[v] = S_OK;
      summary.tolerated.push(r);
      input.events.finished(r, 'error', outcome);
      release(v);
    } else {
      state[v] = S_FAIL;
      summary.failed.push(r);
      input.events.finished(r, 'error', outcome);
      // The dependents of a killed task were stopped with the run; of a failed one, not run because of it.
      stopDependents(v, killed ? `stopped: ${r.task.id} was killed on node ${r.node}` : `not run: ${r.task.id} failed on node ${r.node}`);
    }
    if (queues[node]?.length) idleWithWork.push(node);
    wake?.();
  };

  for (let v = 0; v < n; v++) if (waiting[v] === 0) becomeReady(v);
  let started = 0;
  for (;;) {
    // Tasks that finish without waiting on anything (bench deploy's fake transport) kept the walk
    // in microtasks, which hold the thread until the walk ends: nothing else ran meanwhile, and the
    // database thread's answers waited, so a 200,000-task walk (0.6-0.8 s) and its bookkeeping ran
    // one after the other instead of side by side, as they do behind a real transport, which waits
    // at every task (issue 30). Every so many tasks started (a few ms of work) the event loop gets
    // a turn. Counted, not timed: a walk's order must not depend on the machine's load
    // (estimate-order.test.ts drives it on a virtual clock).
    if (started >= STARTS_PER_TURN) {
      started = 0;
      await new Promise<void>((r) => setImmediate(r));
    }
    settleInstant();
    while (!summary.interrupted && running < maxParallel && idleHead < idleWithWork.length) {
      const node = idleWithWork[idleHead++];
      if (idleHead > 1024 && idleHead * 2 > idleWithWork.length) {
        idleWithWork = idleWithWork.slice(idleHead);
        idleHead = 0;
      }
      const q = queues[node];
      if (busy[node] || !q?.length) continue;
      const v = q.shift()!;
      busy[node] = 1;
      state[v] = S_RUN;
      running++;
      started++;
      void runOne(v, node);
    }
    if (running === 0 && (instant.length === 0 || summary.interrupted)) break;
    if (instant.length) continue;
    await new Promise<void>((r) => (wake = r));
    wake = undefined;
  }
  input.signal?.removeEventListener('abort', stopAll);
  input.kill?.removeEventListener('abort', killAll);
  // What never started (stopped by the operator) is reported as stopped.
  if (summary.interrupted) {
    for (let v = 0; v < graph.barrierBase; v++) {
      if (state[v] === S_WAIT && !input.done?.(v)) {
        summary.stopped++;
        input.events.finished(ref(v), 'stopped', { exitCode: null, output: '', attempts: 0, message: `stopped: ${stopWhy()} before it started` });
      }
    }
  }
  return summary;
}
