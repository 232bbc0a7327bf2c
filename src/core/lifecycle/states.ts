/**
 * The lifecycle's words: the states of an environment, a node, a run (deployment) and a task
 * record. One word per state everywhere: the API and the CLI's `--json` carry these words, the UI
 * shows these states (with a friendlier label at most). Fuel's words where Fuel had them, so an
 * operator who knew Nailgun reads the same thing. docs/lifecycle.md is this table in prose; a test
 * keeps the two equal.
 */

export const ENVIRONMENT_STATES = ['new', 'deploying', 'operational', 'partially_deployed', 'stopped', 'error', 'removing'] as const;
export type EnvironmentState = (typeof ENVIRONMENT_STATES)[number];

export const NODE_STATES = ['discover', 'discovered', 'provisioning', 'provisioned', 'deploying', 'ready', 'error', 'offline', 'removing'] as const;
export type NodeState = (typeof NODE_STATES)[number];

export const RUN_STATES = ['running', 'succeeded', 'failed', 'stopped', 'interrupted'] as const;
export type RunState = (typeof RUN_STATES)[number];

/** Why a task record ended (or that it has not): the record's `outcome`. */
export const TASK_OUTCOMES = ['pending', 'running', 'succeeded', 'failed', 'timed_out', 'skipped', 'not_run', 'stopped', 'killed'] as const;
export type TaskOutcome = (typeof TASK_OUTCOMES)[number];

export interface StateMeaning {
  /** The UI's label: a friendlier spelling of the same state, never another state. */
  label: string;
  meaning: string;
}

export const ENVIRONMENT_MEANING: Record<EnvironmentState, StateMeaning> = {
  new: { label: 'New', meaning: 'nothing has been deployed on its nodes yet (or it was reset)' },
  deploying: { label: 'Deploying', meaning: 'a real run of its default graph is running' },
  operational: { label: 'Operational', meaning: 'its last real deployment succeeded on every node with roles' },
  partially_deployed: { label: 'Partially deployed', meaning: 'its last real deployment succeeded within the roles\' fault tolerance: some nodes are in error' },
  stopped: { label: 'Stopped', meaning: 'its last real deployment was stopped by an operator; resume continues it' },
  error: { label: 'Error', meaning: 'its last real deployment failed or was interrupted (the server went away); resume continues it' },
  removing: { label: 'Removing', meaning: 'its nodes are being cleaned (the deletion graph) before it is deleted' },
};

export const NODE_MEANING: Record<NodeState, StateMeaning> = {
  discover: { label: 'Discovered (simulated)', meaning: 'a simulated node, nothing deployed' },
  discovered: { label: 'Discovered', meaning: 'a real host Hearth reaches, nothing deployed on it' },
  provisioning: { label: 'Provisioning', meaning: 'its provisioning graph is running' },
  provisioned: { label: 'Provisioned', meaning: 'its provisioning graph succeeded; roles not deployed yet' },
  deploying: { label: 'Deploying', meaning: 'a real run is running its tasks' },
  ready: { label: 'Ready', meaning: 'deployed and healthy: every task of its last real run succeeded (or was skipped by a condition)' },
  error: { label: 'Error', meaning: 'one of its tasks failed, timed out or was killed in its last real run' },
  offline: { label: 'Offline', meaning: 'Hearth cannot reach it over SSH; what it was before is kept for when it comes back' },
  removing: { label: 'Removing', meaning: 'the deletion graph is running on it; it leaves the environment when that succeeds' },
};

export const RUN_MEANING: Record<RunState, StateMeaning> = {
  running: { label: 'Running', meaning: 'a server is walking its graph' },
  succeeded: { label: 'Succeeded', meaning: 'every task succeeded or was skipped, or failures stayed within the roles\' fault tolerance' },
  failed: { label: 'Failed', meaning: 'a task failed beyond fault tolerance, or the orchestrator stopped' },
  stopped: { label: 'Stopped', meaning: 'an operator asked it to stop: nothing new started, running tasks finished or were killed' },
  interrupted: { label: 'Interrupted', meaning: 'its server shut down or died; any server can resume it' },
};

export const TASK_OUTCOME_MEANING: Record<TaskOutcome, StateMeaning> = {
  pending: { label: 'Pending', meaning: 'not started yet' },
  running: { label: 'Running', meaning: 'running now' },
  succeeded: { label: 'Succeeded', meaning: 'ran and exited 0' },
  failed: { label: 'Failed', meaning: 'ran and exited non-zero (its exit status is kept), or could not run' },
  timed_out: { label: 'Timed out', meaning: 'ran past its timeout and was killed' },
  skipped: { label: 'Skipped', meaning: 'not run on purpose: its condition was false, or it is a marker (stage, group, skipped)' },
  not_run: { label: 'Not run', meaning: 'a task it depends on did not succeed (which one is said)' },
  stopped: { label: 'Stopped', meaning: 'the run was stopped or shut down before it started' },
  killed: { label: 'Killed', meaning: 'running when a stop\'s grace period or a shutdown\'s ended; killed, by whom is said' },
};

/** Outcomes that end a task record. */
export const FINISHED_OUTCOMES: ReadonlySet<TaskOutcome> = new Set(['succeeded', 'failed', 'timed_out', 'skipped', 'not_run', 'stopped', 'killed']);
/** Outcomes a resume runs again: everything that did not succeed and was not skipped on purpose. */
export const RERUN_ON_RESUME: ReadonlySet<TaskOutcome> = new Set(['pending', 'running', 'failed', 'timed_out', 'not_run', 'stopped', 'killed']);
