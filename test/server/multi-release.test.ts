/**
 * Multi-release packages through the HTTP API: the wizard's components and an environment's graph
 * on the bundled release (which plugins see as mitaka-9.0) take the best-fitting record of each
 * group (variant 1) and the release record's own files (variants 2 and 3).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';
import { perReleaseFilesPlugin, variantOnePlugin, type Folder } from '../support/multi-release.js';

const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

for (const engine of engines()) {
  describe(`multi-release plugins on ${engine.name}`, () => {
    let t: TestApp;
    let release: string;
    const folders: Folder[] = [];
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);

    before(async () => {
      t = await testApp(engine);
      release = (await api('GET', '/releases')).json()[0].id;
      // A third plugin that cannot be used with this release (its role's disk layout names a volume
      // nobody defines; a role with no layout at all is usable, as in Fuel 9.0): the wizard lists
      // its components disabled, those this release would have had, not Newton's.
      const broken = perReleaseFilesPlugin('broken_per_release', {
        'node_roles.yaml': 'broken_role:\n  name: Broken\n  description: No disks\n',
        'node_roles_mitaka.yaml': 'broken_role:\n  name: Broken\n  description: No disks\n',
        'volumes.yaml': 'volumes: []\nvolumes_roles_mapping:\n  broken_role:\n    - {id: nowhere, allocate_size: min}\n',
        'volumes_mitaka.yaml': 'volumes: []\nvolumes_roles_mapping:\n  broken_role:\n    - {id: nowhere, allocate_size: min}\n',
        'deployment_tasks.yaml': '[]\n',
        'deployment_tasks_mitaka.yaml': '[]\n',
        'newton/deployment_tasks.yaml': '[]\n',
        'components.yaml': '- name: additional_service:broken-mitaka\n  label: Broken on Mitaka\n  fuel-version: "<10"\n- name: additional_service:broken-newton\n  label: Broken on Newton\n  fuel-version: ">=10"\n',
        'newton/components.yaml': '- name: additional_service:broken-newton-folder\n  label: Broken, from newton/\n',
      });
      folders.push(variantOnePlugin(), perReleaseFilesPlugin(), broken);
      for (const folder of folders) {
        const res = await api('POST', '/plugins/folders', { path: folder.path });
        assert.equal(res.statusCode, 201, res.body);
      }
    });
    after(async () => {
      await t.close();
      await engine.dispose();
      for (const folder of folders) folder.remove();
    });

    test('the wizard offers the Mitaka records and the Mitaka files only', async () => {
      const res = await api('GET', `/releases/${release}/components`);
      assert.equal(res.statusCode, 200, res.body);
      const names = res.json().map((c: { name: string }) => c.name).filter((n: string) => /:(mr|pr)-/.test(n)).sort();
      assert.deepEqual(names, ['additional_service:mr-mitaka', 'additional_service:pr-root']);
      const roles = (await api('GET', `/releases/${release}/roles`)).json().map((r: { name: string }) => r.name);
      assert.ok(roles.includes('mr_role') && roles.includes('pr_role'));
      assert.equal(roles.includes('newton_role'), false);
    });

    test('an unusable multi-release plugin: the components this release would have had, disabled with the reason', async () => {
      const res = await api('GET', `/releases/${release}/components/state?select=${BASE.join(',')}`);
      assert.equal(res.statusCode, 200, res.body);
      const broken = res.json().components.filter((c: { name: string }) => c.name.startsWith('additional_service:broken-'));
      assert.deepEqual(broken.map((c: { name: string; enabled: boolean }) => [c.name, c.enabled]), [['additional_service:broken-mitaka', false]]);
      assert.match(broken[0].reasons.join(' '), /broken_per_release.*cannot be used with this release/);
    });

    test("an environment's graph runs the chosen my-task and the Mitaka file's task on the role nodes", async () => {
      const created = await api('POST', '/clusters', { name: 'mr', release_id: release, components: [...BASE, 'additional_service:mr-mitaka', 'additional_service:pr-root'] });
      assert.equal(created.statusCode, 201, created.body);
      const env = created.json().id;
      assert.deepEqual(Object.keys(created.json().plugins).sort(), ['multi_version', 'per_release']);
      const nodes = (await api('POST', '/nodes', { simulate: { count: 3 } })).json().ids;
      const assigned = await api('POST', `/clusters/${env}/nodes`, {
        assignments: [
          { node_id: nodes[0], roles: ['controller'] },
          { node_id: nodes[1], roles: ['mr_role'] },
          { node_id: nodes[2], roles: ['pr_role'] },
        ],
      });
      assert.equal(assigned.statusCode, 200, assigned.body);
      const graph = await api('GET', `/clusters/${env}/graphs/default`);
      assert.equal(graph.statusCode, 200, graph.body);
      const on = (role: string) =>
        graph
          .json()
          .nodes.find((n: { roles: string[] }) => n.roles.includes(role))
          .tasks.map((x: { id: string }) => x.id)
          .filter((id: string) => /task$|-only$/.test(id))
          .sort();
      assert.deepEqual(on('mr_role'), ['my-task', 'plain-task']);
      assert.deepEqual(on('pr_role'), ['mitaka-task']);
    });
  });
}
