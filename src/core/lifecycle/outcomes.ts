/**
 * The decisions after a run, as pure functions: how many tasks ended how, what a node is after its
 * own tasks, what the environment is after the run. The server calls these; no face counts or
 * decides on its own.
 */
import type { EnvironmentState, NodeState, RunState, TaskOutcome } from './states.js';

export type RunCounts = Record<TaskOutcome, number>;

export function emptyCounts(): RunCounts {
  return { pending: 0, running: 0, succeeded: 0, failed: 0, timed_out: 0, skipped: 0, not_run: 0, stopped: 0, killed: 0 };
}

/** Tasks by outcome. `done` (progress) is `succeeded` alone: skipped or failed work is not done. */
export function countOutcomes(outcomes: Iterable<TaskOutcome>): RunCounts {
  const c = emptyCounts();
  for (const o of outcomes) c[o]++;
  return c;
}

/**
 * A task record as stored before outcomes were kept (Nailgun's statuses: ready, error, skipped),
 * read as an outcome. `message` and `exitStatus` tell the skipped and failed kinds apart the way
 * the runner wrote them.
 */
export function outcomeOfStored(r: { status: string; exitStatus?: number | null; message?: string | null }): TaskOutcome {
  const message = r.message ?? '';
  switch (r.status) {
    case 'pending':
      return 'pending';
    case 'running':
      return 'running';
    case 'ready':
      return 'succeeded';
    case 'error':
      if (/^timed out/.test(message)) return 'timed_out';
      if (/^killed/.test(message)) return 'killed';
      return 'failed';
    case 'stopped':
      return 'stopped';
    case 'skipped':
      // The runner's words: "stopped: …" (and, before outcomes, "not run: the deployment was
      // stopped") for what a stop or a shutdown kept from starting; "not run: X failed on node N".
      if (/^stopped/.test(message) || /^not run: the deployment was stopped/.test(message)) return 'stopped';
      if (/^not run/.test(message)) return 'not_run';
      return 'skipped';
    default:
      return 'failed';
  }
}

/** The legacy `status` a client written before outcomes reads (kept for those clients). */
export function legacyStatusOf(o: TaskOutcome): 'pending' | 'running' | 'ready' | 'error' | 'skipped' {
  switch (o) {
    case 'pending':
    case 'running':
      return o;
    case 'succeeded':
      return 'ready';
    case 'failed':
    case 'timed_out':
    case 'killed':
      return 'error';
    default:
      return 'skipped';
  }
}

const BROKE: ReadonlySet<TaskOutcome> = new Set(['failed', 'timed_out', 'killed']);
const UNFINISHED: ReadonlySet<TaskOutcome> = new Set(['pending', 'running', 'not_run', 'stopped']);

/**
 * What a graph does to its nodes' state. `default` deploys roles (a node ends `ready`, deployed
 * and healthy); `provisioning` prepares machines (a node ends `provisioned`, or stays `ready` when it
 * was deployed already); every other graph (network verification, custom ones) acts on a node
 * without deploying it, so a node it leaves whole is what it was before.
 */
export type GraphKind = 'default' | 'provisioning' | 'other';

/** The graph types of the provisioning kind: Fuel 9's `provision`, and Hearth's skeleton's `provisioning`. */
export function graphKindOf(graphType: string): GraphKind {
  if (graphType === 'default') return 'default';
  if (graphType === 'provision' || graphType === 'provisioning') return 'provisioning';
  return 'other';
}

/** A node's state while a real run of that kind of graph has tasks on it. */
export function nodeStateDuringRun(kind: GraphKind): 'deploying' | 'provisioning' {
  return kind === 'provisioning' ? 'provisioning' : 'deploying';
}

/**
 * A node after a real run, from its own tasks in that run (a resumed run lists the tasks done in
 * the run it resumed as succeeded). Broken: `error`. All succeeded or skipped: `ready` after the
 * default graph (deployed and healthy, as in Fuel), `provisioned` after the provisioning graph
 * (`ready` stays `ready`), what it was before after any other graph. Some never ran (the run ended
 * first): what it was before the run, since nothing this run promised happened on it.
 */
export function nodeStateAfterRun(before: NodeState, own: Iterable<TaskOutcome>, kind: GraphKind = 'default'): NodeState {
  let unfinished = false;
  for (const o of own) {
    if (BROKE.has(o)) return 'error';
    if (UNFINISHED.has(o)) unfinished = true;
  }
  const previous = before === 'deploying' || before === 'removing' || before === 'provisioning' ? 'discovered' : before;
  if (unfinished) return previous;
  if (kind === 'default') return 'ready';
  if (kind === 'provisioning') return previous === 'ready' ? 'ready' : 'provisioned';
  return previous;
}

/**
 * Whether a node's own tasks in a run all ran through (succeeded, or were skipped by a condition):
 * what a deletion run must have done on a node before it leaves its environment, whatever state
 * the node was in before (a node in error is removed too, once cleaned).
 */
export function ranThrough(own: Iterable<TaskOutcome>): boolean {
  for (const o of own) if (BROKE.has(o) || UNFINISHED.has(o)) return false;
  return true;
}

/** An environment after a real run of its default graph. */
export function environmentStateAfterRun(run: Exclude<RunState, 'running'>, anyNodeInError: boolean): EnvironmentState {
  switch (run) {
    case 'succeeded':
      return anyNodeInError ? 'partially_deployed' : 'operational';
    case 'stopped':
      return 'stopped';
    default:
      return 'error';
  }
}
