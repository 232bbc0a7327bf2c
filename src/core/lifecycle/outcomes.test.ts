import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENVIRONMENT_STATES, ENVIRONMENT_TRANSITIONS, NODE_STATES, NODE_TRANSITIONS, RUN_STATES, RUN_TRANSITIONS, TASK_OUTCOMES, TASK_TRANSITIONS, type Transition } from './index.js';
import { countOutcomes, environmentStateAfterRun, graphKindOf, legacyStatusOf, nodeStateAfterRun, nodeStateDuringRun, outcomeOfStored, ranThrough } from './outcomes.js';

test('progress: only succeeded tasks are done; every other outcome is counted apart and all sum to the graph', () => {
  const outcomes = ['succeeded', 'succeeded', 'failed', 'skipped', 'not_run', 'stopped', 'killed', 'timed_out', 'pending', 'running'] as const;
  const c = countOutcomes(outcomes);
  assert.equal(c.succeeded, 2);
  assert.deepEqual([c.failed, c.skipped, c.not_run, c.stopped, c.killed, c.timed_out, c.pending, c.running], [1, 1, 1, 1, 1, 1, 1, 1]);
  assert.equal(Object.values(c).reduce((a, b) => a + b, 0), outcomes.length);
});

test('a node after a run follows its own tasks', () => {
  assert.equal(nodeStateAfterRun('deploying', ['succeeded', 'skipped']), 'ready');
  assert.equal(nodeStateAfterRun('deploying', ['succeeded', 'failed', 'not_run']), 'error');
  assert.equal(nodeStateAfterRun('deploying', ['succeeded', 'killed']), 'error');
  assert.equal(nodeStateAfterRun('deploying', ['timed_out']), 'error');
  // Its tasks never ran because the run ended first: not ready (nothing promised happened), not error (nothing of its own failed).
  assert.equal(nodeStateAfterRun('ready', ['not_run', 'not_run']), 'ready');
  assert.equal(nodeStateAfterRun('discovered', ['succeeded', 'stopped']), 'discovered');
  assert.equal(nodeStateAfterRun('deploying', ['stopped']), 'discovered');
});

test('a node after another graph: provisioning makes it provisioned (a deployed node stays ready); other graphs leave a whole node as it was', () => {
  assert.equal(graphKindOf('default'), 'default');
  assert.equal(graphKindOf('provision'), 'provisioning');
  assert.equal(graphKindOf('provisioning'), 'provisioning');
  assert.equal(graphKindOf('verify_networks'), 'other');
  assert.equal(nodeStateDuringRun('provisioning'), 'provisioning');
  assert.equal(nodeStateDuringRun('other'), 'deploying');
  assert.equal(nodeStateAfterRun('discovered', ['succeeded'], 'provisioning'), 'provisioned');
  assert.equal(nodeStateAfterRun('ready', ['succeeded'], 'provisioning'), 'ready');
  assert.equal(nodeStateAfterRun('discovered', ['failed'], 'provisioning'), 'error');
  assert.equal(nodeStateAfterRun('discovered', ['stopped'], 'provisioning'), 'discovered');
  assert.equal(nodeStateAfterRun('discovered', ['succeeded'], 'other'), 'discovered', 'a verification deploys nothing');
  assert.equal(nodeStateAfterRun('error', ['succeeded'], 'other'), 'error', 'a custom graph does not mend a failed deployment');
  assert.equal(nodeStateAfterRun('ready', ['succeeded', 'skipped'], 'other'), 'ready');
  assert.equal(nodeStateAfterRun('ready', ['failed'], 'other'), 'error');
  // The default graph is what the runner has always meant by a run.
  assert.equal(nodeStateAfterRun('provisioned', ['succeeded']), 'ready');
});

test('a node cleaned by a deletion run: all its own tasks ran through, whatever it was before', () => {
  assert.equal(ranThrough(['succeeded', 'skipped']), true);
  assert.equal(ranThrough([]), true, 'a node the deletion graph has no task for has nothing left to clean');
  assert.equal(ranThrough(['succeeded', 'failed']), false);
  assert.equal(ranThrough(['succeeded', 'stopped']), false, 'a stop before its tasks ran: not cleaned');
  assert.equal(ranThrough(['killed']), false);
});

test('an environment after a real run of its default graph', () => {
  assert.equal(environmentStateAfterRun('succeeded', false), 'operational');
  assert.equal(environmentStateAfterRun('succeeded', true), 'partially_deployed');
  assert.equal(environmentStateAfterRun('stopped', false), 'stopped');
  assert.equal(environmentStateAfterRun('failed', true), 'error');
  assert.equal(environmentStateAfterRun('interrupted', false), 'error');
});

test('rows stored before outcomes are read as the runner meant them, and every outcome has a legacy status', () => {
  assert.equal(outcomeOfStored({ status: 'ready' }), 'succeeded');
  assert.equal(outcomeOfStored({ status: 'error', exitStatus: 7 }), 'failed');
  assert.equal(outcomeOfStored({ status: 'error', message: 'timed out after 3 s' }), 'timed_out');
  assert.equal(outcomeOfStored({ status: 'skipped', message: 'not run' }), 'not_run');
  assert.equal(outcomeOfStored({ status: 'skipped', message: 'condition is false' }), 'skipped');
  assert.equal(outcomeOfStored({ status: 'skipped' }), 'skipped');
  for (const o of TASK_OUTCOMES) assert.equal(outcomeOfStored({ status: legacyStatusOf(o), message: o === 'not_run' ? 'not run' : o === 'timed_out' ? 'timed out after 1 s' : o === 'killed' ? 'killed at the end of the grace period' : o === 'stopped' ? 'stopped before it started' : null }), o);
});

const wellFormed = <S extends string>(states: readonly S[], table: readonly Transition<S>[]) => {
  for (const t of table) {
    if (t.to !== 'previous') assert.ok(states.includes(t.to), `unknown state ${t.to}`);
    if (t.from !== '*') for (const f of t.from) assert.ok(states.includes(f), `unknown state ${f}`);
  }
  // Every state is reachable: nothing in the model is a word no transition produces.
  for (const s of states) assert.ok(table.some((t) => t.to === s) || s === 'pending', `no transition reaches ${s}`);
};

test('every transition names known states, and every state is reached by one', () => {
  wellFormed(ENVIRONMENT_STATES, ENVIRONMENT_TRANSITIONS);
  wellFormed(NODE_STATES, NODE_TRANSITIONS);
  wellFormed(RUN_STATES, RUN_TRANSITIONS);
  wellFormed(TASK_OUTCOMES, TASK_TRANSITIONS);
});
