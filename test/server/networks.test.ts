/**
 * Networks through the API, on a real server and database: an environment's network configuration
 * (Fuel's resource) with the checks, the address plan following the nodes, VIPs, a node's
 * network_data and interfaces, and two servers on one PostgreSQL never handing out one address twice.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { engines, testDatabaseUrl } from './support/engines.js';
import { bundledRelease, testApp, type TestApp } from './support/app.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { openStore } from '../../src/store/index.js';
import { conflictFrom } from '../../src/store/conflicts.js';
import { endRemoval } from '../../src/server/domain/runs/removal-end.js';

const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

async function environment(t: TestApp, name: string): Promise<number> {
  const release = (await t.call('GET', '/api/v1/releases')).json()[0].id;
  const res = await t.call('POST', '/api/v1/clusters', { name, release_id: release, components: BASE });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

async function assign(t: TestApp, env: number, roles: string[][]): Promise<number[]> {
  const ids: number[] = (await t.call('POST', '/api/v1/nodes', { simulate: { count: roles.length } })).json().ids;
  const res = await t.call('POST', `/api/v1/clusters/${env}/nodes`, { assignments: ids.map((id, i) => ({ node_id: id, roles: roles[i] })) });
  assert.equal(res.statusCode, 200, res.body);
  return ids;
}

const byName = (config: { networks: Array<{ name: string }> }, name: string) => config.networks.find((n) => n.name === name) as Record<string, any>;

for (const engine of engines()) {
  describe(`networks on ${engine.name}`, () => {
    after(() => engine.dispose());

    test("an environment has the release's networks, editable; errors are refused per network and field", async () => {
      const t = await testApp(engine);
      try {
        const env = await environment(t, 'nets');
        const got = await t.call('GET', `/api/v1/clusters/${env}/network_configuration`);
        assert.equal(got.statusCode, 200, got.body);
        const config = got.json();
        assert.deepEqual(config.networks.map((n: { name: string }) => n.name).sort(), ['fuelweb_admin', 'management', 'public', 'storage']);
        assert.equal(byName(config, 'management').cidr, '192.168.0.0/24');
        assert.equal(byName(config, 'management').vlan_start, 101);
        assert.equal(config.networking_parameters.segmentation_type, 'vlan');
        assert.equal(config.saved, false);
        assert.deepEqual(config.findings.filter((f: { severity: string }) => f.severity === 'error'), []);

        // Storage on management's CIDR: refused, naming both networks and the field to change; nothing saved.
        const clash = await t.call('PUT', `/api/v1/clusters/${env}/network_configuration`, { networks: [{ name: 'storage', cidr: '192.168.0.0/24', ip_ranges: [['192.168.0.1', '192.168.0.254']] }] });
        assert.equal(clash.statusCode, 400, clash.body);
        assert.equal(clash.json().code, 'network/configuration-refused');
        const overlap = clash.json().details.findings.find((f: { code: string }) => /overlap/.test(f.code));
        assert.ok(overlap, clash.body);
        assert.deepEqual([...overlap.networks].sort(), ['management', 'storage']);
        assert.ok(overlap.hint.length > 0);
        assert.equal(byName((await t.call('GET', `/api/v1/clusters/${env}/network_configuration`)).json(), 'storage').cidr, '192.168.1.0/24');

        // The admin network is the one Hearth reaches nodes on: not configurable.
        const admin = await t.call('PUT', `/api/v1/clusters/${env}/network_configuration`, { networks: [{ name: 'fuelweb_admin', cidr: '10.0.0.0/24' }] });
        assert.equal(admin.statusCode, 400);
        assert.equal(admin.json().details.findings[0].code, 'network/not-configurable');
        assert.equal(admin.json().details.findings[0].field, 'fuelweb_admin.cidr');
        const unknown = await t.call('PUT', `/api/v1/clusters/${env}/network_configuration`, { networks: [{ name: 'nope', cidr: '10.0.0.0/24' }] });
        assert.equal(unknown.statusCode, 400);
        assert.equal(unknown.json().details.findings[0].code, 'network/unknown');
        const badVlan = await t.call('PUT', `/api/v1/clusters/${env}/network_configuration`, { networks: [{ name: 'storage', vlan_start: 5000 }] });
        assert.equal(badVlan.statusCode, 400);
        // An MTU outside 576-9216: refused naming the network's field and what to use.
        const badMtu = await t.call('PUT', `/api/v1/clusters/${env}/network_configuration`, { networks: [{ name: 'storage', mtu: 65000 }] });
        assert.equal(badMtu.statusCode, 400, badMtu.body);
        assert.deepEqual(badMtu.json().details.findings.map((f: { code: string; field: string }) => [f.code, f.field]), [['network/invalid-mtu', 'storage.mtu']]);
        assert.match(badMtu.json().details.hint, /576 to 9216/);

        // A good change is saved, with the nodes' addresses moved into the new CIDR.
        const ids = await assign(t, env, [['controller'], ['compute']]);
        const before = (await t.call('GET', `/api/v1/nodes/${ids[0]}`)).json().network_data;
        assert.match(before.find((d: { name: string }) => d.name === 'storage').ip, /^192\.168\.1\.\d+\/24$/);
        const dry = await t.call('PUT', `/api/v1/clusters/${env}/network_configuration`, { networks: [{ name: 'storage', cidr: '10.10.0.0/24', ip_ranges: [['10.10.0.10', '10.10.0.50']] }], dry_run: true });
        assert.equal(dry.statusCode, 200, dry.body);
        assert.equal(byName((await t.call('GET', `/api/v1/clusters/${env}/network_configuration`)).json(), 'storage').cidr, '192.168.1.0/24');
        const put = await t.call('PUT', `/api/v1/clusters/${env}/network_configuration`, { networks: [{ name: 'storage', cidr: '10.10.0.0/24', ip_ranges: [['10.10.0.10', '10.10.0.50']], vlan_start: 202, mtu: 9000 }] });
        assert.equal(put.statusCode, 200, put.body);
        assert.equal(put.json().saved, true);
        assert.equal(byName((await t.call('GET', `/api/v1/clusters/${env}/network_configuration`)).json(), 'storage').mtu, 9000);
        const after = (await t.call('GET', `/api/v1/nodes/${ids[0]}`)).json().network_data;
        const storage = after.find((d: { name: string }) => d.name === 'storage');
        assert.match(storage.ip, /^10\.10\.0\.\d+\/24$/);
        assert.equal(storage.vlan, 202);
        assert.equal(typeof storage.dev, 'string');
      } finally {
        await t.close();
      }
    });

    test('addresses: one per network a node needs, stable, public only where a role needs it, released when the node leaves; VIPs', async () => {
      const t = await testApp(engine);
      try {
        const env = await environment(t, 'addr');
        const [controller, compute] = await assign(t, env, [['controller'], ['compute']]);
        const dataOf = async (id: number) => (await t.call('GET', `/api/v1/nodes/${id}`)).json().network_data as Array<{ name: string; ip: string; vlan: number | null; dev: string; gateway: string | null }>;
        const c = await dataOf(controller);
        const k = await dataOf(compute);
        assert.deepEqual(c.map((d) => d.name).sort(), ['management', 'public', 'storage']);
        assert.deepEqual(k.map((d) => d.name).sort(), ['management', 'storage'], 'a compute has no public address (its role does not need one)');
        assert.equal(c.find((d) => d.name === 'public')!.gateway, '172.16.0.1');
        assert.notEqual(c.find((d) => d.name === 'management')!.ip, k.find((d) => d.name === 'management')!.ip);

        const vips = (await t.call('GET', `/api/v1/clusters/${env}/vips`)).json();
        assert.ok(vips.length >= 2, JSON.stringify(vips));
        const management = vips.find((v: { name: string }) => v.name === 'management');
        assert.equal(management.network, 'management');
        const held = new Set([...c, ...k].filter((d) => d.name === 'management').map((d) => d.ip.split('/')[0]));
        assert.ok(!held.has(management.ipaddr), 'a VIP never takes a node address');

        // More nodes: the first ones keep their addresses.
        await assign(t, env, [['compute'], ['compute']]);
        assert.deepEqual(await dataOf(controller), c);
        assert.deepEqual(await dataOf(compute), k);

        // A node leaving gives its addresses back: no node of the environment holds them any more.
        const out = await t.call('DELETE', `/api/v1/clusters/${env}/nodes`, { node_ids: [compute] });
        assert.ok([200, 202, 204].includes(out.statusCode), out.body);
        assert.deepEqual(await dataOf(compute), []);
        const freed = k.find((d) => d.name === 'management')!.ip;
        const left = (await t.call('GET', `/api/v1/clusters/${env}/nodes`)).json();
        for (const n of left) assert.ok(!(await dataOf(n.id)).some((d) => d.ip === freed), `${freed} is still held by node ${n.id}`);
      } finally {
        await t.close();
      }
    });

    test("a deployed node's addresses stay while its deletion graph runs and when it fails there, and go back to the ranges when it succeeded", async () => {
      const t = await testApp(engine);
      try {
        const env = await environment(t, 'leaving');
        const [kept, cleaned] = await assign(t, env, [['compute'], ['compute']]);
        const held = async (id: number) => (await t.call('GET', `/api/v1/nodes/${id}`)).json().network_data.map((d: { name: string; ip: string }) => `${d.name} ${d.ip}`).sort();
        const before = { kept: await held(kept), cleaned: await held(cleaned) };
        assert.equal(before.cleaned.length, 2, 'management and storage');
        // The end of the deletion run (real-deploy.ts decides it in the run's end transaction):
        // the graph broke on one node, succeeded on the other.
        await t.db.transaction((tx) => endRemoval(tx, env, { nodes: [kept, cleaned] }, new Set([cleaned])));
        assert.deepEqual(await held(kept), before.kept, 'a node whose deletion failed stays, with its addresses');
        assert.deepEqual(await held(cleaned), [], 'the cleaned node left with none');
        assert.equal((await t.call('GET', `/api/v1/nodes/${cleaned}`)).json().cluster_id, null);
        // Its addresses are free again: the next node takes the lowest, the cleaned node's own.
        const [next] = await assign(t, env, [['compute']]);
        assert.deepEqual(await held(next), before.cleaned);
      } finally {
        await t.close();
      }
    });

    test("a node's interfaces: Fuel's shape, editable, and the admin network stays where Hearth reaches the node", async () => {
      const t = await testApp(engine);
      try {
        const env = await environment(t, 'nics');
        const [id] = await assign(t, env, [['controller']]);
        const got = await t.call('GET', `/api/v1/nodes/${id}/interfaces`);
        assert.equal(got.statusCode, 200, got.body);
        const interfaces = got.json();
        assert.deepEqual(interfaces.map((i: { name: string }) => i.name), ['eth0', 'eth1', 'eth2']);
        assert.equal(interfaces[0].pxe, true);
        assert.ok(interfaces[0].assigned_networks.some((n: { name: string }) => n.name === 'fuelweb_admin'));
        const everyNetwork = interfaces.flatMap((i: { assigned_networks: Array<{ name: string }> }) => i.assigned_networks.map((n) => n.name)).sort();
        assert.deepEqual(everyNetwork, ['fuelweb_admin', 'management', 'public', 'storage']);

        // Management to eth2, sent back whole as GET gave it.
        const moved = interfaces.map((i: { name: string; assigned_networks: Array<{ name: string }> }) => ({
          ...i,
          assigned_networks: i.name === 'eth2' ? [...i.assigned_networks, { name: 'management' }] : i.assigned_networks.filter((n) => n.name !== 'management'),
        }));
        const put = await t.call('PUT', `/api/v1/nodes/${id}/interfaces`, moved);
        assert.equal(put.statusCode, 200, put.body);
        assert.ok(put.json().find((i: { name: string }) => i.name === 'eth2').assigned_networks.some((n: { name: string }) => n.name === 'management'));
        assert.equal((await t.call('GET', `/api/v1/nodes/${id}`)).json().network_data.find((d: { name: string }) => d.name === 'management').dev, 'eth2');

        const cut = await t.call('PUT', `/api/v1/nodes/${id}/interfaces`, [{ name: 'eth1', assigned_networks: [{ name: 'fuelweb_admin' }] }]);
        assert.equal(cut.statusCode, 400, cut.body);
        assert.equal(cut.json().details.findings[0].code, 'interface/admin-moved');
        assert.match(cut.json().message, /cut Hearth off/);
        const nic = await t.call('PUT', `/api/v1/nodes/${id}/interfaces`, [{ name: 'eth9', assigned_networks: [{ name: 'storage' }] }]);
        assert.equal(nic.statusCode, 400);
        assert.equal(nic.json().details.findings[0].code, 'interface/unknown');
        const free: number = (await t.call('POST', '/api/v1/nodes', { simulate: { count: 1 } })).json().ids[0];
        assert.equal((await t.call('GET', `/api/v1/nodes/${free}/interfaces`)).statusCode, 409);
      } finally {
        await t.close();
      }
    });
  });
}

describe('two servers on one PostgreSQL', { skip: testDatabaseUrl ? false : 'HEARTH_TEST_DATABASE_URL not set' }, () => {
  const TOKEN = 'networks-two-servers-token-0123456789';
  const work = mkdtempSync(join(tmpdir(), 'hearth-networks-'));
  const schema = `hearth_net_${randomBytes(5).toString('hex')}`;
  const servers: RunningServer[] = [];
  const call = async (server: RunningServer, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, json: (await res.json().catch(() => null)) as any };
  };

  before(async () => {
    servers.push(await startServer({ port: 0, dataDir: join(work, 'a'), databaseUrl: testDatabaseUrl!, schema, adminToken: TOKEN, bundledRelease, sweepMs: 60_000 }));
    servers.push(await startServer({ port: 0, dataDir: join(work, 'b'), databaseUrl: testDatabaseUrl!, schema, adminToken: TOKEN, bundledRelease, sweepMs: 60_000 }));
  });
  after(async () => {
    for (const s of servers) await s.close();
    const db = await openStore({ databaseUrl: testDatabaseUrl!, schema });
    await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('nodes added through both servers at once never share an address, and the database refuses a second holder', async () => {
    const [a, b] = servers;
    const release = (await call(a, 'GET', '/releases')).json[0].id;
    const env = (await call(a, 'POST', '/clusters', { name: 'shared', release_id: release, components: BASE })).json.id;
    const ids: number[] = (await call(a, 'POST', '/nodes', { simulate: { count: 40 } })).json.ids;
    // Twenty assignments of two nodes each, alternating servers, all at once.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 ? b : a, 'POST', `/clusters/${env}/nodes`, { assignments: [{ node_id: ids[2 * i], roles: ['compute'] }, { node_id: ids[2 * i + 1], roles: ['ceph-osd'] }] })));
    assert.deepEqual(answers.map((x) => x.status), answers.map(() => 200), JSON.stringify(answers.find((x) => x.status !== 200)?.json));
    const seen = new Map<string, number>();
    for (const id of ids) {
      const data = (await call(id % 2 ? a : b, 'GET', `/nodes/${id}`)).json.network_data as Array<{ name: string; ip: string }>;
      assert.deepEqual(data.map((d) => d.name).sort(), ['management', 'storage']);
      for (const d of data) {
        const key = `${d.name} ${d.ip}`;
        assert.equal(seen.get(key), undefined, `${key} given to node ${seen.get(key)} and node ${id}`);
        seen.set(key, id);
      }
    }

    // The constraint itself: a second holder of a stored address is refused by the database.
    const db = await openStore({ databaseUrl: testDatabaseUrl!, schema });
    try {
      const clash = await db
        .transaction(async (tx) => {
          await tx.query(`INSERT INTO network_addresses (cluster_id, network, ip, vip) VALUES ($1, 'storage', '192.168.1.250', 'extra-1')`, [env]);
          await tx.query(`INSERT INTO network_addresses (cluster_id, network, ip, vip) VALUES ($1, 'storage', '192.168.1.250', 'extra-2')`, [env]);
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      assert.equal(conflictFrom(clash)?.code, 'network/address-taken');
    } finally {
      await db.close();
    }
  });
});
