/**
 * The checks Nailgun's NetworkCheck made (nailgun/test/unit/test_network_check.py), for every
 * network rather than public alone: each bad configuration gives its finding, naming the network
 * and the field to change; a good one gives none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConfiguration, checkNetworks, type NetworkConfiguration, type NetworkRole, type NodeInterface } from './index.js';
import { fuelConfig } from './fixtures/fuel9.js';

const edit = (change: (c: NetworkConfiguration) => void): NetworkConfiguration => {
  const c = fuelConfig();
  change(c);
  return c;
};
const net = (c: NetworkConfiguration, name: string) => c.networks.find((n) => n.name === name)!;
const codes = (findings: ReadonlyArray<{ code: string }>) => findings.map((f) => f.code).sort();

test('the default configuration has no finding', () => {
  assert.deepEqual(checkConfiguration(fuelConfig()), []);
});

test('overlapping CIDRs name both networks, for every pair (the admin network has none)', () => {
  const findings = checkConfiguration(edit((c) => (net(c, 'storage').cidr = '192.168.0.128/25')));
  const overlap = findings.filter((f) => f.code === 'network/overlapping-cidrs');
  assert.equal(overlap.length, 1);
  assert.deepEqual(overlap[0].networks, ['management', 'storage']);
  assert.match(overlap[0].message, /management \(192\.168\.0\.0\/24\) and storage \(192\.168\.0\.128\/25\) overlap/);
  assert.ok(overlap[0].hint);
});

test('ranges: outside the CIDR, overlapping, holding the network or broadcast address, backwards (every network, not only public)', () => {
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'storage').ip_ranges = [['192.168.1.10', '192.168.2.20']])))), ['network/range-outside-cidr']);
  const overlapping = checkConfiguration(edit((c) => (net(c, 'management').ip_ranges = [['192.168.0.10', '192.168.0.50'], ['192.168.0.40', '192.168.0.60']])));
  assert.deepEqual(codes(overlapping), ['network/ranges-overlap']);
  assert.equal(overlapping[0].field, 'management.ip_ranges');
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'storage').ip_ranges = [['192.168.1.0', '192.168.1.9']])))), ['network/range-includes-network-or-broadcast']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'storage').ip_ranges = [['192.168.1.9', '192.168.1.2']])))), ['network/invalid-range']);
});

test('gateway: outside its CIDR, inside a range, the broadcast address, missing where the network needs one', () => {
  const outside = checkConfiguration(edit((c) => (net(c, 'public').gateway = '172.17.0.1')));
  assert.deepEqual(codes(outside), ['network/gateway-outside-cidr']);
  assert.deepEqual([outside[0].networks, outside[0].field], [['public'], 'public.gateway']);
  const inRange = checkConfiguration(edit((c) => (net(c, 'public').gateway = '172.16.0.5')));
  assert.deepEqual(codes(inRange), ['network/gateway-in-range']);
  assert.match(inRange[0].message, /172\.16\.0\.5 is inside its range 172\.16\.0\.2-172\.16\.0\.126/);
  // Nailgun checked this for public only; a management gateway in its range is as wrong.
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'management').gateway = '192.168.0.1')))), ['network/gateway-in-range']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'public').gateway = '172.16.0.255')))), ['network/gateway-network-or-broadcast']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'public').gateway = null)))), ['network/gateway-missing']);
});

test('CIDRs Nailgun refused: host bits set, loopback, multicast, unreadable', () => {
  const hostBits = checkConfiguration(edit((c) => (net(c, 'storage').cidr = '192.168.1.5/24')));
  assert.deepEqual(codes(hostBits), ['network/cidr-host-bits']);
  assert.match(hostBits[0].hint, /192\.168\.1\.0\/24/);
  assert.ok(codes(checkConfiguration(edit((c) => { net(c, 'storage').cidr = '127.0.0.0/24'; net(c, 'storage').ip_ranges = [['127.0.0.1', '127.0.0.254']]; }))).includes('network/reserved-space'));
  assert.ok(codes(checkConfiguration(edit((c) => { net(c, 'storage').cidr = '239.0.0.0/24'; net(c, 'storage').ip_ranges = [['239.0.0.1', '239.0.0.254']]; }))).includes('network/reserved-space'));
  assert.ok(codes(checkConfiguration(edit((c) => (net(c, 'storage').cidr = '192.168.1/24')))).includes('network/invalid-cidr'));
});

test('VLANs: out of 2-4094, inside the Neutron private VLAN range, a broken private range', () => {
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'storage').vlan_start = 4095)))), ['network/vlan-out-of-range']);
  const clash = checkConfiguration(edit((c) => (net(c, 'storage').vlan_start = 1010)));
  assert.deepEqual(codes(clash), ['network/vlan-in-private-range']);
  assert.deepEqual(clash[0].networks, ['storage', 'private']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => (c.networking_parameters.vlan_range = [1030, 1000])))), ['network/invalid-vlan-range']);
});

test('floating ranges: outside public, overlapping public ranges, holding the gateway, overlapping another network, overlapping each other', () => {
  const outside = checkConfiguration(edit((c) => (c.networking_parameters.floating_ranges = [['172.16.1.10', '172.16.1.20']])));
  assert.deepEqual(codes(outside), ['network/floating-outside-public']);
  assert.equal(outside[0].field, 'networking_parameters.floating_ranges');
  assert.deepEqual(codes(checkConfiguration(edit((c) => (c.networking_parameters.floating_ranges = [['172.16.0.100', '172.16.0.140']])))), ['network/floating-overlaps-public-range']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => { c.networking_parameters.floating_ranges = [['172.16.0.130', '172.16.0.254']]; net(c, 'public').gateway = '172.16.0.200'; }))), ['network/gateway-in-range']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => { c.networking_parameters.floating_ranges = [['172.16.0.130', '172.16.0.140'], ['172.16.0.135', '172.16.0.150']]; }))), ['network/ranges-overlap']);
  // A floating range inside public whose CIDR overlaps storage: both findings.
  const both = checkConfiguration(edit((c) => { net(c, 'storage').cidr = '172.16.0.128/25'; net(c, 'storage').ip_ranges = [['172.16.0.129', '172.16.0.254']]; }));
  assert.ok(codes(both).includes('network/floating-overlaps-network'));
  assert.ok(codes(both).includes('network/overlapping-cidrs'));
});

test("Neutron's internal network and DNS servers", () => {
  assert.deepEqual(codes(checkConfiguration(edit((c) => (c.networking_parameters.internal_gateway = '10.0.0.1')))), ['network/gateway-outside-cidr']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => (c.networking_parameters.internal_gateway = '192.168.111.0')))), ['network/gateway-network-or-broadcast']);
  assert.deepEqual(codes(checkConfiguration(edit((c) => (c.networking_parameters.dns_nameservers = ['8.8.8.8', '8.8.8.8'])))), ['network/duplicate-dns']);
});

const controllers: NetworkRole[] = [
  { id: 'public/vip', default_mapping: 'public', properties: { vip: [{ name: 'public' }, { name: 'vrouter_pub' }] } },
  { id: 'mgmt/vip', default_mapping: 'management', properties: { vip: [{ name: 'management' }, { name: 'vrouter' }] } },
];
const roles = { controller: { public_ip_required: true }, compute: {} };

test('too few addresses: the nodes and VIPs of every network (Nailgun counted public only)', () => {
  // Nailgun's test: a public range of 3 addresses for 3 controllers and 2 VIPs.
  const small = edit((c) => (net(c, 'public').ip_ranges = [['172.16.0.2', '172.16.0.4']]));
  const nodes = [1, 2, 3].map((i) => ({ id: String(i), roles: ['controller'] }));
  const findings = checkNetworks(small, { nodes, roles, networkRoles: controllers });
  assert.deepEqual(codes(findings), ['network/too-few-addresses']);
  assert.match(findings[0].message, /public has 3 addresses in its ranges, and needs 5: 3 nodes and 2 VIPs/);
  // Storage as a /29 (6 host addresses) for 7 computes: Nailgun never said so before the deployment.
  const storage = edit((c) => { net(c, 'storage').cidr = '192.168.1.0/29'; net(c, 'storage').ip_ranges = [['192.168.1.1', '192.168.1.6']]; });
  const computes = [1, 2, 3, 4, 5, 6, 7].map((i) => ({ id: String(i), roles: ['compute'] }));
  assert.deepEqual(checkNetworks(storage, { nodes: computes, roles }).map((f) => [f.code, f.networks]), [['network/too-few-addresses', ['storage']]]);
  // Computes need no public address: a tiny public range is enough for them.
  assert.deepEqual(checkNetworks(small, { nodes: computes, roles }), []);
});

test("a node's SSH address inside another network is found (Nailgun's admin network intersection)", () => {
  const findings = checkNetworks(fuelConfig(), { nodes: [{ id: '3', roles: ['compute'] }], roles, taken: [{ node: '3', network: 'fuelweb_admin', ip: '192.168.1.20' }] });
  assert.deepEqual(findings.map((f) => [f.code, f.node, f.networks]), [['network/overlaps-admin', '3', ['storage', 'fuelweb_admin']]]);
});

test('per node and interface: two networks with one VLAN, two untagged networks, public untagged beside the SSH address', () => {
  const config = edit((c) => (net(c, 'storage').vlan_start = 101));
  const mapping = (eth0: string[], eth1: string[]): NodeInterface[] => [
    { name: 'eth0', type: 'ether', pxe: true, assigned_networks: eth0.map((name) => ({ name })) },
    { name: 'eth1', type: 'ether', assigned_networks: eth1.map((name) => ({ name })) },
  ];
  const node = (interfaces: NodeInterface[]) => ({ id: '7', roles: ['controller'], interfaces, adminInterface: 'eth0' });
  const same = checkNetworks(config, { nodes: [node(mapping(['fuelweb_admin', 'public'], ['management', 'storage', 'private']))], roles }).filter((f) => f.code.startsWith('interface/'));
  assert.deepEqual(same.map((f) => [f.code, f.node, f.interface, f.networks]), [
    ['interface/untagged-on-admin', '7', 'eth0', ['fuelweb_admin', 'public']],
    ['interface/same-vlan', '7', 'eth1', ['management', 'storage']],
  ]);
  // A node whose interfaces are not known yet has no mapping to check.
  assert.deepEqual(checkNetworks(config, { nodes: [node([])], roles }).filter((f) => f.code.startsWith('interface/')), []);
  // The same VLAN on different interfaces is fine (Nailgun checked per interface).
  assert.deepEqual(checkNetworks(config, { nodes: [node(mapping(['fuelweb_admin', 'management'], ['public', 'storage', 'private']))], roles }), []);
});

test('an MTU outside 576-9216 is named with its field; none (the interfaces\' own) and jumbo frames pass', () => {
  const found = checkConfiguration(edit((c) => (net(c, 'storage').mtu = 65000)));
  assert.deepEqual(found.map((f) => [f.code, f.field, f.message]), [['network/invalid-mtu', 'storage.mtu', "network storage's MTU 65000 is outside 576-9216"]]);
  assert.match(found[0].hint, /9000/);
  assert.deepEqual(codes(checkConfiguration(edit((c) => (net(c, 'management').mtu = 1500.5)))), ['network/invalid-mtu']);
  assert.deepEqual(checkConfiguration(edit((c) => { net(c, 'storage').mtu = 9000; net(c, 'management').mtu = null; })), []);
});
