/**
 * Release upgrades through the HTTP API (issue 28 item 15): an environment moves to a newer version
 * of its release, a copy of the bundled release made here (version bumped; the role base-os, the
 * component additional_service:octavia and the setting syslog.syslog_port removed) and registered
 * as a release plugin folder, as an operator installs one; and a release folder synced in place.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, waitForDeployment, type TestApp } from './support/app.js';
import { variantOnePlugin, type Folder } from '../support/multi-release.js';
import { addRole, newerRelease, releaseCopy, rewrite } from '../support/release-copy.js';

const BASE = ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm'];

for (const engine of engines()) {
  describe(`release upgrades on ${engine.name}`, () => {
    let t: TestApp;
    let oldRelease: string;
    let newRelease: string;
    const plugins: Folder[] = [];
    const api = (method: string, url: string, body?: unknown) => t.call(method, `/api/v1${url}`, body);
    const ok = async (method: string, url: string, body?: unknown) => {
      const res = await api(method, url, body);
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    /** Everything an operator reads of an environment: to check a refusal changed nothing. */
    const snapshot = async (env: number) => ({
      cluster: await ok('GET', `/clusters/${env}`),
      attributes: await ok('GET', `/clusters/${env}/attributes`),
      nodes: await ok('GET', `/nodes?cluster_id=${env}`),
      network: await ok('GET', `/clusters/${env}/network_configuration`),
    });
    /** An environment on the old release with octavia, the multi_version plugin, changed settings and nodes holding base-os and the plugin's role. */
    const environment = async (name: string, options: { octavia?: boolean; baseOs?: boolean; syslogPort?: boolean } = {}) => {
      const components = [...BASE, 'additional_service:mr-mitaka', ...(options.octavia === false ? [] : ['additional_service:octavia'])];
      const env = (await ok('POST', '/clusters', { name, release_id: oldRelease, components })).id as number;
      const editable: Record<string, Record<string, { value: unknown }>> = { access: { email: { value: 'ops@example.org' } }, common: { debug: { value: true } }, external_ntp: { ntp_list: { value: ['ntp1.example.org', 'ntp2.example.org'] } } };
      if (options.syslogPort !== false) editable.syslog = { syslog_port: { value: '1514' } };
      await ok('PUT', `/clusters/${env}/attributes`, { editable });
      const ids: number[] = (await ok('POST', '/nodes', { simulate: { count: 5 } })).ids;
      const assignments = [
        { node_id: ids[0], roles: ['controller'] },
        { node_id: ids[1], roles: ['mr_role'] },
        { node_id: ids[2], roles: options.baseOs === false ? ['compute'] : ['base-os'] },
        { node_id: ids[3], roles: ['database'] },
        { node_id: ids[4], roles: ['messaging'] },
      ];
      await ok('POST', `/clusters/${env}/nodes`, { assignments });
      return { env, ids };
    };

    before(async () => {
      t = await testApp(engine);
      oldRelease = (await ok('GET', '/releases'))[0].id;
      plugins.push(variantOnePlugin());
      assert.equal((await api('POST', '/plugins/folders', { path: plugins[0].path })).statusCode, 201);
      const registered = await api('POST', '/plugins/folders', { path: newerRelease() });
      assert.equal(registered.statusCode, 201, registered.body);
      const releases = (await ok('GET', '/releases')) as Array<{ id: string; version: string }>;
      newRelease = releases.find((r) => r.version === '2026.1-1.1')!.id;
      assert.ok(newRelease && newRelease !== oldRelease, JSON.stringify(releases));
    });
    after(async () => {
      await t.close();
      await engine.dispose();
      for (const p of plugins) p.remove();
    });

    test('refused with everything that no longer fits, and the environment unchanged', async () => {
      const { env, ids } = await environment('refused');
      const before = await snapshot(env);
      const res = await api('PUT', `/clusters/${env}`, { release_id: newRelease });
      assert.equal(res.statusCode, 409, res.body);
      const body = res.json();
      assert.equal(body.code, 'cluster/upgrade-unfit');
      assert.match(body.message, /3 things no longer fit/);
      assert.match(body.details.hint, /drop_unfit/);
      const unfit = body.details.unfit.map((u: { kind: string; name: string; nodes?: Array<{ id: number }> }) => [u.kind, u.name, u.nodes?.map((n) => n.id)]);
      assert.deepEqual(unfit.sort(), [
        ['component', 'additional_service:octavia', undefined],
        ['role', 'base-os', [ids[2]]],
        ['setting', 'syslog.syslog_port', undefined],
      ]);
      assert.deepEqual(await snapshot(env), before, 'nothing changed');
    });

    test('drop_unfit leaves exactly what was listed behind and carries the rest over', async () => {
      const { env, ids } = await environment('dropped');
      const before = await snapshot(env);
      const res = await api('PUT', `/clusters/${env}`, { release_id: newRelease, drop_unfit: true });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.release_id, newRelease);
      assert.equal(body.upgraded_from, oldRelease);
      assert.deepEqual(body.dropped.map((u: { kind: string; name: string }) => `${u.kind} ${u.name}`).sort(), ['component additional_service:octavia', 'role base-os', 'setting syslog.syslog_port']);

      const now = await snapshot(env);
      assert.deepEqual(now.cluster.components, before.cluster.components.filter((c: string) => c !== 'additional_service:octavia'));
      assert.deepEqual(now.cluster.plugins, before.cluster.plugins, 'the multi_version plugin stays enabled');
      const values = (a: { editable: Record<string, Record<string, { value?: unknown }>> }) => ({ email: a.editable.access.email.value, debug: a.editable.common.debug.value, ntp: a.editable.external_ntp.ntp_list.value, port: a.editable.syslog.syslog_port?.value });
      assert.deepEqual(values(now.attributes), { email: 'ops@example.org', debug: true, ntp: ['ntp1.example.org', 'ntp2.example.org'], port: undefined });
      const roles = (nodes: Array<{ id: number; roles: string[]; pending_roles: string[] }>) => Object.fromEntries(nodes.map((n) => [n.id, [...n.roles, ...n.pending_roles]]));
      assert.deepEqual(roles(now.nodes), { [ids[0]]: ['controller'], [ids[1]]: ['mr_role'], [ids[2]]: [], [ids[3]]: ['database'], [ids[4]]: ['messaging'] });
      // The environment is whole on its new release: its graph builds with the plugin's task on mr_role.
      const graph = await api('GET', `/clusters/${env}/graphs/default`);
      assert.equal(graph.statusCode, 200, graph.body);
    });

    test('a move with nothing unfit keeps every setting value the operator changed', async () => {
      const { env } = await environment('clean', { octavia: false, baseOs: false, syslogPort: false });
      await ok('PUT', `/clusters/${env}/attributes`, { editable: { public_ssl: { hostname: { value: 'cloud.example.org' } }, storage: { osd_pool_size: { value: '2' } } } });
      // A role of the environment's own (issue 28 item 12) goes with it, and its node keeps it.
      await ok('POST', `/clusters/${env}/roles`, { name: 'edge', meta: { name: 'Edge', description: 'Edge nodes.', tags: ['edge'] }, volumes_roles_mapping: [{ id: 'os', allocate_size: 'all' }] });
      const [edge] = (await ok('POST', '/nodes', { simulate: { count: 1 } })).ids;
      await ok('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: edge, roles: ['edge'] }] });
      const before = await snapshot(env);
      const body = await ok('PUT', `/clusters/${env}`, { release_id: newRelease });
      assert.deepEqual(body.dropped, []);
      const now = await snapshot(env);
      assert.equal(now.cluster.release_id, newRelease);
      // Every value is the one it had (syslog_port was left at its default: the section differs only by it).
      const valuesOf = (editable: Record<string, Record<string, unknown>>) => {
        const out: Record<string, unknown> = {};
        for (const [s, fields] of Object.entries(editable)) for (const [f, slot] of Object.entries(fields)) if (f !== 'metadata' && slot && typeof slot === 'object' && 'value' in slot) out[`${s}.${f}`] = (slot as { value: unknown }).value;
        return out;
      };
      const was = valuesOf(before.attributes.editable);
      delete was['syslog.syslog_port'];
      assert.deepEqual(valuesOf(now.attributes.editable), was);
      assert.equal(was['public_ssl.hostname'], 'cloud.example.org');
      assert.deepEqual(now.cluster.components, before.cluster.components);
      assert.deepEqual(now.nodes, before.nodes);
      assert.ok(now.nodes.some((n: { roles: string[]; pending_roles: string[] }) => n.pending_roles.includes('edge')));
    });

    test('an older release, a release of another name and an unknown id are refused with clear codes', async () => {
      const { env } = await environment('refusals', { octavia: false, baseOs: false, syslogPort: false });
      const other = releaseCopy('2026.1-1.5', (dir) => rewrite(dir, 'metadata.yaml', (s) => s.replace(/^name: hearth-openstack$/m, 'name: other-openstack').replace('release_name: hearth-openstack', 'release_name: other-openstack')));
      assert.equal((await api('POST', '/plugins/folders', { path: other })).statusCode, 201);
      const otherId = ((await ok('GET', '/releases')) as Array<{ id: string; name: string }>).find((r) => r.name === 'other-openstack')!.id;
      await ok('PUT', `/clusters/${env}`, { release_id: newRelease });
      const before = await snapshot(env);

      const older = await api('PUT', `/clusters/${env}`, { release_id: oldRelease });
      assert.equal(older.statusCode, 400, older.body);
      assert.equal(older.json().code, 'cluster/release-older');
      assert.match(older.json().message, /older/);
      const otherName = await api('PUT', `/clusters/${env}`, { release_id: otherId });
      assert.equal(otherName.statusCode, 400, otherName.body);
      assert.equal(otherName.json().code, 'cluster/other-release');
      const unknown = await api('PUT', `/clusters/${env}`, { release_id: 'no-such-release' });
      assert.equal(unknown.statusCode, 400, unknown.body);
      assert.equal(unknown.json().code, 'cluster/unknown-release');
      assert.match(unknown.json().message, /no-such-release/);
      const noEnv = await api('PUT', '/clusters/999999', { release_id: newRelease });
      assert.equal(noEnv.statusCode, 404, noEnv.body);
      assert.deepEqual(await snapshot(env), before, 'nothing changed');
    });

    test('a deployed environment keeps its deployed release until it is deployed again', async () => {
      const { env } = await environment('deployed', { octavia: false, baseOs: false, syslogPort: false });
      const first = await ok('POST', `/clusters/${env}/deploy`, { dry_run: true });
      assert.equal((await waitForDeployment(t, env, first.id, 120_000)).status, 'succeeded');
      const deployed = await ok('GET', `/clusters/${env}`);
      assert.equal(deployed.status, 'operational');
      assert.equal(deployed.deployed_release_id, oldRelease);

      const moved = await ok('PUT', `/clusters/${env}`, { release_id: newRelease });
      assert.equal(moved.release_id, newRelease);
      assert.equal(moved.deployed_release_id, oldRelease, 'deployed with the old release until deployed again');
      const plan = await ok('GET', `/clusters/${env}/deploy/plan`);
      assert.equal(plan.first_deployment, false);

      const again = await ok('POST', `/clusters/${env}/deploy`, { dry_run: true });
      assert.equal((await waitForDeployment(t, env, again.id, 120_000)).status, 'succeeded');
      assert.equal((await ok('GET', `/clusters/${env}`)).deployed_release_id, newRelease);
    });

    test('a release registered from a folder is synced like a plugin folder; its environments see the change', async () => {
      const dir = releaseCopy('2026.1-1.7');
      const registered = await api('POST', '/plugins/folders', { path: dir });
      assert.equal(registered.statusCode, 201, registered.body);
      const pluginId = registered.json().plugin.id;
      const release = ((await ok('GET', '/releases')) as Array<{ id: string; version: string }>).find((r) => r.version === '2026.1-1.7')!.id;
      const env = (await ok('POST', '/clusters', { name: 'synced', release_id: release, components: BASE })).id;
      const [node] = (await ok('POST', '/nodes', { simulate: { count: 1 } })).ids;
      const refusedRole = await api('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: node, roles: ['gateway'] }] });
      assert.equal(refusedRole.statusCode, 400, refusedRole.body);

      addRole(dir, 'gateway');
      rewrite(dir, 'hearth-2026.1/attributes/attributes.yaml', (s) => s.replace("syslog_server: {value: ''", "syslog_server: {value: 'logs.example.org'"));
      const synced = await api('POST', `/plugins/${pluginId}/sync`);
      assert.equal(synced.statusCode, 200, synced.body);
      const names = (roles: Array<{ name: string }>) => roles.map((r) => r.name);
      assert.ok(names(await ok('GET', `/releases/${release}/roles`)).includes('gateway'));
      assert.ok(names(await ok('GET', `/clusters/${env}/roles`)).includes('gateway'), 'the environment on the synced release sees the new role');
      await ok('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: node, roles: ['gateway'] }] });
      const disks = await ok('GET', `/nodes/${node}/disks`);
      assert.ok(JSON.stringify(disks).includes('"os"'), 'its disk layout comes from the synced volumes mapping');

      // A sync that takes away a role a node holds: refused, naming the node, and nothing of the release changes.
      rewrite(dir, 'hearth-2026.1/metadata/roles.yaml', (s) => s.slice(0, s.indexOf('\ngateway:') + 1));
      const gone = await api('POST', `/plugins/${pluginId}/sync`);
      assert.equal(gone.statusCode, 409, gone.body);
      assert.equal(gone.json().code, 'release/unfit-environments');
      assert.match(gone.json().message, /'synced': role gateway/);
      assert.deepEqual(gone.json().details.environments.map((e: { name: string; unfit: Array<{ kind: string; name: string; nodes: Array<{ id: number }> }> }) => [e.name, e.unfit.map((u) => [u.kind, u.name, u.nodes.map((n) => n.id)])]), [['synced', [['role', 'gateway', [node]]]]]);
      assert.match(gone.json().details.hint, /unassign/);
      assert.ok(names(await ok('GET', `/clusters/${env}/roles`)).includes('gateway'), 'the release is as it was');
      // Once the node leaves the role, the same sync goes through.
      await ok('POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: node, roles: ['compute'] }] });
      await ok('POST', `/plugins/${pluginId}/sync`);
      assert.equal(names(await ok('GET', `/clusters/${env}/roles`)).includes('gateway'), false);
    });
  });
}
