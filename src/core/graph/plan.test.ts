import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../tasks/model.js';
import { planDeployment, type DeploymentPlan, type GraphRelease, type NodeInput } from './index.js';

function task(id: string, roles: Task['roles'], fields: Partial<Task> = {}): Task {
  return { id, type: 'shell', version: '2.0.0', roles, requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'release' }, ...fields };
}

const CONTROLLERS = "$.network_metadata.nodes.values().where('controller' in $.node_roles or 'primary-controller' in $.node_roles).select($.uid)";
// The release skeleton's graph (src/package/create/release-template.ts), in short.
const release: GraphRelease = {
  name: 'skel',
  version: 'newton-10.0',
  roles_metadata: { controller: { has_primary: true }, compute: {} },
  tags_metadata: {},
  attributes_metadata: { editable: { common: { debug: { value: false } } } },
  graphs: {
    default: {
      tasks: [
        task('controller-services', ['controller'], { condition: { yaql_exp: 'changed($.uid)' } }),
        task('controller-nodes', ['controller'], { type: 'upload_file', requires: ['controller-services'], condition: { yaql_exp: 'changed($.network_metadata.nodes)' } }),
        task('compute-controllers', ['compute'], { type: 'upload_file', condition: { yaql_exp: `changedAny($.uid, ${CONTROLLERS})` } }),
        task('diagnostics', '*' as Task['roles'], { condition: { yaql_exp: '$.debug' } }),
        task('hostname', '*' as Task['roles']),
        task('switched-off', '*' as Task['roles'], { type: 'skipped' }),
      ],
    },
  },
} as unknown as GraphRelease;

const nodes = (...spec: Array<[string, string]>): NodeInput[] => spec.map(([id, role]) => ({ id, roles: [role] }));
const verdicts = (plan: DeploymentPlan) => Object.fromEntries(plan.nodes.map((n) => [n.id, Object.fromEntries(n.tasks.map((t) => [t.id, `${t.runs ? '+' : '-'} ${t.reason}`]))]));
const names: Record<string, string> = { '28': 'host-28', '29': 'host-29', '30': 'host-30' };
const options = { markers: new Set(['stage', 'group', 'skipped']), deployedBy: 7, nodeName: (id: string) => names[id] };

test('a first deployment runs every task whose condition holds, and says why', () => {
  const plan = planDeployment({ composed: release, nodes: nodes(['28', 'controller'], ['29', 'compute']) }, options);
  assert.equal(plan.first_deployment, true);
  const v = verdicts(plan);
  assert.equal(v['28']['controller-services'], '+ changed($.uid): nothing deployed yet');
  assert.equal(v['28'].diagnostics, "- condition '$.debug' is false: $.debug is false");
  assert.equal(v['28'].hostname, '+ no condition: runs on every deployment');
  assert.equal(v['28']['switched-off'], '- type skipped: never runs');
  assert.deepEqual(plan.counts, { run: 5, nodes_run: 2, skipped: 2, markers: 2, nodes: 2 });
  assert.deepEqual(plan.nodes.map((n) => n.new), [true, true]);
});

test('adding a compute: its tasks and the controllers\' node-list task run; the old compute\'s do not, each with the data that changed', () => {
  const before = nodes(['28', 'controller'], ['29', 'compute']);
  const plan = planDeployment({ composed: release, nodes: [...before, ...nodes(['30', 'compute'])], previous: { nodes: before } }, options);
  assert.equal(plan.first_deployment, false);
  const v = verdicts(plan);
  assert.equal(v['28']['controller-services'], '- changed($.uid): unchanged since the last deployment (7)');
  assert.equal(v['28']['controller-nodes'], "+ changed($.network_metadata.nodes): 1 node added (node-30 'host-30')");
  assert.match(v['29']['compute-controllers'], /^- condition 'changedAny\(.*' is false: changed\(\$\.uid\): unchanged since the last deployment \(7\); changed\(\$\.network_metadata.*\): unchanged since the last deployment \(7\)$/);
  assert.match(v['30']['compute-controllers'], /^\+ changedAny\(.*: the node is new$/);
  assert.deepEqual(plan.nodes.map((n) => [n.id, n.new]), [['28', false], ['29', false], ['30', true]]);
  // controller-nodes and hostname on 28, hostname on 29, compute-controllers and hostname on 30.
  assert.deepEqual(plan.counts, { run: 5, nodes_run: 3, skipped: 5, markers: 3, nodes: 3 });
});

test('a changed setting names the value before and after; a resumed run leaves out what succeeded', () => {
  const before = nodes(['28', 'controller'], ['29', 'compute']);
  const plan = planDeployment(
    { composed: release, nodes: before, previous: { nodes: before }, settings: { common: { debug: true } } },
    { ...options, resume: { deploymentId: 9, done: new Set(['28\u0000hostname']) } },
  );
  const v = verdicts(plan);
  assert.equal(v['28'].diagnostics, "+ condition '$.debug' is true: $.debug is true");
  assert.equal(v['28'].hostname, '- succeeded in deployment 9, which this run resumes');
  assert.equal(v['29'].hostname, '+ no condition: runs on every deployment');
  const changedDebug = planDeployment(
    { composed: { ...release, graphs: { default: { tasks: [task('logs', '*' as Task['roles'], { condition: { yaql_exp: 'changed($.debug)' } })] } } } as unknown as GraphRelease, nodes: before, previous: { nodes: before }, settings: { common: { debug: true } } },
    options,
  );
  assert.equal(verdicts(changedDebug)['28'].logs, '+ changed($.debug): false → true');
});
