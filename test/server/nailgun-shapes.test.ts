/**
 * The REST shapes Fuel's own clients used: paths with a trailing slash, and the component-registry
 * design's environment request (`nodes: []`, `tasks: []`, components left to the release's defaults).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';

for (const engine of engines()) {
  describe(`Nailgun's request shapes on ${engine.name}`, () => {
    let t: TestApp;
    let release: string;
    before(async () => {
      t = await testApp(engine);
      release = (await t.call('GET', '/api/v1/releases/')).json()[0].id;
    });
    after(async () => {
      await t.close();
      await engine.dispose();
    });

    test('a trailing slash names the same resource, for reads and changes alike', async () => {
      const withSlash = await t.call('GET', `/api/v1/releases/${release}/components/`);
      const without = await t.call('GET', `/api/v1/releases/${release}/components`);
      assert.equal(withSlash.statusCode, 200, withSlash.body);
      assert.deepEqual(withSlash.json(), without.json());
      const created = await t.call('POST', '/api/v1/clusters/', { name: 'slashed', release_id: release, components: ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm'] });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal((await t.call('DELETE', `/api/v1/clusters/${created.json().id}/`)).statusCode, 204);
    });

    test("the design's body: empty nodes and tasks accepted, components default to the release's", async () => {
      const res = await t.call('POST', '/api/v1/clusters/', { name: 'Some cluster', release_id: release, nodes: [], tasks: [] });
      assert.equal(res.statusCode, 201, res.body);
      const components = res.json().components as string[];
      const defaults = ((await t.call('GET', `/api/v1/releases/${release}/components`)).json() as Array<{ name: string; default?: boolean; plugin: unknown }>)
        .filter((c) => c.default === true && c.plugin === null)
        .map((c) => c.name)
        .sort();
      assert.ok(defaults.length >= 3, `the bundled release marks its defaults: ${defaults.join(', ')}`);
      assert.deepEqual(components, defaults);
    });

    test('nodes or tasks given at creation are refused with what to do instead', async () => {
      for (const [field, code] of [['nodes', 'cluster/nodes-at-creation'], ['tasks', 'cluster/tasks-at-creation']] as const) {
        const res = await t.call('POST', '/api/v1/clusters', { name: `with-${field}`, release_id: release, [field]: [1] });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, code);
        assert.match(res.json().details.hint, /\S/);
      }
      const other = await t.call('POST', '/api/v1/clusters', { name: 'extra', release_id: release, mode: 'ha' });
      assert.equal(other.statusCode, 400, 'other unknown fields stay refused');
    });
  });
}
