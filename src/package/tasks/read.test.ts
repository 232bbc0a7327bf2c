import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusPath, needsCorpus } from '../../../test/support/corpus.js';
import { buildDeploymentGraph, type NodeInput } from '../../core/graph/index.js';
import { normalizeTasks, unwrapRoleTasks, type Task } from '../../core/tasks/index.js';
import { readYamlFile } from '../yaml/index.js';
import { readTasksFolder } from './index.js';

test('a tasks folder: deployment → default, graphs/<folder> → mapped types with metadata; bad files are findings', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-tasks-'));
  t.after(() => rmSync(dir, { recursive: true, force: true })); // also when an assertion fails first (issue 31)
  mkdirSync(join(dir, 'deployment/a/b'), { recursive: true });
  mkdirSync(join(dir, 'graphs/provision'), { recursive: true });
  mkdirSync(join(dir, 'graphs/my-custom'), { recursive: true });
  mkdirSync(join(dir, 'graphs/net-verification/x'), { recursive: true });
  writeFileSync(join(dir, 'graphs/net-verification/x/tasks.yaml'), '- id: check\n  type: shell\n  role: [\'/.*/\']\n');
  writeFileSync(join(dir, 'deployment/a/b/tasks.yaml'), '- id: x\n  type: puppet\n  role: [compute]\n');
  writeFileSync(join(dir, 'deployment/a/tasks.yaml'), '- id: x\n  type: shell\n- id: y\n  type: bogus\n');
  writeFileSync(join(dir, 'graphs/provision/tasks.yaml'), '- id: provision_start\n  type: stage\n');
  writeFileSync(join(dir, 'graphs/provision/metadata.yaml'), 'node_filter: $.pending_addition\n');
  writeFileSync(join(dir, 'graphs/my-custom/tasks.yaml'), '- id: [broken\n');
  writeFileSync(join(dir, 'graphs/my-custom/metadata.yaml'), '- a list\n');
  const { graphs, findings } = readTasksFolder(dir);
  assert.deepEqual(Object.keys(graphs).sort(), ['default', 'network_verification', 'provisioning']);
  assert.deepEqual(graphs.network_verification.tasks[0].origin.file, 'graphs/net-verification/x/tasks.yaml');
  assert.deepEqual(graphs.default.tasks.map((t) => `${t.id}:${t.type}`), ['x:shell', 'y:bogus'], 'the later file (in path order) wins');
  assert.deepEqual(graphs.provisioning.metadata, { node_filter: '$.pending_addition' });
  const codes = findings.map((f) => f.code).sort();
  assert.ok(codes.includes('task/duplicate-id'));
  assert.ok(codes.includes('task/unknown-type'));
  assert.ok(codes.includes('graph/invalid-metadata'));
  assert.ok(codes.some((c) => c.startsWith('yaml/')), codes.join());
  assert.equal(readTasksFolder(join(dir, 'nope')).findings[0].code, 'tasks/no-folder');
});

const cluster = (spec: Array<[string, number]>): NodeInput[] => {
  const out: NodeInput[] = [];
  for (const [role, count] of spec) for (let i = 0; i < count; i++) out.push({ id: `node-${out.length + 1}`, roles: [role] });
  return out;
};

test('the Fuel library (master): 233 tasks; acyclic graphs for 1 node, 3+2 nodes and 1,000 nodes', needsCorpus, () => {
  const { graphs, findings } = readTasksFolder(corpusPath('release/fuel-library'));
  const total = Object.values(graphs).reduce((n, g) => n + g.tasks.length, 0);
  assert.equal(total, 233);
  assert.deepEqual(Object.fromEntries(Object.entries(graphs).map(([k, g]) => [k, g.tasks.length])), { default: 204, deletion: 5, network_verification: 14, provisioning: 10 });
  assert.ok(!findings.some((f) => f.severity === 'error'), findings.filter((f) => f.severity === 'error').map((f) => f.message).join('\n'));
  const one = buildDeploymentGraph({ tasks: graphs.default.tasks, nodes: cluster([['controller', 1]]) });
  const five = buildDeploymentGraph({ tasks: graphs.default.tasks, nodes: cluster([['controller', 3], ['compute', 2]]) });
  const many = buildDeploymentGraph({ tasks: graphs.default.tasks, nodes: cluster([['controller', 3], ['ceph-osd', 97], ['compute', 900]]) });
  for (const g of [one, five, many]) {
    assert.equal(g.cycle, undefined);
    assert.equal(g.order?.length, g.vertexCount);
    assert.equal(g.makespan > 0, true);
    assert.notEqual(g.criticalPath.length, 0);
  }
  // The first controller is the primary one and runs the primary-only tasks; the others do not.
  const taskIds = (g: typeof five, node: string) => g.classes[g.nodes.find((n) => n.id === node)!.classIndex].slots.map((s) => s.id);
  const primary = taskIds(five, 'node-1');
  const second = taskIds(five, 'node-2');
  assert.equal(primary.includes('primary-cluster'), true);
  assert.equal(primary.includes('cluster'), false);
  assert.equal(second.includes('primary-cluster'), false);
  assert.equal(second.includes('cluster'), true);
  assert.equal(taskIds(five, 'node-4').includes('top-role-compute'), true);
  assert.notEqual(taskIds(five, 'master').length, 0, 'the master runs tasks too');
  // 1,000 nodes: three node classes beyond sync, master and the primary controller.
  assert.equal(many.classes.length, 6);
  for (const type of ['provisioning', 'deletion', 'network_verification']) {
    const g = buildDeploymentGraph({ tasks: graphs[type].tasks, nodes: cluster([['controller', 3], ['compute', 2]]) });
    assert.equal(g.cycle, undefined, type);
  }
});

function pluginTasks(dir: string, name: string): { tasks: Task[]; roles: string[] } {
  const tasks: Task[] = [];
  for (const [file, format] of [['deployment_tasks.yaml', 'deployment'], ['tasks.yaml', 'legacy']] as const) {
    if (!existsSync(join(dir, file))) continue;
    const parsed = readYamlFile(join(dir, file), file);
    tasks.push(...normalizeTasks(parsed.value, { source: name, file }, format).tasks);
  }
  let roles: string[] = [];
  if (existsSync(join(dir, 'node_roles.yaml'))) {
    const parsed = readYamlFile(join(dir, 'node_roles.yaml'), 'node_roles.yaml');
    tasks.push(...unwrapRoleTasks(parsed.value, { source: name, file: 'node_roles.yaml' }).tasks);
    if (parsed.value && typeof parsed.value === 'object') roles = Object.keys(parsed.value);
  }
  return { tasks, roles };
}

test('each corpus plugin\'s tasks merge into the library graph (master and mitaka) without cycles', needsCorpus, () => {
  const libraries = { master: readTasksFolder(corpusPath('release/fuel-library')), mitaka: readTasksFolder(corpusPath('release/mitaka-eol/fuel-library')) };
  const root = corpusPath('plugins');
  let merged = 0;
  for (const name of readdirSync(root).sort()) {
    if (!existsSync(join(root, name, 'metadata.yaml'))) continue;
    const { tasks, roles } = pluginTasks(join(root, name), name);
    if (tasks.length === 0) continue;
    for (const library of Object.values(libraries)) {
      const ids = new Set(tasks.map((t) => t.id));
      // A plugin task with a release task's id overrides it.
      const all = [...library.graphs.default.tasks.filter((t) => !ids.has(t.id)), ...tasks];
      const nodes = cluster([['controller', 3], ['compute', 2], ...roles.map((r) => [r, 2] as [string, number])]);
      const graph = buildDeploymentGraph({ tasks: all, nodes });
      assert.equal(graph.cycle, undefined, `${name}: ${graph.findings.find((f) => f.code === 'graph/cycle')?.message}`);
      const placed = new Set(graph.classes.flatMap((c) => (c.nodes.length ? c.slots.map((s) => s.task.origin.source) : [])));
      const runnable = tasks.some((t) => t.type !== 'group' && t.type !== 'stage');
      if (runnable) assert.ok(placed.has(name), `${name}: some plugin task runs on some node`);
      merged++;
    }
  }
  assert.ok(merged >= 50, `merged ${merged}`);
});
