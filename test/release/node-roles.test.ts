/**
 * What each node runs, through the real CLI on real folders: Hearth's bundled release with its
 * primary roles, one task id defined by two plugins for their own roles, and the release plugin
 * skeleton used as a release. Then the checks that keep a release from leaving a role's nodes idle.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validatePlugin } from '../../src/package/validate/index.js';
import { tempDir } from '../package/support.js';

const work = tempDir();
after(() => work.remove());
const bundled = fileURLToPath(new URL('../../release', import.meta.url));
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const hearth = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), main, ...args], { cwd: work.path, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

interface NodeView {
  id: string;
  roles: string[];
  labels: string[];
  tasks: Array<{ id: string; source: string; type: string }>;
}
interface GraphView {
  nodes: NodeView[];
  summary: { findings: Array<{ code: string; severity: string; message: string }> };
}

function graph(...args: string[]): { status: number | null; graph: GraphView } {
  const r = hearth('graph', ...args, '--format', 'json');
  assert.ok(r.stdout, r.stderr);
  return { status: r.status, graph: JSON.parse(r.stdout) as GraphView };
}
const ids = (node: NodeView | undefined) => (node?.tasks ?? []).map((t) => t.id);
const node = (g: GraphView, id: string) => g.nodes.find((n) => n.id === id);

test('bundled release: the primary controller runs every controller task; primary database and messaging nodes run theirs', () => {
  const { status, graph: g } = graph('--release', bundled, '--nodes', 'controller:3,compute:2,database:1,messaging:1');
  assert.equal(status, 0);
  assert.deepEqual(node(g, 'node-1')!.labels, ['primary-controller', 'primary-keystone', 'primary-neutron']);
  assert.deepEqual(ids(node(g, 'node-1')).sort(), ids(node(g, 'node-2')).sort());
  assert.ok(ids(node(g, 'node-1')).length > 50);
  assert.ok(ids(node(g, 'node-6')).includes('database'));
  assert.ok(ids(node(g, 'node-7')).includes('rabbitmq'));
  assert.deepEqual(g.summary.findings.filter((f) => f.code === 'graph/role-without-tasks'), []);
  // One controller alone is the primary, and still runs the controller tasks.
  const one = graph('--release', bundled, '--nodes', 'controller:1,database:1,messaging:1,compute:1').graph;
  for (const task of ['keystone', 'openstack-controller', 'openstack-haproxy', 'cluster']) assert.ok(ids(node(one, 'node-1')).includes(task), task);
});

/** `hearth plugin create <name>`, plus tasks of its own role: `shared-task` and an override of the release's `hosts`. */
function pluginWithSharedTasks(name: string): string {
  assert.equal(hearth('plugin', 'create', name).status, 0);
  const role = `${name}_role`;
  appendFileSync(
    join(work.path, name, 'deployment_tasks.yaml'),
    ['shared-task', 'hosts'].map((id) => `- id: ${id}\n  type: shell\n  version: 2.0.0\n  roles: [${role}]\n  requires: [deploy_start]\n  required_for: [deploy_end]\n  parameters:\n    cmd: echo ${name}\n    timeout: 60\n`).join(''),
  );
  return name;
}

test('one task id from two plugins: each node runs the definition of the plugin whose role it holds; both on one node is an error', () => {
  const pa = pluginWithSharedTasks('pa');
  const pb = pluginWithSharedTasks('pb');
  const { status, graph: g } = graph('--release', bundled, '--plugin', pa, '--plugin', pb, '--nodes', 'pa_role:1,pb_role:1,controller:1,database+messaging:1');
  assert.equal(status, 0, JSON.stringify(g.summary.findings.filter((f) => f.severity === 'error')));
  for (const [id, plugin] of [['node-1', 'pa'], ['node-2', 'pb']]) {
    const tasks = node(g, id)!.tasks;
    assert.equal(tasks.find((t) => t.id === 'shared-task')?.source, plugin, `${id}: ${ids(node(g, id)).join(', ')}`);
    assert.equal(tasks.find((t) => t.id === 'hosts')?.source, plugin);
  }
  // Both plugins replaced the release's hosts task, for their own roles only.
  assert.ok(!ids(node(g, 'node-3')).includes('hosts'));

  const together = graph('--release', bundled, '--plugin', pa, '--plugin', pb, '--nodes', 'pa_role+pb_role:1,controller:1');
  assert.equal(together.status, 1);
  const conflicts = together.graph.summary.findings.filter((f) => f.code === 'task/conflict-on-node').map((f) => f.message).sort();
  assert.deepEqual(conflicts, ["node 'node-1' would run two definitions of task 'hosts': from pa and pb", "node 'node-1' would run two definitions of task 'shared-task': from pa and pb"]);

  const shown = hearth('release', 'show', '--release', bundled, '--plugin', pa, '--plugin', pb);
  assert.equal(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, /default\/shared-task {2}pa on pa_role; pb on pb_role/);
  assert.match(shown.stdout, /default\/hosts {2}pa on pa_role; pb on pb_role/);
  const json = JSON.parse(hearth('release', 'show', '--release', bundled, '--plugin', pa, '--plugin', pb, '--json').stdout);
  assert.deepEqual(json.shared_tasks.map((s: { id: string }) => s.id).sort(), ['hosts', 'shared-task']);
});

test('the release plugin skeleton works as a release: default graph, a settings section, its controller task on a lone controller', () => {
  assert.equal(hearth('plugin', 'create', 'skel', '--release-plugin').status, 0);
  const dir = join(work.path, 'skel');
  const validated = validatePlugin(dir);
  assert.deepEqual(validated.findings.filter((f) => f.severity !== 'info').map((f) => `${f.code}: ${f.message}`), []);
  const shown = hearth('release', 'show', '--release', dir);
  assert.equal(shown.status, 0, shown.stderr);
  assert.match(shown.stdout, /Settings sections: common/);
  assert.match(shown.stdout, /\n {2}default {16}5 tasks/);
  const { status, graph: g } = graph('--release', dir, '--nodes', 'controller:1,compute:1');
  assert.equal(status, 0);
  assert.deepEqual(ids(node(g, 'node-1')), ['controller-services', 'controller-nodes', 'diagnostics']);
  assert.deepEqual(ids(node(g, 'node-2')), ['compute-controllers', 'compute-services', 'diagnostics']);
  assert.deepEqual(g.summary.findings.filter((f) => f.severity !== 'info'), []);
});

/** A minimal release plugin folder whose default graph and settings file are given. */
function releasePlugin(name: string, deployment: string, options: { attributes?: string; graphType?: string } = {}): string {
  const dir = join(work.path, name);
  mkdirSync(join(dir, 'r', 'scripts'), { recursive: true });
  mkdirSync(join(dir, 'r', 'repo'), { recursive: true });
  writeFileSync(
    join(dir, 'metadata.yaml'),
    `name: ${name}\ntitle: ${name}\nversion: '1.0.0'\ndescription: test release\nlicenses: ['Apache-2.0']\nauthors: ['tests']\nhomepage: 'https://example.org'\ngroups: []\npackage_version: '5.0.0'\nreleases:\n  - release_name: ${name}\n    description: test\n    operating_system: ubuntu\n    version: newton-10.0\n    is_release: true\n    roles_path: r/roles.yaml\n    attributes_path: r/attributes.yaml\n    deployment_scripts_path: r/scripts/\n    repository_path: r/repo\n    graphs:\n      - type: ${options.graphType ?? 'default'}\n        tasks_path: r/deployment.yaml\n`,
  );
  writeFileSync(join(dir, 'environment_config.yaml'), 'attributes: {}\n');
  writeFileSync(join(dir, 'deployment_tasks.yaml'), '[]\n');
  writeFileSync(join(dir, 'r', 'roles.yaml'), 'controller:\n  name: Controller\n  description: control plane\n  has_primary: true\n  conflicts: [compute]\ncompute:\n  name: Compute\n  description: VMs\n  conflicts: [controller]\nspare:\n  name: Spare\n  description: nothing\n');
  writeFileSync(join(dir, 'r', 'attributes.yaml'), options.attributes ?? 'editable:\n  common:\n    metadata: {label: Common}\n    debug: {value: false, label: Debug, type: checkbox}\n');
  writeFileSync(join(dir, 'r', 'deployment.yaml'), deployment);
  return dir;
}

const shell = (id: string, roles: string) => `- id: ${id}\n  type: shell\n  version: 2.0.0\n  roles: ${roles}\n  parameters: {cmd: 'true', timeout: 60}\n`;

test('validator: a release whose tasks reach no node of a role, or only some of its nodes, is caught with file:line:col and a hint', () => {
  // Fuel's style without its other half: only primary-controller is named, so the other controllers run nothing.
  const dir = releasePlugin('gaps', shell('everywhere', "'*'") + shell('once', '[primary-controller]') + shell('vms', '[compute]'));
  const found = validatePlugin(dir).findings.filter((f) => f.code === 'release/role-without-tasks');
  assert.deepEqual(
    found.map((f) => `${f.file}:${f.line}:${f.column} ${f.message}`),
    [
      "r/roles.yaml:1:1 role 'controller': no task of the default graph runs on its nodes after the first (only on primary-controller), so those would deploy nothing of the role",
      "r/roles.yaml:10:1 role 'spare': no task of the default graph runs on its nodes (only tasks for every node), so they would deploy nothing of the role",
    ],
  );
  assert.match(found[0].hint ?? '', /roles: \[primary-controller, controller\]/);
  assert.ok(found.every((f) => f.severity === 'warning'));
  // Naming only `controller` is enough: it reaches the first controller too.
  const fine = releasePlugin('fine', shell('api', '[controller]') + shell('vms', '[compute]') + shell('idle', '[spare]'));
  assert.deepEqual(validatePlugin(fine).findings.filter((f) => f.severity !== 'info'), []);
});

test('validator: a release without a default graph, and a release settings file with an attributes: root', () => {
  const dir = releasePlugin('shapes', shell('api', '[controller]') + shell('vms', '[compute]') + shell('idle', '[spare]'), {
    graphType: 'deployment',
    attributes: 'attributes:\n  metadata: {group: general}\n  debug: {value: false, label: Debug, type: checkbox}\n',
  });
  const found = validatePlugin(dir).findings.filter((f) => f.severity !== 'info').map((f) => `${f.file}:${f.line}:${f.column} ${f.code}`);
  assert.deepEqual(found, ['metadata.yaml:21:9 release/no-default-graph', 'r/attributes.yaml:1:1 release/settings-under-attributes']);
  const shown = hearth('release', 'show', '--release', dir);
  assert.match(shown.stdout, /warning release\/settings-under-attributes/);
  assert.match(shown.stdout, /Settings sections: none/);
});
