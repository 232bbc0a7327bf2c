/**
 * Nailgun's role API (issue 28 item 12) on a real app, PGlite and PostgreSQL: a role added to a
 * release or to one environment behaves as the release's own (listed, assignable, its disk layout
 * from its volumes mapping, in the graph); Nailgun's body is required (volumes_roles_mapping
 * included) and checked; deleting a role a node holds is refused, naming the nodes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';
import { clusterOr404, composedBeforeLock, composedUnderLock } from '../../src/server/domain/environment.js';

const BASE = ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm'];
const role = (name: string, label = 'Gateway') => ({ name, meta: { name: label, description: 'Edge gateway nodes.', tags: [name], group: 'other', limits: { max: 2 } }, volumes_roles_mapping: [{ id: 'os', allocate_size: 'all' }] });

for (const engine of engines()) {
  describe(`custom roles on ${engine.name}`, () => {
    let t: TestApp;
    let release: string;
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);
    const ok = async (method: string, url: string, body?: unknown) => {
      const res = await api(method, url, body);
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.statusCode === 204 ? undefined : res.json();
    };
    const roleNames = async (url: string) => ((await ok('GET', url)) as Array<{ name: string }>).map((r) => r.name);
    const refusal = async (method: string, url: string, body: unknown, status: number, code: string) => {
      const res = await api(method, url, body);
      assert.equal(res.statusCode, status, res.body);
      assert.equal(res.json().code, code, res.body);
      return res.json();
    };

    before(async () => {
      t = await testApp(engine);
      release = (await ok('GET', '/releases'))[0].id;
    });
    after(async () => {
      await t.close();
      await engine.dispose();
    });

    test('a release role: added, listed, assignable, its disk layout from its mapping, in the graph; changed; deleted only once no node holds it', async () => {
      const added = await api('POST', `/releases/${release}/roles`, role('gateway'));
      assert.equal(added.statusCode, 201, added.body);
      assert.deepEqual(added.json(), role('gateway'));
      assert.ok((await roleNames(`/releases/${release}/roles`)).includes('gateway'));
      // The release's summary (GET /releases, GET /releases/{id}) names it with the release's own roles.
      const listed = async () => ((await ok('GET', '/releases')) as Array<{ id: string; roles: string[] }>).find((r) => r.id === release)!.roles;
      assert.ok((await listed()).includes('gateway'), 'GET /releases lists the added role');
      assert.ok(((await ok('GET', `/releases/${release}`)) as { roles: string[] }).roles.includes('gateway'));

      const env = (await ok('POST', '/clusters', { name: 'gw', release_id: release, components: BASE })).id;
      assert.ok((await roleNames(`/clusters/${env}/roles`)).includes('gateway'), 'an environment on the release has it');
      const [node, other] = (await ok('POST', '/nodes', { simulate: { count: 2, prefix: 'gw' } })).ids;
      await ok('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: node, roles: ['gateway'] }] });
      const disks = (await ok('GET', `/nodes/${node}/disks`)) as Array<{ volumes: Array<{ name: string; size: number }> }>;
      const volumes = new Set(disks.flatMap((d) => d.volumes.filter((v) => v.size > 0).map((v) => v.name)));
      assert.deepEqual([...volumes].sort(), ['os'], 'only the volume its mapping names');
      const graph = await api('GET', `/clusters/${env}/graphs/default`);
      assert.equal(graph.statusCode, 200, graph.body);
      const inGraph = graph.json().nodes.find((n: { id: string }) => n.id === String(node));
      assert.ok(inGraph, 'the node is in the graph');
      assert.deepEqual(inGraph.roles, ['gateway']);
      assert.ok(inGraph.tasks.some((task: { id: string }) => task.id === 'hiera'), 'tasks for every role run on it');

      const changed = await ok('PUT', `/releases/${release}/roles/gateway`, { meta: { ...role('gateway').meta, name: 'Edge gateway' }, volumes_roles_mapping: [{ id: 'os', allocate_size: 'min' }, { id: 'logs', allocate_size: 'all' }] });
      assert.equal(changed.meta.name, 'Edge gateway');
      const label = ((await ok('GET', `/clusters/${env}/roles`)) as Array<{ name: string; label: string }>).find((r) => r.name === 'gateway')!.label;
      assert.equal(label, 'Edge gateway');
      const disksAfter = (await ok('GET', `/nodes/${node}/disks`)) as Array<{ volumes: Array<{ name: string; size: number }> }>;
      assert.ok(disksAfter.some((d) => d.volumes.some((v) => v.name === 'logs' && v.size > 0)), 'the new mapping gives it a logs volume');

      const held = await refusal('DELETE', `/releases/${release}/roles/gateway`, undefined, 409, 'role/in-use');
      assert.match(held.message, /gw-\w+ \(gw\)/);
      assert.deepEqual(held.details.nodes.map((n: { id: number }) => n.id), [node]);
      assert.ok((await roleNames(`/releases/${release}/roles`)).includes('gateway'), 'still there');

      await ok('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: node, roles: ['compute'] }, { node_id: other, roles: ['controller'] }] });
      await ok('DELETE', `/releases/${release}/roles/gateway`);
      assert.equal((await roleNames(`/releases/${release}/roles`)).includes('gateway'), false);
      assert.equal((await listed()).includes('gateway'), false, 'and no longer once deleted');
      assert.equal((await roleNames(`/clusters/${env}/roles`)).includes('gateway'), false);
    });

    test("Nailgun's body is required and checked; the release's own roles are changed in its files", async () => {
      const url = `/releases/${release}/roles`;
      const { volumes_roles_mapping: _, ...noMapping } = role('nomap');
      assert.equal((await api('POST', url, noMapping)).statusCode, 400);
      assert.equal((await api('POST', url, { ...role('nomap'), volumes_roles_mapping: [] })).statusCode, 400);
      assert.equal((await api('POST', url, { ...role('bad name!') })).statusCode, 400);
      const { tags: __, ...noTags } = role('notags').meta;
      assert.equal((await api('POST', url, { ...role('notags'), meta: noTags })).statusCode, 400);
      const vol = await refusal('POST', url, { ...role('vol'), volumes_roles_mapping: [{ id: 'nowhere', allocate_size: 'all' }] }, 400, 'role/unknown-volume');
      assert.match(vol.message, /nowhere/);
      assert.match(vol.details.hint, /\bos\b/);
      await refusal('POST', url, { ...role('tag'), meta: { ...role('tag').meta, tags: ['no-such-tag'] } }, 400, 'role/unknown-tag');
      await refusal('POST', url, role('controller'), 409, 'role/exists');
      await refusal('PUT', `${url}/controller`, { meta: role('controller').meta, volumes_roles_mapping: role('controller').volumes_roles_mapping }, 409, 'role/not-custom');
      await refusal('DELETE', `${url}/controller`, undefined, 409, 'role/not-custom');
      await refusal('PUT', `${url}/nobody`, { meta: role('nobody').meta, volumes_roles_mapping: role('nobody').volumes_roles_mapping }, 404, 'role/not-found');
      await refusal('POST', '/releases/no-such-release/roles', role('x'), 404, 'release/not-found');
      assert.equal((await roleNames(url)).some((n) => ['nomap', 'vol', 'tag', 'notags'].includes(n)), false, 'nothing half-added');
    });

    test("an environment's role: only that environment has it; deleting it while a node holds it is refused", async () => {
      const a = (await ok('POST', '/clusters', { name: 'edge-a', release_id: release, components: BASE })).id;
      const b = (await ok('POST', '/clusters', { name: 'edge-b', release_id: release, components: BASE })).id;
      const added = await api('POST', `/clusters/${a}/roles`, role('edge', 'Edge'));
      assert.equal(added.statusCode, 201, added.body);
      assert.ok((await roleNames(`/clusters/${a}/roles`)).includes('edge'));
      assert.equal((await roleNames(`/clusters/${b}/roles`)).includes('edge'), false);
      assert.equal((await roleNames(`/releases/${release}/roles`)).includes('edge'), false);
      await refusal('POST', `/clusters/${a}/roles`, role('edge'), 409, 'role/exists');

      const [node] = (await ok('POST', '/nodes', { simulate: { count: 1, prefix: 'edge' } })).ids;
      const elsewhere = await api('POST', `/clusters/${b}/nodes`, { assignments: [{ node_id: node, roles: ['edge'] }] });
      assert.equal(elsewhere.statusCode >= 400, true, 'the other environment has no such role');
      await ok('POST', `/clusters/${a}/nodes`, { assignments: [{ node_id: node, roles: ['edge'] }] });
      const held = await refusal('DELETE', `/clusters/${a}/roles/edge`, undefined, 409, 'role/in-use');
      assert.match(held.message, /edge-\w+ \(edge-a\)/);
      await ok('PUT', `/clusters/${a}/roles/edge`, { meta: { ...role('edge').meta, name: 'Edge node' }, volumes_roles_mapping: role('edge').volumes_roles_mapping });
      assert.equal(((await ok('GET', `/clusters/${a}/roles`)) as Array<{ name: string; label: string }>).find((r) => r.name === 'edge')!.label, 'Edge node');
      await ok('POST', `/clusters/${a}/nodes`, { assignments: [{ node_id: node, roles: ['compute'] }] });
      await ok('DELETE', `/clusters/${a}/roles/edge`);
      assert.equal((await roleNames(`/clusters/${a}/roles`)).includes('edge'), false);
    });

    test('a role assignment composes the environment before its lock, and again under it when a role came meanwhile', async () => {
      const env = (await ok('POST', '/clusters', { name: 'early', release_id: release, components: BASE })).id;
            const unchanged = await composedBeforeLock(t.db, env);
      assert.ok(unchanged);
      const same = await t.db.transaction(async (tx) => composedUnderLock(tx, await clusterOr404(tx, env, { lock: true }), unchanged));
      assert.equal(same, unchanged.composition, 'nothing changed: the early composition is used');
      const early = await composedBeforeLock(t.db, env);
      await ok('POST', `/clusters/${env}/roles`, role('latecomer', 'Latecomer'));
      const fresh = await t.db.transaction(async (tx) => composedUnderLock(tx, await clusterOr404(tx, env, { lock: true }), early));
      assert.notEqual(fresh, early!.composition);
      assert.ok('latecomer' in fresh.composed.roles_metadata, 'the role added after the early composition is in the one used');
      assert.equal('latecomer' in early!.composition.composed.roles_metadata, false);
      // Through the API: the new role is assignable at once.
      const [node] = (await ok('POST', '/nodes', { simulate: { count: 1, prefix: 'late' } })).ids;
      await ok('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: node, roles: ['latecomer'] }] });
    });
  });
}
