/**
 * Every transition of the lifecycle, with its cause, as data: the server, the deploy layer and the
 * docs read this table, and the functions below (the only places a state is decided after a run)
 * are checked against it. A dry run appears nowhere here on purpose: it changes no environment,
 * node or deployed state.
 */
import type { EnvironmentState, NodeState, RunState, TaskOutcome } from './states.js';

export interface Transition<S extends string> {
  from: readonly S[] | '*';
  /** `previous`: back to the state it had before (kept for this). */
  to: S | 'previous';
  cause: string;
}

export const ENVIRONMENT_TRANSITIONS: readonly Transition<EnvironmentState>[] = [
  { from: '*', to: 'new', cause: 'created, or reset (its nodes keep their roles, pending again)' },
  { from: ['new', 'operational', 'partially_deployed', 'stopped', 'error'], to: 'deploying', cause: 'a real run of the default graph starts' },
  { from: ['deploying'], to: 'operational', cause: 'the run succeeded with no failed task' },
  { from: ['deploying'], to: 'partially_deployed', cause: 'the run succeeded within the roles\' fault tolerance (some nodes in error)' },
  { from: ['deploying'], to: 'stopped', cause: 'an operator stopped the run' },
  { from: ['deploying'], to: 'error', cause: 'the run failed, or its server shut down or died (interrupted)' },
  { from: ['new', 'operational', 'partially_deployed', 'stopped', 'error'], to: 'removing', cause: 'deleted with its deployed nodes cleaned (the deletion graph runs on them)' },
  { from: ['removing'], to: 'error', cause: 'the deletion graph failed on a node: the environment stays, with that node' },
  { from: ['removing'], to: 'previous', cause: 'the deletion run was stopped or interrupted before it ended: the environment stays as it was (it is deleted only when the deletion graph succeeded on every node)' },
];

export const NODE_TRANSITIONS: readonly Transition<NodeState>[] = [
  { from: '*', to: 'discover', cause: 'a simulated node is created, or leaves its environment' },
  { from: '*', to: 'discovered', cause: 'a real host is added (reached over SSH, facts gathered), or leaves its environment' },
  { from: ['discovered', 'ready', 'error', 'provisioned'], to: 'provisioning', cause: 'the provisioning graph starts on it' },
  { from: ['provisioning'], to: 'provisioned', cause: 'the provisioning graph succeeded on it' },
  { from: ['discovered', 'provisioned', 'ready', 'error'], to: 'deploying', cause: 'a real run of any other graph with tasks on it starts' },
  { from: ['deploying', 'provisioning'], to: 'ready', cause: 'every task of its own in a run of the default graph succeeded or was skipped (or succeeded in the run resumed); or the provisioning graph succeeded on a node that was ready' },
  { from: ['deploying'], to: 'previous', cause: 'a graph that deploys nothing (network verification, custom graphs) succeeded on it: it is what it was before' },
  { from: ['deploying', 'provisioning', 'removing'], to: 'error', cause: 'one of its own tasks failed, timed out or was killed' },
  { from: ['deploying', 'provisioning', 'removing'], to: 'previous', cause: 'the run ended before its tasks did (stopped, interrupted, a dependency elsewhere failed): back to what it was before the run' },
  { from: '*', to: 'offline', cause: 'Hearth could not reach it over SSH' },
  { from: ['offline'], to: 'previous', cause: 'reached again: back to the state it had before it went offline' },
  { from: ['ready', 'error', 'provisioned'], to: 'removing', cause: 'removed from its environment: the deletion graph runs on it' },
  { from: ['removing'], to: 'discovered', cause: 'the deletion graph succeeded: it returns to the pool' },
];

export const RUN_TRANSITIONS: readonly Transition<RunState>[] = [
  { from: '*', to: 'running', cause: 'a deployment or a graph run starts (a dry run too, marked as such)' },
  { from: ['running'], to: 'succeeded', cause: 'every task succeeded or was skipped, or failures stayed within fault tolerance' },
  { from: ['running'], to: 'failed', cause: 'a task failed beyond fault tolerance, or the orchestrator stopped' },
  { from: ['running'], to: 'stopped', cause: 'an operator asked it to stop (who and when are kept)' },
  { from: ['running'], to: 'interrupted', cause: 'its server shut down (SIGTERM/SIGINT) or died, or stopped renewing its lease' },
];

export const TASK_TRANSITIONS: readonly Transition<TaskOutcome>[] = [
  { from: '*', to: 'pending', cause: 'the run is created' },
  { from: ['pending'], to: 'running', cause: 'its dependencies succeeded and the runner starts it' },
  { from: ['running'], to: 'succeeded', cause: 'it exited 0' },
  { from: ['running', 'pending'], to: 'failed', cause: 'it exited non-zero (exit status kept) or could not run (the reason kept)' },
  { from: ['running'], to: 'timed_out', cause: 'it ran past its timeout' },
  { from: ['pending'], to: 'skipped', cause: 'its condition was false, or it is a marker' },
  { from: ['pending'], to: 'not_run', cause: 'a task it depends on did not succeed (named)' },
  { from: ['pending'], to: 'stopped', cause: 'the run was stopped or shut down before it started' },
  { from: ['running'], to: 'killed', cause: 'a stop\'s grace period or a shutdown\'s ended while it ran (who is kept)' },
];
