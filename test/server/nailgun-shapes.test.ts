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

    test("the design's own request (id, components, nodes, tasks) and Fuel's release: taken, what is ignored said in findings (issue 28)", async () => {
      // The component-registry design's example body, with this release's components.
      const design = await t.call('POST', '/api/v1/clusters/', { id: 1, name: 'Some other cluster', release, components: ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm'], nodes: [], tasks: [] });
      assert.equal(design.statusCode, 201, design.body);
      assert.equal(design.json().release_id, release);
      const ignored = (design.json().findings as Array<{ code: string; severity: string; message: string }>).filter((f) => f.code.endsWith('-ignored'));
      assert.deepEqual(ignored.map((f) => `${f.code} ${f.severity}`), ['cluster/id-ignored warning']);
      assert.match(ignored[0].message, /id 1 was ignored: the server gives a new environment its id/);
      assert.notEqual(design.json().id, 1, 'the server gives the id');
      // Nodes and tasks that are not empty are ignored with a warning each, not refused.
      const full = await t.call('POST', '/api/v1/clusters', { name: 'with-both', release_id: release, nodes: [1], tasks: [{ id: 'x' }] });
      assert.equal(full.statusCode, 201, full.body);
      const codes = (full.json().findings as Array<{ code: string; hint?: string }>).filter((f) => f.code.endsWith('-ignored'));
      assert.deepEqual(codes.map((f) => f.code), ['cluster/nodes-ignored', 'cluster/tasks-ignored']);
      assert.ok(codes.every((f) => /\S/.test(f.hint ?? '')));
      assert.equal((await t.call('GET', `/api/v1/clusters/${full.json().id}/nodes`)).json().length, 0);
      // Both names of the release must agree; neither is refused with what to send.
      const mismatch = await t.call('POST', '/api/v1/clusters', { name: 'mismatch', release_id: release, release: 'other' });
      assert.equal(mismatch.statusCode, 400, mismatch.body);
      assert.equal(mismatch.json().code, 'cluster/release-mismatch');
      const none = await t.call('POST', '/api/v1/clusters', { name: 'no-release' });
      assert.equal(none.statusCode, 400, none.body);
      assert.equal(none.json().code, 'cluster/release-missing');
      const other = await t.call('POST', '/api/v1/clusters', { name: 'extra', release_id: release, mode: 'ha' });
      assert.equal(other.statusCode, 400, 'other unknown fields stay refused');
    });
  });
}
