/**
 * The wizard's state for the pane it shows (issue 30), through the HTTP API: `pane=` proves only
 * that pane's components and marks the others `unchecked`, each answer given is the whole state's,
 * and a pane that is not one of the four is refused by name.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';
import { wizardPaneOf } from '../../src/core/components/index.js';

interface Answer {
  valid: boolean;
  completable: boolean;
  components: Array<{ name: string; checked: boolean; enabled: boolean; unchecked?: boolean }>;
}

for (const engine of engines()) {
  describe(`the wizard asked for one pane on ${engine.name}`, () => {
    let t: TestApp;
    let release: string;
    const api = (method: string, url: string) => t.call(method, `/api/v1${url}`);

    before(async () => {
      t = await testApp(engine);
      release = (await api('GET', '/releases')).json()[0].id;
    });
    after(async () => {
      await t.close();
      await engine.dispose();
    });

    test('each pane answers its own components as the whole state does, and only those', async () => {
      const select = 'hypervisor:qemu,network:neutron:core:ml2,network:neutron:ml2:vlan';
      const whole = (await api('GET', `/releases/${release}/components/state?select=${select}`)).json() as Answer;
      assert.ok(whole.components.length > 5 && whole.components.every((c) => c.unchecked === undefined));
      const seen = new Set<string>();
      for (const pane of ['compute', 'network', 'storage', 'additional'] as const) {
        const res = await api('GET', `/releases/${release}/components/state?select=${select}&pane=${pane}`);
        assert.equal(res.statusCode, 200, res.body);
        const narrow = res.json() as Answer;
        assert.equal(narrow.valid, whole.valid);
        assert.equal(narrow.completable, whole.completable);
        assert.deepEqual(narrow.components.map((c) => c.name), whole.components.map((c) => c.name));
        narrow.components.forEach((c, i) => {
          if (c.checked || wizardPaneOf(c.name) === pane) {
            assert.deepEqual(c, whole.components[i], `${c.name} on ${pane}`);
            seen.add(c.name);
          } else assert.deepEqual([c.unchecked, c.enabled], [true, false], `${c.name} is not on ${pane}`);
        });
      }
      // Every component is answered on its own pane.
      assert.equal(seen.size, whole.components.length);
    });

    test('a pane that is not one of the four is refused, naming the four', async () => {
      const res = await api('GET', `/releases/${release}/components/state?select=hypervisor:qemu&pane=storag`);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.body, /pane/);
      assert.match(res.body, /compute.*network.*storage.*additional/s);
    });
  });
}
