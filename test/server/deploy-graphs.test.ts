/**
 * What the server's graphs and (simulated) deployments run, node by node: one task id defined by
 * two plugins for their own roles, primary roles, the release skeleton as a release, and graph
 * types other than `default`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlugin } from '../../src/package/create/index.js';
import { engines } from './support/engines.js';
import { testApp, waitForDeployment, type TestApp } from './support/app.js';
import { writePlugin } from './support/plugins.js';
import { buildDeployableGraph, checkDeployable, type BuiltGraph } from '../../src/server/domain/runs/deploy.js';

const LVM = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm'];

interface GraphNodeView {
  id: string;
  tasks: Array<{ id: string; source: string }>;
}

for (const engine of engines()) {
  describe(`deployment graphs on ${engine.name}`, () => {
    let t: TestApp;
    let release: string;
    const work = mkdtempSync(join(tmpdir(), 'hearth-deploy-graphs-'));
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);
    const tasksOf = (graph: { nodes: GraphNodeView[] }, node: number) => graph.nodes.find((n) => n.id === String(node))!.tasks.map((x) => x.id);

    /** An environment with nodes assigned (pending roles), ready to deploy. */
    async function environment(name: string, releaseId: string, components: string[], roles: string[][]): Promise<{ id: number; nodes: number[] }> {
      const created = await api('POST', '/clusters', { name, release_id: releaseId, components });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.json().id;
      const nodes: number[] = (await api('POST', '/nodes', { simulate: { count: roles.length, prefix: name } })).json().ids;
      const assigned = await api('POST', `/clusters/${id}/nodes`, { assignments: roles.map((r, i) => ({ node_id: nodes[i], roles: r })) });
      assert.equal(assigned.statusCode, 200, assigned.body);
      return { id, nodes };
    }

    async function deploy(id: number, body?: unknown): Promise<Record<string, any>> {
      const started = await api('POST', `/clusters/${id}/deploy`, body);
      assert.equal(started.statusCode, 202, started.body);
      return waitForDeployment(t, id, started.json().id);
    }

    before(async () => {
      t = await testApp(engine);
      release = (await api('GET', '/releases')).json()[0].id;
    });
    after(async () => {
      await t.close();
      await engine.dispose();
      rmSync(work, { recursive: true, force: true });
    });

    test('one task id from two plugins for their own roles: each node runs its plugin’s definition, and the deployment runs both', async () => {
      for (const name of ['pa', 'pb']) {
        const res = await api('POST', '/plugins/folders', { path: writePlugin({ name, roleTasks: ['shared-task', 'hosts'] }, work) });
        assert.equal(res.statusCode, 201, res.body);
      }
      const { id, nodes } = await environment('shared', release, [...LVM, 'additional_service:pa', 'additional_service:pb'], [['controller'], ['database', 'messaging'], ['compute'], ['pa-node'], ['pb-node']]);
      const graph = (await api('GET', `/clusters/${id}/graphs/default`)).json();
      assert.deepEqual(graph.findings.filter((f: { severity: string }) => f.severity === 'error'), []);
      const sourceOf = (node: number, task: string) => graph.nodes.find((n: GraphNodeView) => n.id === String(node)).tasks.find((x: { id: string }) => x.id === task)?.source;
      for (const [node, plugin] of [[nodes[3], 'pa'], [nodes[4], 'pb']] as const) {
        assert.equal(sourceOf(node, 'shared-task'), plugin, `node ${node}: ${tasksOf(graph, node).join(', ')}`);
        assert.equal(sourceOf(node, 'hosts'), plugin);
      }
      // 'hosts' was a release task on every node; both plugins replaced it with their own, so the others run neither.
      assert.ok(!tasksOf(graph, nodes[0]).includes('hosts'));
      const done = await deploy(id);
      assert.equal(done.status, 'succeeded', JSON.stringify(done.message));
      const ran = (node: number) => done.tasks.filter((x: { node: string; taskId: string }) => x.node === String(node) && x.taskId === 'shared-task');
      assert.equal(ran(nodes[3]).length, 1);
      assert.equal(ran(nodes[4]).length, 1);
      // A node holding both roles would get two definitions: refused at assignment.
      const [extra] = (await api('POST', '/nodes', { simulate: { count: 1, prefix: 'both' } })).json().ids;
      const both = await api('POST', `/clusters/${id}/nodes`, { assignments: [{ node_id: extra, roles: ['pa-node', 'pb-node'] }] });
      assert.equal(both.statusCode, 400);
      assert.match(JSON.stringify(both.json().details.findings), /task\/conflict-on-node.*shared-task|shared-task.*task\/conflict-on-node/);
    });

    test('a single controller is the primary and runs the controller tasks; primary database and messaging nodes run theirs', async () => {
      const { id, nodes } = await environment('primary', release, LVM, [['controller'], ['database'], ['messaging'], ['compute']]);
      const graph = (await api('GET', `/clusters/${id}/graphs/default`)).json();
      assert.deepEqual(graph.findings.filter((f: { code: string }) => f.code === 'graph/role-without-tasks'), []);
      for (const task of ['keystone', 'openstack-controller', 'openstack-haproxy']) assert.ok(tasksOf(graph, nodes[0]).includes(task), task);
      assert.ok(tasksOf(graph, nodes[1]).includes('database'));
      assert.ok(tasksOf(graph, nodes[2]).includes('rabbitmq'));
    });

    test('a provisioning run leaves roles pending and the environment as it was; the default graph deploys them', async () => {
      const { id, nodes } = await environment('provision', release, LVM, [['controller'], ['database', 'messaging'], ['compute']]);
      const provisioned = await deploy(id, { graph_type: 'provisioning' });
      assert.equal(provisioned.status, 'succeeded');
      assert.equal(provisioned.graph_type, 'provisioning');
      const cluster = (await api('GET', `/clusters/${id}`)).json();
      assert.equal(cluster.status, 'new');
      assert.equal(cluster.deployed_at ?? null, null);
      const pending = (await api('GET', `/clusters/${id}/nodes`)).json();
      assert.deepEqual(pending.map((n: { roles: string[]; pending_roles: string[] }) => [n.roles, n.pending_roles]), [[[], ['controller']], [[], ['database', 'messaging']], [[], ['compute']]]);
      const runs = (await api('GET', `/clusters/${id}/deployments`)).json();
      assert.deepEqual(runs.map((d: { graph_type: string; status: string }) => [d.graph_type, d.status]), [['provisioning', 'succeeded']]);

      const deployed = await deploy(id);
      assert.equal(deployed.status, 'succeeded');
      assert.equal((await api('GET', `/clusters/${id}`)).json().status, 'operational');
      assert.deepEqual((await api('GET', `/clusters/${id}/nodes`)).json().map((n: { roles: string[] }) => n.roles), [['controller'], ['database', 'messaging'], ['compute']]);
      // Provisioning again later does not touch an operational environment either.
      const again = await deploy(id, { graph_type: 'provisioning' });
      assert.equal(again.status, 'succeeded');
      assert.equal((await api('GET', `/clusters/${id}`)).json().status, 'operational');
      assert.equal(nodes.length, 3);
    });

    test('the release plugin skeleton installs, composes, graphs and deploys with its controller task on the controller', async () => {
      const created = createPlugin('skeleton', { parentDir: work, releasePlugin: true });
      assert.ok(created.ok);
      const res = await api('POST', '/plugins/folders', { path: created.dir });
      assert.equal(res.statusCode, 201, res.body);
      const releases = (await api('GET', '/releases')).json().map((r: { id: string }) => r.id);
      const skeleton = releases.find((r: string) => r.startsWith('skeleton'));
      assert.ok(skeleton, releases.join(', '));
      const { id, nodes } = await environment('skel', skeleton, ['hypervisor:qemu', 'network:neutron:core:ml2', 'storage:block:lvm'], [['controller'], ['compute']]);
      // Its settings file has the release shape, so the section reaches the environment.
      assert.equal((await api('GET', `/clusters/${id}/attributes`)).json().editable.common.debug.value, false);
      const graph = (await api('GET', `/clusters/${id}/graphs/default`)).json();
      assert.deepEqual(graph.findings.filter((f: { severity: string }) => f.severity !== 'info'), []);
      assert.deepEqual(tasksOf(graph, nodes[0]), ['controller-services', 'controller-nodes', 'diagnostics']);
      assert.deepEqual(tasksOf(graph, nodes[1]), ['compute-controllers', 'compute-services', 'diagnostics']);
      const done = await deploy(id);
      assert.equal(done.status, 'succeeded', JSON.stringify(done.message));
      assert.ok(done.tasks.some((x: { node: string; taskId: string; status: string }) => x.node === String(nodes[0]) && x.taskId === 'controller-services' && x.status === 'ready'));
      assert.equal((await api('GET', `/clusters/${id}`)).json().status, 'operational');
    });

    test('a network moved to another interface while the graph was being built is caught: the run is refused as changed meanwhile', async () => {
      const { id, nodes } = await environment('rewired', release, LVM, [['controller'], ['database'], ['messaging'], ['compute']]);
      const presence = { id: 1, alive: async () => true };
      const check = (built: BuiltGraph) => t.db.transaction((tx) => checkDeployable(tx, presence, id, 'default', { built }));
      // Nothing changed: the graph built beforehand is used.
      const unchanged = await buildDeployableGraph(t.db, id, 'default');
      assert.ok(unchanged?.graph);
      assert.equal((await check(unchanged)).graph, unchanged.graph);

      const built = await buildDeployableGraph(t.db, id, 'default');
      const interfaces = (await api('GET', `/nodes/${nodes[0]}/interfaces`)).json() as Array<{ name: string; assigned_networks: Array<{ name: string }> }>;
      const moved = interfaces.map((i) => ({ ...i, assigned_networks: i.name === 'eth2' ? [...i.assigned_networks, { name: 'management' }] : i.assigned_networks.filter((n) => n.name !== 'management') }));
      const put = await api('PUT', `/nodes/${nodes[0]}/interfaces`, moved);
      assert.equal(put.statusCode, 200, put.body);
      // The graph built before holds the old network_scheme: it must not be deployed.
      await assert.rejects(check(built!), (err: { code?: string }) => err.code === 'deploy/changed-meanwhile');
    });
  });
}
