/**
 * What the web UI needs of the server (issue 16), through the HTTP API on every storage engine:
 * a token check, unique node names independent of environment names, deployed roles kept,
 * reset to undeployed, settings checked against their definitions with refusals naming the
 * setting (issue 20 item 11), whole sections sent back, and a plugin's refusal naming it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, waitForDeployment, TOKEN, type TestApp } from './support/app.js';

for (const engine of engines()) {
  describe(`operator API on ${engine.name}`, () => {
    let t: TestApp;
    let release: string;
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);
    const environment = async (name: string) => {
      const catalog = (await api('GET', `/releases/${release}/components`)).json() as Array<{ name: string; default?: boolean }>;
      const res = await api('POST', '/clusters', { name, release_id: release, components: catalog.filter((c) => c.default).map((c) => c.name) });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().id as number;
    };
    const nodes = async (env: number, roles: string[][]) => {
      const ids = (await api('POST', '/nodes', { simulate: { count: roles.length } })).json().ids as number[];
      const res = await api('POST', `/clusters/${env}/nodes`, { assignments: ids.map((id, i) => ({ node_id: id, roles: roles[i] })) });
      assert.equal(res.statusCode, 200, res.body);
      return ids;
    };

    before(async () => {
      t = await testApp(engine);
      release = (await api('GET', '/releases')).json()[0].id;
    });
    after(async () => {
      await t.close();
      await engine.dispose();
    });

    test('GET /token answers 200 with the admin token and 401 with any other', async () => {
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/token', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/token', headers: { authorization: 'Bearer not-the-token-0000000' } })).statusCode, 401);
      assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/token' })).statusCode, 401);
    });

    test('simulated nodes are named <prefix>-<id>, unique across batches; a taken name is refused', async () => {
      const a = (await api('POST', '/nodes', { simulate: { count: 2 } })).json().ids as number[];
      const b = (await api('POST', '/nodes', { simulate: { count: 2, prefix: 'rack-' } })).json().ids as number[];
      const all = (await api('GET', '/nodes')).json() as Array<{ id: number; name: string }>;
      const named = (id: number) => all.find((n) => n.id === id)!.name;
      assert.deepEqual([...a, ...b].map(named), [`node-${a[0]}`, `node-${a[1]}`, `rack-${b[0]}`, `rack-${b[1]}`]);
      const taken = await api('POST', '/nodes', { nodes: [{ name: `node-${a[0]}` }] });
      assert.equal(taken.statusCode, 409);
      assert.equal(taken.json().code, 'node/name-taken');
      const twice = await api('POST', '/nodes', { nodes: [{ name: 'x1' }, { name: 'x1' }] });
      assert.equal(twice.json().code, 'node/name-listed-twice');
      // A name given by hand like a simulated one to come makes that batch refused, not a duplicate.
      const next = Math.max(...all.map((n) => n.id)) + 1;
      await api('POST', '/nodes', { nodes: [{ name: `node-${next + 1}` }] });
      const clash = await api('POST', '/nodes', { simulate: { count: 3 } });
      assert.equal(clash.statusCode, 409, clash.body);
      const names = ((await api('GET', '/nodes')).json() as Array<{ name: string }>).map((n) => n.name);
      assert.equal(new Set(names).size, names.length);
    });

    test('a deployed role cannot be dropped by an assignment (dry run too); reset makes every role pending again', async () => {
      const env = await environment('deployed-roles');
      const [controller] = await nodes(env, [['controller', 'database', 'messaging'], ['compute']]);
      const started = (await api('POST', `/clusters/${env}/deploy`, {})).json();
      assert.equal((await waitForDeployment(t, env, started.id)).status, 'succeeded');
      const dry = (await api('POST', `/clusters/${env}/nodes?dry_run=true`, { assignments: [{ node_id: controller, roles: ['database', 'messaging'] }] })).json();
      assert.equal(dry.ok, false);
      assert.match(dry.findings.find((f: { code: string }) => f.code === 'node/deployed-role').message, /was deployed with controller: a deployed role leaves a node only through the deletion graph/);
      const refused = await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: controller, roles: ['database', 'messaging'] }] });
      assert.equal(refused.statusCode, 409);
      // Adding a role beside the deployed ones is fine.
      assert.equal((await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: controller, roles: ['controller', 'database', 'messaging', 'cinder'] }] })).statusCode, 200);

      const reset = await api('POST', `/clusters/${env}/reset`);
      assert.equal(reset.statusCode, 200, reset.body);
      assert.equal(reset.json().status, 'new');
      assert.equal(reset.json().deployed_at, null);
      const after = (await api('GET', `/clusters/${env}/nodes`)).json() as Array<{ id: number; roles: string[]; pending_roles: string[]; status: string }>;
      const c = after.find((n) => n.id === controller)!;
      assert.deepEqual(c.roles, []);
      assert.deepEqual(c.pending_roles, ['cinder', 'controller', 'database', 'messaging']);
      assert.equal((await api('POST', '/clusters/999999/reset')).statusCode, 404);
    });

    test('settings: a value against its regex or options is refused naming the setting; whole sections sent back save', async () => {
      const env = await environment('settings-check');
      const current = (await api('GET', `/clusters/${env}/attributes`)).json().editable;
      const bad = await api('PUT', `/clusters/${env}/attributes`, { editable: { access: { email: { value: 'not an email' } }, common: { libvirt_type: { value: 'xen' } } } });
      assert.equal(bad.statusCode, 400);
      const findings = bad.json().details.findings as Array<{ code: string; setting: string; message: string }>;
      assert.deepEqual(findings.map((f) => [f.code, f.setting]), [['settings/invalid-value', 'access.email'], ['settings/invalid-value', 'common.libvirt_type']]);
      assert.equal(findings[0].message, 'Email: Invalid email.');
      // The web UI sent every section back, metadata included; only the changed value matters.
      const whole = structuredClone(current);
      whole.common.debug.value = true;
      const saved = await api('PUT', `/clusters/${env}/attributes`, { editable: whole });
      assert.equal(saved.statusCode, 200, saved.body);
      assert.deepEqual(saved.json().changed, ['common.debug']);
    });
  });
}
