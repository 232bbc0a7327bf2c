import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Task } from '../tasks/model.js';
import { buildDeploymentGraph, dependenciesOf, describeVertex, isTaskVertex, unsafePatternReason, type DeploymentGraph, type NodeInput } from './index.js';

function task(id: string, fields: Partial<Task> = {}): Task {
  return { id, type: 'puppet', version: '2.1.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'test' }, ...fields };
}

const stages = [task('deploy_start', { type: 'stage' }), task('deploy_end', { type: 'stage', requires: ['deploy_start'] })];

/** Every (node, task) pair's direct dependencies, through barriers, as "node:task" strings. */
function depsOf(graph: DeploymentGraph, node: string, taskId: string): string[] {
  for (let v = 0; v < graph.barrierBase; v++) {
    const p = describeVertex(graph, v);
    if (p.node === node && p.task === taskId) return dependenciesOf(graph, v).map((d) => `${d.node}:${d.task}`).sort();
  }
  throw new Error(`no ${taskId} on ${node}`);
}

function tasksOn(graph: DeploymentGraph, node: string): string[] {
  const n = graph.nodes.find((x) => x.id === node)!;
  return graph.classes[n.classIndex].slots.map((s) => s.id);
}

const nodes = (spec: Record<string, number>): NodeInput[] => {
  const out: NodeInput[] = [];
  for (const [role, count] of Object.entries(spec)) for (let i = 1; i <= count; i++) out.push({ id: `${role}-${i}`, roles: [role] });
  return out;
};

test('role selection: names, *, /regex/, master, primary roles, tags from roles metadata', () => {
  const graph = buildDeploymentGraph({
    tasks: [
      ...stages,
      task('everywhere', { roles: '*' }),
      task('controllers', { roles: ['/^(primary-)?controller$/'] }),
      task('only-primary', { roles: ['primary-controller'] }),
      task('non-primary', { roles: ['controller'] }),
      task('on-master', { roles: ['master'] }),
      task('by-tag', { tags: ['rabbitmq'] }),
      task('nowhere', { roles: ['/ontroller/'] }), // re.match: anchored at the start only
    ],
    nodes: nodes({ controller: 2, compute: 1 }),
    roles: { controller: { has_primary: true, tags: ['controller', 'rabbitmq'] }, compute: {} },
  });
  assert.deepEqual(tasksOn(graph, 'controller-1'), ['everywhere', 'controllers', 'only-primary', 'by-tag']);
  assert.deepEqual(tasksOn(graph, 'controller-2'), ['everywhere', 'controllers', 'non-primary', 'by-tag']);
  assert.deepEqual(tasksOn(graph, 'compute-1'), ['everywhere']);
  assert.deepEqual(tasksOn(graph, 'master'), ['on-master']);
  assert.deepEqual(tasksOn(graph, 'sync'), ['deploy_start', 'deploy_end']);
  assert.equal(graph.counts.nodes, 3);
});

test('without roles metadata, a label has a primary when tasks name primary-<label>', () => {
  const graph = buildDeploymentGraph({ tasks: [task('p', { roles: ['primary-controller'] }), task('c', { roles: ['controller'] })], nodes: nodes({ controller: 3 }) });
  assert.deepEqual(tasksOn(graph, 'controller-1'), ['p']);
  assert.deepEqual(tasksOn(graph, 'controller-3'), ['c']);
});

test('requires/required_for link tasks on the same node and stages on the sync node', () => {
  const graph = buildDeploymentGraph({
    tasks: [...stages, task('a', { roles: '*', requires: ['deploy_start'] }), task('b', { roles: '*', requires: ['a'], requiredFor: ['deploy_end'] })],
    nodes: nodes({ compute: 2 }),
  });
  assert.deepEqual(depsOf(graph, 'compute-1', 'b'), ['compute-1:a']);
  assert.deepEqual(depsOf(graph, 'compute-2', 'a'), ['sync:deploy_start']);
  assert.deepEqual(depsOf(graph, 'sync', 'deploy_end'), ['compute-1:b', 'compute-2:b', 'sync:deploy_start']);
  assert.equal(graph.cycle, undefined);
});

test('cross-depends and cross-depended-by reach other nodes through one barrier per rule', () => {
  const graph = buildDeploymentGraph({
    tasks: [
      task('keystone', { roles: ['controller'] }),
      task('nova-compute', { roles: ['compute'], crossDepends: [{ name: '/^keystone$/', role: ['controller'] }] }),
      task('nova-other', { roles: ['compute'], crossDepends: [{ name: 'keystone', role: ['controller'], policy: 'any' }] }),
      task('self-dep', { roles: ['compute'], crossDepends: [{ name: 'nova-compute', role: ['self'] }] }),
      task('announce', { roles: ['controller'], crossDependedBy: [{ name: 'nova-compute' }] }),
    ],
    nodes: nodes({ controller: 2, compute: 50 }),
  });
  assert.deepEqual(depsOf(graph, 'compute-7', 'nova-compute'), ['controller-1:announce', 'controller-1:keystone', 'controller-2:announce', 'controller-2:keystone']);
  assert.deepEqual(depsOf(graph, 'compute-7', 'nova-other'), ['controller-1:keystone']);
  assert.deepEqual(depsOf(graph, 'compute-7', 'self-dep'), ['compute-7:nova-compute']);
  // Pair by pair this would be 2×50 edges per rule; through barriers it is 2 + 50.
  assert.ok(graph.counts.edges < 250, `edges ${graph.counts.edges}`);
  assert.equal(graph.counts.barriers, 3);
});

test('a task that cross-depends on its own name waits for the others, not itself', () => {
  const one = buildDeploymentGraph({ tasks: [task('mon', { roles: ['ceph'], crossDepends: [{ name: 'mon' }] })], nodes: nodes({ ceph: 1 }) });
  assert.equal(one.cycle, undefined);
  const two = buildDeploymentGraph({ tasks: [task('mon', { roles: ['ceph'], crossDepends: [{ name: 'mon' }] })], nodes: nodes({ ceph: 2 }) });
  assert.ok(two.cycle, 'two nodes waiting for each other is a real cycle');
});

test('a cycle is an error that prints the cycle task by task and node by node', () => {
  const graph = buildDeploymentGraph({
    tasks: [
      task('a', { roles: ['controller'], requires: ['c'] }),
      task('b', { roles: ['controller'], requires: ['a'] }),
      task('c', { roles: ['compute'], crossDepends: [{ name: 'b', role: ['controller'] }] }),
      task('d', { roles: ['controller'], crossDepends: [{ name: 'c', role: ['compute'] }], requiredFor: ['a'] }),
    ],
    nodes: nodes({ controller: 1, compute: 1 }),
  });
  assert.ok(graph.cycle);
  assert.equal(graph.order, undefined);
  const cycle = graph.cycle!.filter((p) => p.node !== '(barrier)').map((p) => `${p.node}:${p.task}`);
  assert.deepEqual(new Set(cycle), new Set(['controller-1:a', 'controller-1:b', 'compute-1:c', 'controller-1:d']));
  assert.deepEqual(graph.cycle![0], graph.cycle![graph.cycle!.length - 1]);
  const error = graph.findings.find((f) => f.code === 'graph/cycle')!;
  assert.equal(error.severity, 'error');
  assert.match(error.message, /a on controller-1/);
  assert.match(error.message, /c on compute-1/);
});

test('dependencies on missing tasks are one warning per task, listing them', () => {
  const graph = buildDeploymentGraph({ tasks: [task('a', { roles: '*', requires: ['ghost', '/^phantom/'], crossDepends: [{ name: 'spirit' }] })], nodes: nodes({ x: 1 }) });
  const warnings = graph.findings.filter((f) => f.code === 'task/unknown-dependency');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0].message, /ghost, \/\^phantom\/, spirit/);
  assert.equal(warnings[0].severity, 'warning');
  assert.equal(graph.cycle, undefined);
});

test('catastrophic patterns are refused and match nothing', () => {
  assert.ok(unsafePatternReason('(a+)+b'));
  assert.ok(unsafePatternReason('(.*)*'));
  assert.ok(unsafePatternReason('((ab)*c)+'));
  assert.ok(unsafePatternReason('(a)\\1'));
  assert.equal(unsafePatternReason('^(primary-)?controller$'), undefined);
  assert.equal(unsafePatternReason('.*'), undefined);
  const graph = buildDeploymentGraph({ tasks: [task('evil', { roles: ['/(a+)+$/'] })], nodes: [{ id: 'n', roles: ['a'.repeat(40) + '!'] }] });
  assert.deepEqual(tasksOn(graph, 'n'), []);
  assert.ok(graph.findings.some((f) => f.code === 'graph/unsafe-pattern'));
});

test('strategies pace nodes: one_by_one chains them; parallel amount k lets k run at once', () => {
  const oneByOne = buildDeploymentGraph({ tasks: [task('t', { roles: '*', timeout: 10, strategy: { type: 'one_by_one' } })], nodes: nodes({ n: 4 }) });
  assert.equal(oneByOne.makespan, 40);
  assert.deepEqual(depsOf(oneByOne, 'n-3', 't'), ['n-2:t']);
  const two = buildDeploymentGraph({ tasks: [task('t', { roles: '*', timeout: 10, strategy: { type: 'parallel', amount: 2 } })], nodes: nodes({ n: 5 }) });
  assert.equal(two.makespan, 30);
  const free = buildDeploymentGraph({ tasks: [task('t', { roles: '*', timeout: 10, strategy: { type: 'parallel' } })], nodes: nodes({ n: 5 }) });
  assert.equal(free.makespan, 10);
  // A group's strategy paces each of its members across the group's nodes.
  const grouped = buildDeploymentGraph({
    tasks: [task('controller', { type: 'group', roles: ['controller'], tasks: ['x'], strategy: { type: 'one_by_one' } }), task('x', { timeout: 5 }), task('y', { groups: ['controller'], requires: ['x'], timeout: 5 })],
    nodes: nodes({ controller: 3 }),
  });
  assert.deepEqual(tasksOn(grouped, 'controller-2'), ['x', 'y']);
  assert.deepEqual(depsOf(grouped, 'controller-2', 'x'), ['controller-1:x']);
  assert.deepEqual(depsOf(grouped, 'controller-2', 'y'), ['controller-1:y', 'controller-2:x']);
  assert.equal(grouped.makespan, 20);
});

test('a node runs one task at a time; the critical path explains the makespan', () => {
  const graph = buildDeploymentGraph({
    tasks: [task('a', { roles: '*', timeout: 10 }), task('b', { roles: '*', timeout: 20 }), task('c', { roles: ['db'], timeout: 5, crossDepends: [{ name: 'b', role: ['web'] }] })],
    nodes: [{ id: 'web-1', roles: ['web'] }, { id: 'db-1', roles: ['db'] }],
  });
  assert.equal(graph.makespan, 35);
  const path = graph.criticalPath.map((p) => `${p.node}:${p.task}`);
  assert.equal(path[path.length - 1], 'db-1:c');
  assert.ok(path.includes('web-1:b'));
});

test('conditions plug in through the evaluator; false keeps the task as skipped with its edges', () => {
  const calls: string[] = [];
  const graph = buildDeploymentGraph({
    tasks: [task('a', { roles: '*', timeout: 10, condition: 'settings:x == true' }), task('b', { roles: '*', timeout: 10, requires: ['a'], condition: { yaql_exp: '$.uid' } })],
    nodes: nodes({ n: 3 }),
    conditions: {
      perNode: (c) => typeof c === 'object',
      evaluate: (c, t, scope) => {
        calls.push(`${t.id}@${scope.node?.id ?? 'cluster'}`);
        return { value: t.id === 'a' ? false : scope.node?.id !== 'n-2' };
      },
    },
  });
  assert.deepEqual(calls, ['a@cluster', 'b@n-1', 'b@n-2', 'b@n-3']);
  assert.equal(graph.counts.skipped, 4);
  assert.deepEqual(depsOf(graph, 'n-1', 'b'), ['n-1:a']);
  assert.equal(graph.makespan, 10);
  const literal = buildDeploymentGraph({ tasks: [task('off', { roles: '*', condition: false })], nodes: nodes({ n: 1 }) });
  assert.equal(literal.counts.skipped, 1);
});

test('bad nodes are findings: reserved, duplicate and missing ids', () => {
  const graph = buildDeploymentGraph({ tasks: [], nodes: [{ id: 'master', roles: [] }, { id: 'a', roles: [] }, { id: 'a', roles: [] }, { id: '', roles: [] }] as NodeInput[] });
  assert.deepEqual(graph.findings.map((f) => f.code).sort(), ['graph/duplicate-node', 'graph/invalid-node', 'graph/reserved-node-id']);
  assert.equal(graph.counts.nodes, 1);
});

test('legacy hooks run in their stage, one after another by their /N order', () => {
  const graph = buildDeploymentGraph({
    tasks: [
      task('post_deployment_start', { type: 'stage' }),
      task('post_deployment_end', { type: 'stage', requires: ['post_deployment_start'] }),
      task('late', { type: 'shell', roles: '*', version: '1.0.0', stage: { name: 'post_deployment', order: 200 } }),
      task('early', { type: 'shell', roles: ['compute'], version: '1.0.0', stage: { name: 'post_deployment', order: -5 } }),
    ],
    nodes: nodes({ compute: 2, controller: 1 }),
  });
  assert.deepEqual(depsOf(graph, 'controller-1', 'late'), ['compute-1:early', 'compute-2:early', 'sync:post_deployment_start']);
  assert.deepEqual(depsOf(graph, 'sync', 'post_deployment_end'), ['compute-1:early', 'compute-1:late', 'compute-2:early', 'compute-2:late', 'controller-1:late', 'sync:post_deployment_start']);
});

/** Random graphs: tasks with random roles and dependencies among lower-numbered tasks (so acyclic). */
const randomGraph = fc.record({
  taskCount: fc.integer({ min: 1, max: 25 }),
  nodeRoles: fc.array(fc.subarray(['a', 'b', 'c'], { minLength: 1 }), { minLength: 1, maxLength: 12 }),
  seed: fc.array(fc.nat(1000), { minLength: 100, maxLength: 100 }),
});

function makeTasks({ taskCount, seed }: { taskCount: number; seed: number[] }): Task[] {
  const roles = ['a', 'b', 'c'];
  const out: Task[] = [];
  for (let i = 0; i < taskCount; i++) {
    const r = (k: number) => seed[(i * 7 + k) % seed.length];
    const t = task(`t${i}`, { roles: [roles[r(0) % 3]], timeout: 1 + (r(1) % 50) });
    if (i > 0) {
      t.requires.push(`t${r(2) % i}`);
      if (r(3) % 2) t.crossDepends.push({ name: `t${r(4) % i}`, role: [roles[r(5) % 3]], policy: r(6) % 3 ? 'all' : 'any' });
      if (r(7) % 3 === 0) t.strategy = { type: r(8) % 2 ? 'one_by_one' : 'parallel', amount: 1 + (r(9) % 3) };
    }
    if (i + 1 < taskCount && r(10) % 4 === 0) t.crossDependedBy.push({ name: `t${i + 1 + (r(11) % (taskCount - i - 1))}` });
    out.push(t);
  }
  return out;
}

test('property: every dependency edge respects the order and the schedule', () => {
  fc.assert(
    fc.property(randomGraph, (spec) => {
      const graph = buildDeploymentGraph({ tasks: makeTasks(spec), nodes: spec.nodeRoles.map((roles, i) => ({ id: `n${i}`, roles })) });
      assert.equal(graph.cycle, undefined);
      const position = new Int32Array(graph.vertexCount);
      graph.order!.forEach((v, i) => (position[v] = i));
      for (let e = 0; e < graph.edgeFrom.length; e++) {
        const a = graph.edgeFrom[e];
        const b = graph.edgeTo[e];
        assert.ok(position[a] < position[b], 'edge goes forward in the order');
        assert.ok(graph.finish![a] <= graph.start![b] + 1e-9, 'a successor starts after its predecessor finishes');
      }
      // No node runs two tasks at once.
      const byNode = new Map<string, Array<[number, number]>>();
      for (let v = 0; v < graph.barrierBase; v++) {
        if (!isTaskVertex(graph, v) || graph.finish![v] === graph.start![v]) continue;
        const node = describeVertex(graph, v).node;
        (byNode.get(node) ?? byNode.set(node, []).get(node)!).push([graph.start![v], graph.finish![v]]);
      }
      for (const spans of byNode.values()) {
        spans.sort((x, y) => x[0] - y[0]);
        for (let i = 1; i < spans.length; i++) assert.ok(spans[i][0] >= spans[i - 1][1] - 1e-9);
      }
    }),
    { seed: 4242, numRuns: 150 },
  );
});

test('property: expansion is deterministic', () => {
  fc.assert(
    fc.property(randomGraph, (spec) => {
      const input = () => ({ tasks: makeTasks(spec), nodes: spec.nodeRoles.map((roles, i) => ({ id: `n${i}`, roles })) });
      const a = buildDeploymentGraph(input());
      const b = buildDeploymentGraph(input());
      assert.deepEqual([...a.edgeFrom], [...b.edgeFrom]);
      assert.deepEqual([...a.edgeTo], [...b.edgeTo]);
      assert.deepEqual([...a.order!], [...b.order!]);
      assert.deepEqual(a.criticalPath, b.criticalPath);
      assert.equal(a.makespan, b.makespan);
    }),
    { seed: 4243, numRuns: 60 },
  );
});

test('a primary node is in both its role and primary-<role>, unless the task source names primary-<role> itself', () => {
  const roles = { controller: { has_primary: true, tags: ['controller', 'database'] }, compute: {} };
  const tagsMetadata = { controller: { has_primary: true }, database: { has_primary: true } };
  const hearth = { source: 'hearth' };
  const graph = buildDeploymentGraph({
    tasks: [
      // A release that names only `controller` (and the `database` tag) reaches the primary too.
      task('api', { roles: ['controller'], origin: hearth }),
      task('db', { tags: ['database'], origin: hearth }),
      task('agent', { roles: ['compute'], crossDepends: [{ name: 'api', role: ['controller'] }], origin: hearth }),
      // A Fuel-style source names primary-keystone; its plain `keystone`-like names keep meaning "the others".
      task('primary-only', { roles: ['primary-controller'], origin: { source: 'fuel' } }),
      task('others-only', { roles: ['controller'], origin: { source: 'fuel' } }),
    ],
    nodes: nodes({ controller: 2, compute: 1 }),
    roles,
    tagsMetadata,
  });
  assert.deepEqual(graph.nodes.find((n) => n.id === 'controller-1')!.labels, ['primary-controller', 'primary-database']);
  assert.deepEqual(tasksOn(graph, 'controller-1'), ['api', 'db', 'primary-only']);
  assert.deepEqual(tasksOn(graph, 'controller-2'), ['api', 'db', 'others-only']);
  // The cross-dependency on `controller` waits for the primary's api as well.
  assert.deepEqual(depsOf(graph, 'compute-1', 'agent'), ['controller-1:api', 'controller-2:api']);
});

test('one task id from two plugins: each node runs the definition its roles reach; both on one node is an error', () => {
  const roles = { pa: {}, pb: {}, controller: {} };
  const defs = [
    task('shared', { roles: ['pa'], parameters: { cmd: 'a' }, origin: { source: 'pa' } }),
    task('shared', { roles: ['pb'], parameters: { cmd: 'b' }, origin: { source: 'pb' } }),
    task('after', { roles: ['pa', 'pb'], requires: ['shared'], origin: { source: 'pa' } }),
  ];
  const apart = buildDeploymentGraph({ tasks: defs, nodes: [{ id: 'n1', roles: ['pa'] }, { id: 'n2', roles: ['pb'] }, { id: 'n3', roles: ['controller'] }], roles });
  const slot = (graph: DeploymentGraph, node: string) => graph.classes[graph.nodes.find((n) => n.id === node)!.classIndex].slots.find((s) => s.id === 'shared');
  assert.equal(slot(apart, 'n1')?.task.parameters?.cmd, 'a');
  assert.equal(slot(apart, 'n2')?.task.parameters?.cmd, 'b');
  assert.equal(slot(apart, 'n3'), undefined);
  assert.deepEqual(depsOf(apart, 'n2', 'after'), ['n2:shared']);
  assert.deepEqual(apart.findings.filter((f) => f.severity !== 'info'), []);

  const together = buildDeploymentGraph({ tasks: defs, nodes: [{ id: 'n1', roles: ['pa', 'pb'] }], roles });
  const conflict = together.findings.find((f) => f.code === 'task/conflict-on-node');
  assert.equal(conflict?.severity, 'error');
  assert.match(conflict!.message, /node 'n1' would run two definitions of task 'shared': from pa and pb/);

  // Two plugins that both switch a task off agree: no error on a node of both.
  const skips = buildDeploymentGraph({ tasks: [task('x', { type: 'skipped', roles: '*', origin: { source: 'pa' } }), task('x', { type: 'skipped', roles: ['pb'], origin: { source: 'pb' } })], nodes: [{ id: 'n1', roles: ['pb'] }], roles });
  assert.deepEqual(skips.findings.filter((f) => f.severity === 'error'), []);
  // The same source twice is still a duplicate: the later definition wins, with a warning.
  const twice = buildDeploymentGraph({ tasks: [task('y', { roles: ['pa'] }), task('y', { roles: ['pb'] })], nodes: [{ id: 'n1', roles: ['pa'] }], roles });
  assert.deepEqual(twice.findings.map((f) => f.code), ['graph/duplicate-task']);
  assert.deepEqual(tasksOn(twice, 'n1'), []);
});

test('nodes that run none of their role’s tasks are reported, per role and primary position', () => {
  const roles = { controller: { has_primary: true }, compute: {}, spare: {} };
  const graph = buildDeploymentGraph({
    tasks: [task('all', { roles: '*', origin: { source: 'r' } }), task('p', { roles: ['primary-controller'], origin: { source: 'r' } }), task('c', { roles: ['controller'], origin: { source: 'r' } }), task('nova', { roles: ['compute'], origin: { source: 'r' } })],
    nodes: [{ id: 'n1', roles: ['controller', 'spare'] }, { id: 'n2', roles: ['controller'] }, { id: 'n3', roles: ['compute'] }],
    roles,
    checkRoleTasks: true,
  });
  assert.deepEqual(graph.findings.map((f) => `${f.code} ${f.message}`), ["graph/role-without-tasks role 'spare': node n1 runs none of the role's tasks, only tasks for every node"]);
  const primaryOnly = buildDeploymentGraph({ tasks: [task('p', { roles: ['primary-controller'], origin: { source: 'r' } })], nodes: nodes({ controller: 2 }), roles, checkRoleTasks: true });
  assert.deepEqual(primaryOnly.findings.map((f) => f.message), ["role 'controller': node controller-2 runs none of the role's tasks, only tasks for every node"]);
});

test('each plugin’s definition of a shared id paces only its own nodes', () => {
  const roles = { pa: {}, pb: {} };
  const graph = buildDeploymentGraph({
    tasks: [task('shared', { roles: ['pa'], strategy: { type: 'one_by_one' }, origin: { source: 'pa' } }), task('shared', { roles: ['pb'], parameters: { cmd: 'b' }, origin: { source: 'pb' } })],
    nodes: [{ id: 'a1', roles: ['pa'] }, { id: 'b1', roles: ['pb'] }, { id: 'a2', roles: ['pa'] }, { id: 'b2', roles: ['pb'] }],
    roles,
  });
  assert.deepEqual(depsOf(graph, 'a2', 'shared'), ['a1:shared']);
  assert.deepEqual(depsOf(graph, 'b1', 'shared'), []);
  assert.deepEqual(depsOf(graph, 'b2', 'shared'), []);
});
