/**
 * `hearth env networks` and `hearth node interfaces` through the built bin against a real `hearth
 * serve` (issue 27): the networks with the checks' verdict, --json in the API's shape, --set saving
 * a field and an error refused (non-zero status, naming the networks, nothing saved), a node's
 * interfaces moved with --assign, the admin network kept where Hearth reaches the node, and `node
 * show` printing the node's addresses.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiOf, cliOf, startServer, type RunningServer } from '../support/serve.js';

describe('hearth env networks and node interfaces (the built bin)', { timeout: 180_000 }, () => {
  let server: RunningServer;
  let node: number;
  const hearth = cliOf(() => server);
  const api = apiOf(() => server);

  before(async () => {
    server = await startServer();
    const [release] = await api<Array<{ id: number }>>('GET', '/releases');
    const catalog = await api<Array<{ name: string; default?: boolean }>>('GET', `/releases/${release.id}/components`);
    const env = await api<{ id: number }>('POST', '/clusters', { name: 'nets-cli', release_id: release.id, components: catalog.filter((c) => c.default).map((c) => c.name) });
    const { ids } = await api<{ ids: number[] }>('POST', '/nodes', { simulate: { count: 1, prefix: 'wired' } });
    node = ids[0];
    await api('POST', `/clusters/${env.id}/nodes`, { assignments: [{ node_id: node, roles: ['controller'] }] });
  });
  after(async () => {
    await server?.stop();
  });

  test('env networks: show, --json, --set saved, an overlap refused', async () => {
    const json = hearth('env', 'networks', 'nets-cli', '--json');
    assert.equal(json.code, 0, json.err);
    const config = JSON.parse(json.out);
    const env = (await api<Array<{ id: number; name: string }>>('GET', '/clusters')).find((c) => c.name === 'nets-cli')!.id;
    assert.deepEqual(config, await api('GET', `/clusters/${env}/network_configuration`));

    const shown = hearth('env', 'networks', 'nets-cli');
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /^network +cidr +vlan +gateway +ip ranges +mtu$/m);
    assert.match(shown.out, /^management +192\.168\.0\.0\/24 +101 /m);
    assert.match(shown.out, /^public +172\.16\.0\.0\/24 +untagged +172\.16\.0\.1 /m);
    assert.match(shown.out, /checks: no errors/);

    const set = hearth('env', 'networks', 'nets-cli', '--set', 'storage.vlan_start=202', '--set', 'storage.cidr=10.20.30.0/24', '--set', 'storage.ip_ranges=10.20.30.10-10.20.30.99');
    assert.equal(set.code, 0, set.err + set.out);
    assert.match(set.out, /^storage +10\.20\.30\.0\/24 +202 +- +10\.20\.30\.10-10\.20\.30\.99 +-$/m);
    assert.match(set.out, /saved configuration/);

    const clash = hearth('env', 'networks', 'nets-cli', '--set', 'storage.cidr=192.168.0.0/24', '--set', 'storage.ip_ranges=192.168.0.100-192.168.0.200');
    assert.notEqual(clash.code, 0);
    assert.match(clash.err, /management/);
    assert.match(clash.err, /storage/);
    assert.match(hearth('env', 'networks', 'nets-cli').out, /^storage +10\.20\.30\.0\/24 /m, 'nothing was saved');

    const bad = hearth('env', 'networks', 'nets-cli', '--set', 'storage=1');
    assert.equal(bad.code, 2, bad.err);
    assert.match(bad.err, /NETWORK\.FIELD=VALUE/);
  });

  test('node interfaces: --assign moves a network; the admin network stays; node show prints the addresses', async () => {
    const before = hearth('node', 'interfaces', String(node));
    assert.equal(before.code, 0, before.err);
    assert.match(before.out, /^eth0 .*fuelweb_admin.*yes \(Hearth reaches the node here\)$/m);
    const moved = hearth('node', 'interfaces', String(node), '--assign', 'storage=eth2');
    assert.equal(moved.code, 0, moved.err + moved.out);
    assert.match(moved.out, /^eth2 .*storage/m);
    const list = await api<Array<{ name: string; assigned_networks: Array<{ name: string }> }>>('GET', `/nodes/${node}/interfaces`);
    assert.deepEqual(list.filter((i) => i.assigned_networks.some((n) => n.name === 'storage')).map((i) => i.name), ['eth2']);

    const cut = hearth('node', 'interfaces', String(node), '--assign', 'fuelweb_admin=eth1');
    assert.notEqual(cut.code, 0);
    assert.match(cut.err, /cut Hearth off/);

    const show = hearth('node', 'show', String(node));
    assert.equal(show.code, 0, show.err);
    assert.match(show.out, /^addresses:$/m);
    assert.match(show.out, /^storage +10\.20\.30\.\d+\/24 +202 +eth2 +-$/m);
    assert.match(show.out, /^public +172\.16\.0\.\d+\/24 +untagged +eth\d +172\.16\.0\.1$/m);
  });
});
