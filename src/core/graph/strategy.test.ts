import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../tasks/model.js';
import { parseYaml } from '../../package/yaml/index.js';
import { normalizeTasks } from '../tasks/index.js';
import { buildDeploymentGraph, dependenciesOf, describeVertex, fuelConditions, type DeploymentGraph, type NodeInput } from './index.js';
import { amountOf } from './strategy.js';

function task(id: string, fields: Partial<Task> = {}): Task {
  return { id, type: 'shell', version: '2.1.0', roles: '*', timeout: 10, requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'test' }, ...fields };
}
const computes = (n: number): NodeInput[] => Array.from({ length: n }, (_, i) => ({ id: `c-${i + 1}`, roles: ['compute'] }));
/** How many of the task's nodes may run it at once: the gap between a node and the first one it waits for. */
function paceIn(graph: DeploymentGraph, taskId: string): number | undefined {
  const order = graph.nodes.filter((n) => n.id.startsWith('c-')).map((n) => n.id);
  for (let v = 0; v < graph.barrierBase; v++) {
    const p = describeVertex(graph, v);
    if (p.task !== taskId) continue;
    const waits = dependenciesOf(graph, v).filter((d) => d.task === taskId);
    if (waits.length) return order.indexOf(p.node) - order.indexOf(waits[0].node);
  }
  return undefined;
}

test('amounts: numbers, numeric text and shares of the nodes (rounded down, at least one)', () => {
  assert.equal(amountOf(3, 50), 3);
  assert.equal(amountOf(2.7, 50), 2);
  assert.equal(amountOf('4', 50), 4);
  assert.equal(amountOf('10%', 50), 5);
  assert.equal(amountOf('10%', 19), 1);
  assert.equal(amountOf('10%', 5), 1, 'a share never stops the task altogether');
  assert.equal(amountOf('2.5%', 200), 5);
  assert.equal(amountOf('100%', 7), 7);
  for (const bad of [0, -1, Number.NaN, '0%', '-5%', 'ten', '', '%', null, {}, true]) assert.equal(amountOf(bad, 10), undefined, JSON.stringify(bad));
});

test('parallel with a share paces the nodes that run the task: "20%" of 10 computes is 2 at a time', () => {
  const graph = buildDeploymentGraph({ tasks: [task('t', { strategy: { type: 'parallel', amount: '20%' } })], nodes: computes(10) });
  assert.equal(paceIn(graph, 't'), 2);
  assert.equal(graph.makespan, 50);
  // The same share of a group's nodes paces each member.
  const grouped = buildDeploymentGraph({ tasks: [task('compute', { type: 'group', roles: ['compute'], strategy: { type: 'parallel', amount: '50%' } }), task('x', { roles: undefined, groups: ['compute'] })], nodes: computes(4) });
  assert.equal(paceIn(grouped, 'x'), 2);
});

test('parallel with YAQL: evaluated over the deployment data, its value a number or a share', () => {
  const fuelAmount = "switch($.get('deployed_before', {}).get('value') => 1, true => 3)";
  const first = buildDeploymentGraph({ tasks: [task('db', { strategy: { type: 'parallel', amount: fuelAmount } })], nodes: computes(9), conditions: fuelConditions({ common: {} }) });
  assert.equal(paceIn(first, 'db'), 3, 'a first deployment: three at a time');
  const again = buildDeploymentGraph({ tasks: [task('db', { strategy: { type: 'parallel', amount: fuelAmount } })], nodes: computes(9), conditions: fuelConditions({ common: { deployed_before: { value: true } } }) });
  assert.equal(paceIn(again, 'db'), 1, 'after a deployment: one at a time');
  const share = buildDeploymentGraph({ tasks: [task('t', { strategy: { type: 'parallel', amount: '$.batch' } })], nodes: computes(10), conditions: fuelConditions({ common: { batch: '30%' } }) });
  assert.equal(paceIn(share, 't'), 3);
  // The node's own keys are there too (the data of the first node that runs the task).
  const own = buildDeploymentGraph({ tasks: [task('t', { strategy: { type: 'parallel', amount: 'len($.roles) + 1' } })], nodes: computes(6), conditions: fuelConditions({ common: {} }) });
  assert.equal(paceIn(own, 't'), 2);
});

test('a YAQL amount that fails or gives no usable number is a warning and the task runs without a limit', () => {
  for (const amount of ['$.missing.deep', "'lots'", '0', '1 +']) {
    const graph = buildDeploymentGraph({ tasks: [task('t', { strategy: { type: 'parallel', amount } })], nodes: computes(4), conditions: fuelConditions({ common: {} }) });
    assert.equal(paceIn(graph, 't'), undefined, amount);
    assert.equal(graph.makespan, 10, amount);
    const warnings = graph.findings.filter((f) => f.code === 'graph/strategy-amount-failed');
    assert.equal(warnings.length, 1, `${amount}: one warning, however many nodes`);
    assert.match(warnings[0].message, /task 't'/);
  }
  // Without deployment data (planning only) the amount is noted, not guessed.
  const planning = buildDeploymentGraph({ tasks: [task('t', { strategy: { type: 'parallel', amount: '$.n' } })], nodes: computes(4) });
  assert.equal(planning.makespan, 10);
  assert.ok(planning.findings.some((f) => f.code === 'graph/dynamic-strategy'));
});

test('task files: a share is read as written; other text is refused with its place', () => {
  const yaml = (amount: string) => `- id: t\n  type: shell\n  version: 2.1.0\n  roles: '*'\n  parameters:\n    cmd: 'true'\n    strategy: {type: parallel, amount: ${amount}}\n`;
  const read = (amount: string) => normalizeTasks(parseYaml(yaml(amount), 'tasks.yaml').value, { file: 'tasks.yaml', source: 'test' }, 'deployment');
  const ok = read('"10%"');
  assert.deepEqual(ok.tasks[0].strategy, { type: 'parallel', amount: '10%' });
  assert.deepEqual(ok.findings.filter((f) => f.severity === 'error'), []);
  for (const bad of ['"ten"', '"0%"', '"%"', '0', '-2']) {
    const r = read(bad);
    const f = r.findings.find((x) => x.code === 'task/invalid-strategy');
    assert.ok(f, bad);
    assert.equal(f.line, 7, `${bad}: the amount's line`);
  }
});
