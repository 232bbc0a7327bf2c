import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../tasks/model.js';
import { NODE_KEYS } from './deployment-info.js';
import { buildDeploymentGraph, fuelConditions, planCondition, rewriteLegacyCondition, type DeploymentGraph } from './index.js';
import { parseYaql } from '../yaql/index.js';

const task = (id: string, condition: Task['condition']): Task => ({ id, type: 'puppet', version: '2.1.0', roles: '*', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], condition, origin: { source: 'test' } });
const skippedOn = (graph: DeploymentGraph, node: string) => {
  const n = graph.nodes.find((x) => x.id === node)!;
  return graph.classes[n.classIndex].slots.filter((_, i) => graph.skipped[n.base + i]).map((s) => s.id);
};

test('Fuel conditions: YAQL once per cluster or per node, lifecycle on a first deployment, restriction strings, failures', () => {
  const graph = buildDeploymentGraph({
    tasks: [
      task('ceph', { yaql_exp: '$.storage.objects_ceph' }),
      task('first-deploy', { yaql_exp: 'changed($)' }),
      task('never-before', { yaql_exp: 'len(old($)) = 0' }),
      task('controllers-only', { yaql_exp: "'controller' in $.node_roles" }),
      task('debug', 'settings:common.debug.value == true'),
      task('sahara', 'settings:additional_components.sahara.value == true'),
      task('broken', { yaql_exp: '$.a +' }),
      task('missing-key', { yaql_exp: '$.nope.deeper' }),
    ],
    nodes: [{ id: 'c', roles: ['controller'] }, { id: 'k', roles: ['compute'] }],
    conditions: fuelConditions({ common: { storage: { objects_ceph: false }, debug: false, sahara: { enabled: true } } }),
  });
  assert.deepEqual(skippedOn(graph, 'c'), ['ceph', 'debug']);
  assert.deepEqual(skippedOn(graph, 'k'), ['ceph', 'controllers-only', 'debug']);
  const failed = graph.findings.filter((f) => f.code === 'graph/condition-failed');
  assert.deepEqual(failed.map((f) => f.message.match(/task '([^']+)'/)![1]).sort(), ['broken', 'missing-key']);
  assert.ok(!graph.findings.some((f) => f.code === 'graph/conditions-not-evaluated'));
});

test('restriction strings: Nailgun LCM rewrites, unknown settings are a warning naming the task', () => {
  assert.equal(rewriteLegacyCondition('settings:common.debug.value == true'), 'settings:debug == true');
  assert.equal(rewriteLegacyCondition('settings:additional_components.sahara.value == true'), 'settings:sahara.enabled == true');
  assert.equal(rewriteLegacyCondition("settings:storage.volumes_ceph.value and not settings:storage.images_ceph.value"), 'settings:storage.volumes_ceph and not settings:storage.images_ceph');
  const graph = buildDeploymentGraph({ tasks: [task('typo', 'settings:storag.objects_ceph.value == false')], nodes: [{ id: 'n', roles: ['compute'] }], conditions: fuelConditions({ common: { storage: { objects_ceph: false } } }) });
  const warning = graph.findings.find((f) => f.code === 'graph/condition-unresolved');
  assert.match(warning!.message, /task 'typo'.*settings:storag\.objects_ceph/);
  assert.deepEqual(skippedOn(graph, 'n'), ['typo']);
});

test('condition plan: cluster-wide parts are hoisted, per-node parts stay', () => {
  const plan = (text: string) => planCondition(parseYaql(text).ast!, NODE_KEYS, new Set(['roles']));
  assert.equal(plan('changed($.storage)').clusterWide, true);
  const uid = plan('$.uid in added($.network_metadata.nodes.values()).uid');
  assert.equal(uid.clusterWide, false);
  assert.equal(uid.readsIdentity, true);
  assert.equal(uid.hoisted.length, 1);
  assert.equal(uid.needsCommon, false);
  const split = plan("changedAny($.network_scheme, $.network_metadata, ('primary-controller' in $.roles))");
  assert.equal(split.hoisted.length, 1, 'changed($.network_metadata) is hoisted on its own');
  assert.equal(split.readsIdentity, true);
  // Inside a lambda `$` is the item: nothing there is hoisted, and the receiver still is.
  const lambda = plan("$.network_metadata.nodes.values().where($.uid = $.uid).len() > 0 and 'compute' in $.roles");
  assert.equal(lambda.hoisted.length, 1);
  assert.equal(lambda.readsIdentity, false);
  assert.equal(plan('changed($)').readsIdentity, true);
});

test('hoisted values agree with evaluating the whole expression, with and without a previous state', () => {
  const common = { network_metadata: { nodes: { 'node-1': { uid: '1' }, 'node-2': { uid: '2' } } }, nodes: [{ uid: '1' }, { uid: '2' }], storage: { x: 1 } };
  const previousCommon = { network_metadata: { nodes: { 'node-1': { uid: '1' } } }, nodes: [{ uid: '1' }], storage: { x: 1 } };
  const tasks = [
    task('new-node', { yaql_exp: '$.uid in added($.network_metadata.nodes.values()).uid' }),
    task('storage-changed', { yaql_exp: 'changed($.storage)' }),
    task('legacy-added', { yaql_exp: '$.uid in added($.nodes).uid' }),
    task('missing-hoisted', { yaql_exp: "$.uid = '1' or $.nope.x" }),
  ];
  const nodes = [{ id: '1', roles: ['compute'] }, { id: '2', roles: ['compute'] }];
  const first = buildDeploymentGraph({ tasks, nodes, conditions: fuelConditions({ common, nodeKeys: NODE_KEYS }) });
  assert.deepEqual(skippedOn(first, '1'), []);
  assert.deepEqual(skippedOn(first, '2'), []);
  assert.equal(first.findings.filter((f) => f.code === 'graph/condition-failed').length, 1, "node 2 evaluates `$.nope.x`: one warning for the task");
  const again = buildDeploymentGraph({
    tasks,
    nodes,
    conditions: fuelConditions({ common, nodeKeys: NODE_KEYS, previous: { common: previousCommon, nodes: new Map([['1', { overlay: { uid: '1' }, labels: ['compute'] }]]) } }),
  });
  assert.deepEqual(skippedOn(again, '1'), ['new-node', 'storage-changed', 'legacy-added']);
  assert.deepEqual(skippedOn(again, '2'), []);
});

test('a redeployment walks the cluster-wide node list once for changed($), not once per node', () => {
  const size = 400;
  let walks = 0;
  const counted = <T extends object>(target: T) => new Proxy(target, { ownKeys: (t) => (walks++, Reflect.ownKeys(t)) });
  const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`node-${i + 1}`, { uid: String(i + 1) }]));
  const storage = { x: 1 };
  const common = { network_metadata: { nodes: counted(entries(size)) }, storage };
  // The previous state knew the first half of the nodes, with the same own keys as now (so comparing
  // `$` reaches the node list); its storage section is shared, as shareUnchanged makes it.
  const previousCommon = { network_metadata: { nodes: counted(entries(size / 2)) }, storage };
  const nodes = Array.from({ length: size }, (_, i) => ({ id: String(i + 1), roles: ['compute'] }));
  const before = new Map(nodes.slice(0, size / 2).map((n) => [n.id, { overlay: { uid: n.id, roles: ['compute'], node_roles: ['compute'] }, labels: ['compute'] }]));
  const graph = buildDeploymentGraph({
    tasks: [task('anything-changed', { yaql_exp: 'changed($)' }), task('storage-changed', { yaql_exp: 'changed($.storage)' }), task('unchanged', { yaql_exp: 'not changed($)' })],
    nodes,
    conditions: fuelConditions({ common, nodeKeys: NODE_KEYS, previous: { common: previousCommon, nodes: before } }),
  });
  // Nodes deployed before see the grown node list as a change but not storage; for new ones everything changed.
  for (const id of ['1', String(size / 2)]) assert.deepEqual(skippedOn(graph, id), ['storage-changed', 'unchanged'], `node ${id}`);
  for (const id of [String(size / 2 + 1), String(size)]) assert.deepEqual(skippedOn(graph, id), ['unchanged'], `node ${id}`);
  assert.ok(walks <= 8, `the node list was walked ${walks} times for ${size} nodes`);
});

test('per-class verdicts: the same graph as evaluating every node, and a node key read only where the answer needs it', () => {
  const common = { storage: { x: 1 }, nodes: [{ uid: '1' }, { uid: '2' }] };
  const tasks = [
    task('uid-picked', { yaql_exp: "$.uid in ['1', '3', '8']" }),
    task('controllers', { yaql_exp: "'controller' in $.roles" }),
    task('uid-changed', { yaql_exp: 'changed($.uid)' }),
    task('anything-changed', { yaql_exp: 'changed($)' }),
    task('fqdn-or-storage', { yaql_exp: 'changedAny($.fqdn, $.storage)' }),
    task('storage-then-uid', { yaql_exp: "changed($.storage) or $.uid = '2'" }),
    task('long-fqdn', { yaql_exp: 'len($.fqdn) > 12' }),
    task('new-node', { yaql_exp: '$.uid in added($.nodes).uid' }),
  ];
  const roles = (i: number) => (i < 3 ? ['controller'] : i % 2 ? ['compute'] : ['compute', 'cinder']);
  const nodes = Array.from({ length: 12 }, (_, i) => ({ id: String(i + 1), roles: roles(i) }));
  // Every node its own class: `attributes`, even empty, turn the per-class verdicts off.
  const alone = nodes.map((n) => ({ ...n, attributes: {} }));
  const reads = { uid: 0, roles: 0 };
  const nodeData = (node: { id: string; labels: string[]; roles: string[] }) => {
    const own = { fqdn: `node-${node.id}.${node.id === '10' ? 'long.example' : 'x'}`, node_roles: node.roles };
    return Object.defineProperties(own, {
      uid: { enumerable: true, get: () => (reads.uid++, node.id) },
      roles: { enumerable: true, get: () => (reads.roles++, node.labels) },
    }) as Record<string, unknown>;
  };
  const nodeKeys = new Set(['uid', 'fqdn', 'roles', 'node_roles']);
  const classKeys = new Set(['roles', 'node_roles']);
  const before = new Map(nodes.slice(0, 6).map((n) => [n.id, { overlay: { uid: n.id, fqdn: n.id === '2' ? 'renamed' : `node-${n.id}.x`, roles: roles(Number(n.id) - 1), node_roles: roles(Number(n.id) - 1) }, labels: roles(Number(n.id) - 1) }]));
  const previous = { common: { storage: common.storage, nodes: [{ uid: '1' }] }, nodes: before };
  const everySkipped = (graph: DeploymentGraph) => Object.fromEntries(nodes.map((n) => [n.id, skippedOn(graph, n.id)]));
  for (const history of [undefined, previous]) {
    const options = { common, nodeData, nodeKeys, classKeys, ...(history ? { previous: history } : {}) };
    reads.uid = reads.roles = 0;
    const perClass = buildDeploymentGraph({ tasks, nodes, conditions: fuelConditions(options) });
    const classReads = { ...reads };
    const perNode = buildDeploymentGraph({ tasks, nodes: alone, conditions: fuelConditions(options) });
    assert.deepEqual(everySkipped(perClass), everySkipped(perNode), history ? 'redeployment' : 'first deployment');
    assert.deepEqual([...perClass.skipped], [...perNode.skipped]);
    assert.deepEqual(perClass.criticalPath, perNode.criticalPath);
    if (!history) {
      // `changed($.uid)` on a node never deployed answers from the missing old value, and
      // `storage-then-uid` from `changed($.storage)`: neither reads the uid, so each is evaluated
      // once per class; only the two conditions that need the uid read it, on every node.
      assert.equal(classReads.uid, 12 * 2, 'uid-picked and new-node read the uid on each node');
      assert.equal(classReads.roles, 3, "'controller' in $.roles is evaluated once per class (3 classes)");
      assert.deepEqual(skippedOn(perClass, '4'), ['uid-picked', 'controllers', 'long-fqdn', 'new-node']);
      assert.deepEqual(skippedOn(perClass, '10'), ['uid-picked', 'controllers', 'new-node']);
    } else {
      assert.deepEqual(skippedOn(perClass, '2'), ['uid-picked', 'uid-changed', 'long-fqdn'], 'deployed before, renamed');
      // The node list grew: `changed($)` holds everywhere; nothing of node 5's own changed.
      assert.deepEqual(skippedOn(perClass, '5'), ['uid-picked', 'controllers', 'uid-changed', 'fqdn-or-storage', 'storage-then-uid', 'long-fqdn', 'new-node'], 'deployed before, unchanged');
      assert.deepEqual(skippedOn(perClass, '9'), ['uid-picked', 'controllers', 'long-fqdn', 'new-node'], 'a new node');
    }
  }
});
