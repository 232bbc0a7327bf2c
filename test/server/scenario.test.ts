/**
 * The designs' scenario end to end through the HTTP API: plugins with components and roles,
 * an environment whose components enable them, nodes with plugin roles, the forbidden cases,
 * version switching, the graph, and a deployment.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, waitForDeployment, type TestApp } from './support/app.js';
import { writePlugin } from './support/plugins.js';
import * as store from '../../src/store/index.js';

const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

for (const engine of engines()) {
  describe(`scenario on ${engine.name}`, () => {
    let t: TestApp;
    let release: string;
    let env: number;
    let nodes: number[];
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);

    before(async () => {
      t = await testApp(engine);
    });
    after(async () => {
      await t.close();
      await engine.dispose();
    });

    test('the bundled release is there, with its components and roles', async () => {
      const releases = (await api('GET', '/releases')).json();
      assert.equal(releases.length, 1);
      release = releases[0].id;
      const roles = (await api('GET', `/releases/${release}/roles`)).json().map((r: { name: string }) => r.name);
      assert.ok(roles.includes('controller') && roles.includes('compute'));
    });

    test('plugins install from folders, several versions side by side', async () => {
      for (const spec of [
        { name: 'alpha', setting: { name: 'level', value: 'low' } },
        { name: 'beta', version: '1.0.0' },
        { name: 'beta', version: '2.0.0', tasks: ['beta-extra'] },
        { name: 'gamma', incompatible: ['additional_service:alpha'], roleConflicts: '*' as const, roleMax: 1 },
      ]) {
        const res = await api('POST', '/plugins/folders', { path: writePlugin(spec) });
        assert.equal(res.statusCode, 201, res.body);
      }
      const list = (await api('GET', '/plugins')).json().map((p: { id: string }) => p.id);
      assert.deepEqual(list.filter((id: string) => !id.startsWith('hearth')), ['alpha@1.0.0', 'beta@1.0.0', 'beta@2.0.0', 'gamma@1.0.0']);
      const again = await api('POST', '/plugins/folders', { path: writePlugin({ name: 'alpha' }) });
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'plugin/already-installed');
      const detail = (await api('GET', '/plugins/gamma@1.0.0')).json();
      assert.deepEqual(detail.roles.map((r: { name: string }) => r.name), ['gamma-node']);
      assert.deepEqual(detail.components.map((c: { name: string }) => c.name), ['additional_service:gamma']);
    });

    test('the release offers plugin components, and the wizard explains incompatibilities', async () => {
      const components = (await api('GET', `/releases/${release}/components`)).json();
      const alpha = components.find((c: { name: string }) => c.name === 'additional_service:alpha');
      assert.deepEqual(alpha.plugin, { name: 'alpha', version: '1.0.0' });
      // Only the newest beta is offered.
      assert.deepEqual(components.filter((c: { name: string }) => c.name === 'additional_service:beta').map((c: { plugin: { version: string } }) => c.plugin.version), ['2.0.0']);
      const state = (await api('GET', `/releases/${release}/components/state?select=${[...BASE, 'additional_service:alpha'].join(',')}`)).json();
      const gamma = state.components.find((c: { name: string }) => c.name === 'additional_service:gamma');
      assert.equal(gamma.enabled, false);
      assert.match(gamma.reasons.join(' '), /alpha/);
    });

    test('refused environments: incompatible components, unknown release, unknown component', async () => {
      const bad = await api('POST', '/clusters', { name: 'bad', release_id: release, components: [...BASE, 'additional_service:alpha', 'additional_service:gamma'] });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'cluster/invalid-components');
      assert.ok(bad.json().details.findings.some((f: { code: string; message: string }) => /alpha/.test(f.message)));
      const noRelease = await api('POST', '/clusters', { name: 'x', release_id: 'nope', components: BASE });
      assert.equal(noRelease.statusCode, 400);
      assert.equal(noRelease.json().code, 'cluster/unknown-release');
      const unknown = await api('POST', '/clusters', { name: 'x', release_id: release, components: [...BASE, 'additional_service:nothing'] });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().details.findings[0].code, 'component/unknown');
      assert.equal((await api('GET', '/clusters')).json().length, 0, 'nothing was stored');
    });

    test('an environment whose components enable plugins', async () => {
      const res = await api('POST', '/clusters', { name: 'env', release_id: release, components: [...BASE, 'additional_service:alpha'] });
      assert.equal(res.statusCode, 201, res.body);
      env = res.json().id;
      assert.deepEqual(res.json().plugins, { alpha: 'alpha@1.0.0' });
      const dup = await api('POST', '/clusters', { name: 'env', release_id: release, components: BASE });
      assert.equal(dup.statusCode, 409);
      const attrs = (await api('GET', `/clusters/${env}/attributes`)).json();
      assert.equal(attrs.editable.alpha.level.value, 'low');
      assert.deepEqual(attrs.plugins.map((p: { name: string; enabled: boolean }) => [p.name, p.enabled]), [['alpha', true], ['beta', false], ['gamma', false]]);
      assert.deepEqual((await api('PATCH', `/clusters/${env}`, { name: 'prod' })).json().name, 'prod');
    });

    test('settings: values change, unknown fields and wrong types are refused', async () => {
      const ok = await api('PUT', `/clusters/${env}/attributes`, { editable: { alpha: { level: { value: 'high' } } } });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json().changed, ['alpha.level']);
      const unknown = await api('PUT', `/clusters/${env}/attributes`, { editable: { alpha: { nope: { value: 1 } } } });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().details.findings[0].code, 'settings/unknown-field');
      const wrongType = await api('PUT', `/clusters/${env}/attributes`, { editable: { alpha: { level: { value: 5 } } } });
      assert.equal(wrongType.json().details.findings[0].code, 'settings/wrong-type');
      // Restrictions are evaluated on the settings as they would become.
      const both = await api('PUT', `/clusters/${env}/attributes`, { editable: { neutron_advanced_configuration: { neutron_l3_ha: true, neutron_dvr: true } } });
      assert.equal(both.statusCode, 400);
      assert.ok(both.json().details.findings.every((f: { code: string }) => f.code === 'settings/restricted'));
      assert.match(both.json().details.findings.map((f: { message: string }) => f.message).join(' '), /do not work together/);
      assert.equal((await api('PUT', `/clusters/${env}/attributes`, { editable: { neutron_advanced_configuration: { neutron_l3_ha: true } } })).statusCode, 200);
      const dvr = await api('PUT', `/clusters/${env}/attributes`, { editable: { neutron_advanced_configuration: { neutron_dvr: true } } });
      assert.equal(dvr.statusCode, 400);
      assert.match(dvr.json().details.findings[0].message, /DVR and L3 HA do not work together/);
      assert.equal((await api('PUT', `/clusters/${env}/attributes`, { editable: { neutron_advanced_configuration: { neutron_l3_ha: false } } })).statusCode, 200);
      const attrs = (await api('GET', `/clusters/${env}/attributes`)).json().editable;
      assert.equal(attrs.neutron_advanced_configuration.neutron_dvr.value, false, 'refused changes were not stored');
    });

    test('nodes: plugin roles only while enabled, conflicts refused', async () => {
      nodes = (await api('POST', '/nodes', { simulate: { count: 12 } })).json().ids;
      assert.equal(nodes.length, 12);
      const gammaRole = await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: nodes[0], roles: ['gamma-node'] }] });
      assert.equal(gammaRole.statusCode, 400);
      assert.equal(gammaRole.json().details.findings[0].code, 'role/unknown');
      const conflict = await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: nodes[0], roles: ['controller', 'compute'] }] });
      assert.equal(conflict.statusCode, 400);
      assert.equal(conflict.json().details.findings[0].code, 'role/conflict');
      const ok = await api('POST', `/clusters/${env}/nodes`, {
        assignments: [
          { node_id: nodes[0], roles: ['controller'] },
          { node_id: nodes[1], roles: ['compute'] },
          { node_id: nodes[2], roles: ['alpha-node'] },
          { node_id: nodes[3], roles: ['database', 'messaging'] },
          ...[5, 6, 7].map((i) => ({ node_id: nodes[i], roles: ['ceph-osd'] })),
        ],
      });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.deepEqual(ok.json().nodes.slice(0, 3).map((n: { pending_roles: string[] }) => n.pending_roles), [['controller'], ['compute'], ['alpha-node']]);
    });

    test('a plugin cannot be disabled while nodes hold its roles; versions switch with a preview', async () => {
      const disable = await api('PUT', `/clusters/${env}/attributes`, { plugins: { alpha: null } });
      assert.equal(disable.statusCode, 409);
      assert.equal(disable.json().code, 'plugin/roles-in-use');
      const enable = await api('PUT', `/clusters/${env}/attributes`, { plugins: { beta: '1.0.0' } });
      assert.equal(enable.statusCode, 200, enable.body);
      assert.deepEqual(enable.json().plugins.enable, ['beta@1.0.0']);
      const preview = await api('PUT', `/clusters/${env}/attributes`, { plugins: { beta: '2.0.0' }, dry_run: true });
      assert.equal(preview.statusCode, 200, preview.body);
      assert.deepEqual(preview.json().plugins.switch, [{ name: 'beta', from: 'beta@1.0.0', to: 'beta@2.0.0' }]);
      assert.ok(preview.json().plugins.tasks.added.includes('default:beta-extra'));
      assert.equal((await api('GET', `/clusters/${env}`)).json().plugins.beta, 'beta@1.0.0', 'a dry run changes nothing');
      const apply = await api('PUT', `/clusters/${env}/attributes`, { plugins: { beta: '2.0.0' } });
      assert.equal(apply.statusCode, 200);
      assert.equal((await api('GET', `/clusters/${env}`)).json().plugins.beta, 'beta@2.0.0');
      const uninstall = await api('DELETE', '/plugins/beta@2.0.0');
      assert.equal(uninstall.statusCode, 409);
      assert.equal(uninstall.json().code, 'plugin/in-use');
      assert.equal((await api('DELETE', '/plugins/beta@1.0.0')).statusCode, 204, 'an unused version goes');
    });

    test('the graph, in json, dot and mermaid', async () => {
      const json = await api('GET', `/clusters/${env}/graphs/default`);
      assert.equal(json.statusCode, 200, json.body);
      const graph = json.json();
      const ids = graph.nodes.map((n: { id: string }) => n.id);
      for (const n of nodes.slice(0, 3)) assert.ok(ids.includes(String(n)));
      const alphaNode = graph.nodes.find((n: { id: string }) => n.id === String(nodes[2]));
      assert.ok(alphaNode.tasks.some((task: { id: string }) => task.id === 'alpha-deploy'));
      assert.ok(graph.critical_path.length > 0);
      const dot = await api('GET', `/clusters/${env}/graphs/default?format=dot`);
      assert.match(dot.body, /^digraph deployment/);
      const mermaid = await api('GET', `/clusters/${env}/graphs/default?format=mermaid`);
      assert.match(mermaid.body, /^flowchart LR/);
      assert.equal((await api('GET', `/clusters/${env}/graphs/nope`)).statusCode, 404);
      assert.equal((await api('GET', `/clusters/${env}/graphs/default?format=png`)).statusCode, 400);
    });

    test('deploy: a failure keeps roles pending; a success commits them and locks deployed plugins', async () => {
      const failed = await api('POST', `/clusters/${env}/deploy`, { simulate_failure: { task: 'alpha-deploy' } });
      assert.equal(failed.statusCode, 202, failed.body);
      const end = await waitForDeployment(t, env, failed.json().id);
      assert.equal(end.status, 'failed');
      assert.ok(end.tasks.some((x: { taskId: string; status: string }) => x.taskId === 'alpha-deploy' && x.status === 'error'));
      assert.equal((await api('GET', `/clusters/${env}`)).json().status, 'error');
      assert.deepEqual((await api('GET', `/clusters/${env}/nodes`)).json()[0].roles, []);

      const started = await api('POST', `/clusters/${env}/deploy`);
      assert.equal(started.statusCode, 202, started.body);
      const done = await waitForDeployment(t, env, started.json().id);
      assert.equal(done.status, 'succeeded', JSON.stringify(done.message));
      // Done is what succeeded; the rest of a successful run was skipped on purpose (conditions, markers), never failed or left.
      assert.equal(done.done, done.counts.succeeded);
      assert.equal(done.counts.succeeded + done.counts.skipped, done.total);
      assert.equal(done.counts.failed + done.counts.not_run + done.counts.stopped + done.counts.pending, 0);
      assert.ok(done.tasks.every((x: { status: string }) => x.status === 'ready' || x.status === 'skipped'));
      const cluster = (await api('GET', `/clusters/${env}`)).json();
      assert.equal(cluster.status, 'operational');
      assert.ok(cluster.deployed_at);
      const deployedNodes = (await api('GET', `/clusters/${env}/nodes`)).json();
      assert.deepEqual(deployedNodes.slice(0, 3).map((n: { roles: string[]; pending_roles: string[] }) => [n.roles, n.pending_roles]), [[['controller'], []], [['compute'], []], [['alpha-node'], []]]);
      const disable = await api('PUT', `/clusters/${env}/attributes`, { plugins: { beta: null } });
      assert.equal(disable.statusCode, 409);
      assert.equal(disable.json().code, 'plugin/deployed');
    });

    test('two plugins overriding one task on a shared node fail the pre-deployment checks', async () => {
      for (const name of ['delta', 'epsilon']) assert.equal((await api('POST', '/plugins/folders', { path: writePlugin({ name, tasks: ['shared-task'] }) })).statusCode, 201);
      const res = await api('POST', '/clusters', { name: 'clash', release_id: release, components: [...BASE, 'additional_service:delta', 'additional_service:epsilon'] });
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().id;
      // Refused as early as the assignment...
      const assigned = await api('POST', `/clusters/${id}/nodes`, { assignments: [{ node_id: nodes[8], roles: ['controller'] }, { node_id: nodes[9], roles: ['compute'] }] });
      assert.equal(assigned.statusCode, 400, assigned.body);
      assert.equal(assigned.json().details.findings[0].code, 'task/conflict-on-node');
      // ...and, should such nodes get there anyway (written behind the API's back), at deployment.
      await store.assignNodes(t.db, id, [{ id: nodes[8], pendingRoles: ['controller'] }, { id: nodes[9], pendingRoles: ['compute'] }]);
      const deploy = await api('POST', `/clusters/${id}/deploy`);
      assert.equal(deploy.statusCode, 400, deploy.body);
      assert.equal(deploy.json().code, 'deploy/checks-failed');
      assert.ok(deploy.json().details.findings.some((f: { message: string }) => /shared-task/.test(f.message)));
      assert.equal((await api('GET', `/clusters/${id}`)).json().status, 'new', 'a refused deployment changes nothing');
    });

    test('used things cannot be removed; deleting the environment frees them', async () => {
      const release409 = await api('DELETE', `/releases/${release}`);
      assert.equal(release409.statusCode, 409);
      assert.equal((await api('DELETE', '/plugins/alpha@1.0.0')).statusCode, 409);
      assert.equal((await api('DELETE', `/clusters/${env}`)).statusCode, 204);
      assert.equal((await api('DELETE', '/plugins/alpha@1.0.0')).statusCode, 204);
      assert.equal((await api('GET', `/nodes?unassigned=true`)).json().length >= 3, true);
    });
  });
}
