import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../tasks/model.js';
import { buildDeploymentGraph, fuelConditions } from './index.js';

const task = (id: string, condition: Task['condition']): Task => ({ id, type: 'puppet', version: '2.1.0', roles: '*', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], condition, origin: { source: 'test' } });

test('Fuel conditions: YAQL once per cluster or per node, lifecycle on a first deployment, restriction strings, failures', () => {
  const graph = buildDeploymentGraph({
    tasks: [
      task('ceph', { yaql_exp: '$.storage.objects_ceph' }),
      task('first-deploy', { yaql_exp: 'changed($)' }),
      task('controllers-only', { yaql_exp: "'controller' in $.node_roles" }),
      task('debug', 'settings:common.debug.value == true'),
      task('broken', { yaql_exp: '$.a +' }),
    ],
    nodes: [{ id: 'c', roles: ['controller'] }, { id: 'k', roles: ['compute'] }],
    conditions: fuelConditions({ common: { storage: { objects_ceph: false } }, models: { settings: { common: { debug: { value: false } } } } }),
  });
  const skipped = (node: string) => {
    const n = graph.nodes.find((x) => x.id === node)!;
    return graph.classes[n.classIndex].slots.filter((_, i) => graph.skipped[n.base + i]).map((s) => s.id);
  };
  assert.deepEqual(skipped('c'), ['ceph', 'debug']);
  assert.deepEqual(skipped('k'), ['ceph', 'controllers-only', 'debug']);
  const failed = graph.findings.filter((f) => f.code === 'graph/condition-failed');
  assert.equal(failed.length, 1);
  assert.match(failed[0].message, /broken/);
  assert.ok(!graph.findings.some((f) => f.code === 'graph/conditions-not-evaluated'));
});
