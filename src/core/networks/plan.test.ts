/**
 * The address plan, the interface mapping and the deployment data, as Nailgun's network manager
 * behaved (nailgun/test/unit/test_network_manager.py, test_orchestrator_serializer_90.py), and the
 * promises Hearth adds: the same plan gives the same addresses, none given twice, the admin
 * network stays on the SSH interface.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkInterfaceMapping, defaultInterfaces, legacyAddresses, networkMetadata, networkScheme, planAddresses, planVips, type AddressAssignment, type NetworkConfiguration, type NetworkRole, type NodeInterface } from './index.js';
import { defaultNetworkConfiguration } from './defaults.js';
import { fuelConfig, FUEL9_RELEASE } from './fixtures/fuel9.js';

const roles = { controller: { public_ip_required: true }, compute: {} };
const networkRoles: NetworkRole[] = [
  { id: 'public/vip', default_mapping: 'public', properties: { vip: [{ name: 'public', namespace: 'haproxy' }, { name: 'vrouter_pub', namespace: 'vrouter' }] } },
  { id: 'mgmt/vip', default_mapping: 'management', properties: { vip: [{ name: 'management', namespace: 'haproxy' }, { name: 'vrouter', namespace: 'vrouter' }] } },
  { id: 'management', default_mapping: 'management', properties: {} },
  { id: 'storage', default_mapping: 'storage', properties: {} },
  { id: 'ex', default_mapping: 'public', properties: {} },
  { id: 'fw-admin', default_mapping: 'fuelweb_admin', properties: {} },
  { id: 'mgmt/messaging', default_mapping: 'management', properties: {} },
  { id: 'neutron/mesh', default_mapping: 'private', properties: {} },
  // A plugin's network role on a network of its own, and one on management.
  { id: 'contrail/vrouter', default_mapping: 'contrail_data', properties: {}, plugin: 'contrail' },
  { id: 'elasticsearch', default_mapping: 'management', properties: {}, plugin: 'elasticsearch_kibana' },
];
const nodes = [
  { id: '10', roles: ['compute'] },
  { id: '2', roles: ['controller'] },
  { id: '1', roles: ['controller'] },
  { id: '3', roles: [] },
];
const ips = (addresses: readonly AddressAssignment[], network: string) => addresses.filter((a) => a.network === network).map((a) => `${a.node}=${a.ip}`);

test('addresses: lowest free first, nodes by id (2 before 10), public only for public_ip_required, none without roles', () => {
  const plan = planAddresses(fuelConfig(), nodes, [], { roles });
  assert.deepEqual(plan.findings, []);
  assert.deepEqual(ips(plan.addresses, 'public'), ['1=172.16.0.2', '2=172.16.0.3']);
  assert.deepEqual(ips(plan.addresses, 'management'), ['1=192.168.0.1', '2=192.168.0.2', '10=192.168.0.3']);
  assert.deepEqual(ips(plan.addresses, 'storage'), ['1=192.168.1.1', '2=192.168.1.2', '10=192.168.1.3']);
  assert.equal(plan.addresses.some((a) => a.node === '3'), false);
  // The same plan, nodes given in another order: the same addresses.
  assert.deepEqual(planAddresses(fuelConfig(), [...nodes].reverse(), [], { roles }).addresses, plan.addresses);
});

test('addresses: kept while in range, a new node takes the lowest free one, a gap is reused, an address outside the ranges is replaced', () => {
  const first = planAddresses(fuelConfig(), nodes, [], { roles }).addresses;
  // Node 1 left (its addresses released); node 11 joins; node 2's storage range moved away from its address.
  const config = fuelConfig();
  config.networks.find((n) => n.name === 'storage')!.ip_ranges = [['192.168.1.2', '192.168.1.254']];
  const taken = first.filter((a) => a.node !== '1');
  const next = planAddresses(config, [nodes[0], nodes[1], { id: '11', roles: ['compute'] }], taken, { roles }).addresses;
  assert.deepEqual(ips(next, 'management'), ['2=192.168.0.2', '10=192.168.0.3', '11=192.168.0.1']);
  assert.deepEqual(ips(next, 'storage'), ['2=192.168.1.2', '10=192.168.1.3', '11=192.168.1.4']);
  // Only 2.2 is in the new range; node 2 keeps it only because it still lies there.
  assert.deepEqual(ips(next, 'public'), ['2=172.16.0.3']);
});

test('addresses: never two the same, even when stored data has a duplicate; VIPs and other nodes are never handed out', () => {
  const taken = [
    { node: '1', network: 'management', ip: '192.168.0.9' },
    { node: '2', network: 'management', ip: '192.168.0.9' },
    { network: 'management', ip: '192.168.0.1', name: 'vrouter' },
    { node: '99', network: 'management', ip: '192.168.0.2' },
  ];
  const plan = planAddresses(fuelConfig(), nodes, taken, { roles });
  assert.deepEqual(ips(plan.addresses, 'management'), ['1=192.168.0.9', '2=192.168.0.3', '10=192.168.0.4']);
  const all = plan.addresses.map((a) => `${a.network}/${a.ip}`);
  assert.equal(new Set(all).size, all.length);
});

test('addresses: the gateway is never given; a full network says how many nodes went without', () => {
  const config = fuelConfig();
  const pub = config.networks.find((n) => n.name === 'public')!;
  pub.ip_ranges = [['172.16.0.1', '172.16.0.2']];
  const many = [1, 2, 3].map((i) => ({ id: String(i), roles: ['controller'] }));
  const plan = planAddresses(config, many, [], { roles });
  assert.deepEqual(ips(plan.addresses, 'public'), ['1=172.16.0.2']);
  assert.deepEqual(plan.findings.map((f) => [f.code, f.networks]), [['network/out-of-addresses', ['public']]]);
  assert.match(plan.findings[0].message, /no free address left for 2 nodes/);
});

test('addresses: networksNeeded overrides the roles', () => {
  const plan = planAddresses(fuelConfig(), [{ id: '5', roles: ['compute'], networksNeeded: ['public'] }], [], { roles });
  assert.deepEqual(plan.addresses, [{ node: '5', network: 'public', ip: '172.16.0.2' }]);
});

test('VIPs: one per request on its role network, kept across plans, user-defined kept anywhere, duplicates named, absent roles skipped', () => {
  const plan = planVips(fuelConfig(), networkRoles);
  assert.deepEqual(plan.vips.map((v) => [v.name, v.network_role, v.namespace, v.ip]), [
    ['public', 'public/vip', 'haproxy', '172.16.0.2'],
    ['vrouter_pub', 'public/vip', 'vrouter', '172.16.0.3'],
    ['management', 'mgmt/vip', 'haproxy', '192.168.0.1'],
    ['vrouter', 'mgmt/vip', 'vrouter', '192.168.0.2'],
  ]);
  assert.deepEqual(plan.vips[0].node_roles, ['controller', 'primary-controller']);
  const moved = [{ ...plan.vips[0], ip: '172.16.0.50' }, { ...plan.vips[2], ip: '10.0.0.1', is_user_defined: true }];
  const again = planVips(fuelConfig(), networkRoles, moved).vips;
  assert.deepEqual(again.map((v) => [v.name, v.ip, v.is_user_defined]), [
    ['public', '172.16.0.50', false],
    ['vrouter_pub', '172.16.0.2', false],
    ['management', '10.0.0.1', true],
    ['vrouter', '192.168.0.1', false],
  ]);
  const twice = planVips(fuelConfig(), [...networkRoles, { id: 'plugin/vip', default_mapping: 'storage', properties: { vip: [{ name: 'public' }] }, plugin: 'p' }]);
  assert.deepEqual(twice.findings.map((f) => f.code), ['network/duplicate-vip-name']);
  assert.match(twice.findings[0].hint, /plugin p's network role plugin\/vip/);
  assert.deepEqual(planVips(fuelConfig(), networkRoles, [], { presentRoles: ['compute'] }).vips, []);
});

const facts = [{ name: 'eth0', mac: '52:54:00:00:00:01', driver: 'virtio_net', bus_info: '0000:00:03.0' }, { name: 'eth1', mac: '52:54:00:00:00:02' }, { name: 'eth2' }];
const names = (interfaces: readonly NodeInterface[]) => interfaces.map((i) => `${i.name}:${i.assigned_networks.map((a) => a.name).join(',')}`);

test("interfaces: Nailgun's default, by map_priority onto the interfaces in order, one untagged network each, admin on the SSH interface", () => {
  const config = fuelConfig();
  assert.deepEqual(names(defaultInterfaces(facts, config.networks, 'eth0')), ['eth0:fuelweb_admin,management,storage,private', 'eth1:public', 'eth2:']);
  // SSH on eth1: the admin network follows it, public takes the first interface.
  const other = defaultInterfaces(facts, config.networks, 'eth1');
  assert.deepEqual(names(other), ['eth0:public,management,storage,private', 'eth1:fuelweb_admin', 'eth2:']);
  assert.equal(other[1].pxe, true);
  assert.deepEqual(checkInterfaceMapping(other, config.networks, 'eth1'), []);
  // One interface: public cannot be untagged beside the SSH address; the check says so.
  const one = defaultInterfaces([{ name: 'ens3' }], config.networks, 'ens3');
  assert.deepEqual(checkInterfaceMapping(one, config.networks, 'ens3').map((f) => f.code), ['interface/untagged-on-admin']);
  // The SSH interface missing from the facts: the admin network goes nowhere else, and the check says why.
  const noSsh = defaultInterfaces(facts, config.networks, 'br0');
  assert.equal(noSsh.some((i) => i.assigned_networks.some((a) => a.name === 'fuelweb_admin')), false);
  assert.deepEqual(checkInterfaceMapping(noSsh, config.networks, 'br0').map((f) => f.code), ['interface/admin-interface-missing']);
  // With public tagged, one interface carries everything.
  const tagged = fuelConfig();
  tagged.networks.find((n) => n.name === 'public')!.vlan_start = 100;
  const single = defaultInterfaces([{ name: 'ens3' }], tagged.networks, 'ens3');
  assert.deepEqual(names(single), ['ens3:fuelweb_admin,public,management,storage,private']);
  assert.deepEqual(checkInterfaceMapping(single, tagged.networks, 'ens3'), []);
});

test('interfaces: a mapping that would cut Hearth off the node is refused; unknown, doubled and missing networks are named', () => {
  const config = fuelConfig();
  const map = (spec: Record<string, string[]>): NodeInterface[] => Object.entries(spec).map(([name, nets]) => ({ name, type: 'ether', assigned_networks: nets.map((n) => ({ name: n })) }));
  const moved = checkInterfaceMapping(map({ eth0: ['management'], eth1: ['fuelweb_admin', 'public', 'storage', 'private'] }), config.networks, 'eth0', { node: '4' });
  assert.deepEqual(moved.map((f) => [f.code, f.interface]), [['interface/untagged-intersection', 'eth1'], ['interface/admin-moved', 'eth0']]);
  assert.match(moved[1].message, /must stay on eth0, which holds its SSH address \(it is on eth1\)/);
  const wrong = checkInterfaceMapping(map({ eth0: ['fuelweb_admin', 'management', 'nosuch'], eth1: ['public', 'management', 'private'], eth9: [] }), config.networks, 'eth0', { facts });
  assert.deepEqual(wrong.map((f) => f.code), ['interface/unknown-network', 'interface/unknown-interface', 'interface/network-twice', 'interface/network-unassigned']);
});

const configured = () => {
  const config = fuelConfig();
  const vips = planVips(config, networkRoles).vips;
  const plan = planAddresses(config, nodes, vips, { roles });
  return { config, vips, addresses: plan.addresses };
};

test("network_scheme (VLAN): Fuel 9's bridges, ports, patches, endpoints and roles, plugin roles included", () => {
  const { config, addresses } = configured();
  const interfaces = defaultInterfaces(facts, config.networks, 'eth0');
  const scheme = networkScheme(config, { id: '1', roles: ['controller'], interfaces, adminAddress: '10.77.0.11/24' }, addresses, networkRoles);
  assert.deepEqual([scheme.version, scheme.provider], ['1.1', 'lnx']);
  assert.deepEqual(scheme.transformations, [
    { action: 'add-br', name: 'br-fw-admin' },
    { action: 'add-br', name: 'br-mgmt' },
    { action: 'add-br', name: 'br-storage' },
    { action: 'add-br', name: 'br-ex' },
    { action: 'add-br', name: 'br-floating', provider: 'ovs' },
    { action: 'add-patch', bridges: ['br-floating', 'br-ex'], provider: 'ovs', mtu: 65000 },
    { action: 'add-br', name: 'br-prv', provider: 'ovs' },
    { action: 'add-patch', bridges: ['br-prv', 'br-fw-admin'], provider: 'ovs', mtu: 65000 },
    { action: 'add-port', name: 'eth0', bridge: 'br-fw-admin' },
    { action: 'add-port', name: 'eth0.102', bridge: 'br-storage' },
    { action: 'add-port', name: 'eth0.101', bridge: 'br-mgmt' },
    { action: 'add-port', name: 'eth1', bridge: 'br-ex' },
  ]);
  assert.deepEqual(scheme.endpoints['br-fw-admin'], { IP: ['10.77.0.11/24'] });
  assert.deepEqual(scheme.endpoints['br-mgmt'], { IP: ['192.168.0.3/24'] });
  assert.deepEqual(scheme.endpoints['br-ex'], { IP: ['172.16.0.4/24'], vendor_specific: { provider_gateway: '172.16.0.1' }, gateway: '172.16.0.1' });
  assert.deepEqual([scheme.endpoints['br-prv'], scheme.endpoints['br-floating']], [{ IP: 'none' }, { IP: 'none' }]);
  assert.deepEqual(scheme.roles, {
    'public/vip': 'br-ex', 'mgmt/vip': 'br-mgmt', management: 'br-mgmt', storage: 'br-storage', ex: 'br-ex', 'fw-admin': 'br-fw-admin', 'mgmt/messaging': 'br-mgmt', elasticsearch: 'br-mgmt', 'neutron/floating': 'br-floating', 'neutron/private': 'br-prv',
  });
  assert.deepEqual(scheme.interfaces.eth0, { vendor_specific: { driver: 'virtio_net', bus_info: '0000:00:03.0' } });
});

test("network_scheme: a network's MTU goes on its VLAN subinterface's port, the interface takes the largest of its networks'", () => {
  const { config, addresses } = configured();
  config.networks.find((n) => n.name === 'storage')!.mtu = 9000;
  config.networks.find((n) => n.name === 'management')!.mtu = 1500;
  const interfaces = defaultInterfaces(facts, config.networks, 'eth0');
  const scheme = networkScheme(config, { id: '1', roles: ['controller'], interfaces, adminAddress: '10.77.0.11/24' }, addresses, networkRoles);
  const ports = scheme.transformations.filter((t) => t.action === 'add-port');
  assert.deepEqual(ports, [
    { action: 'add-port', name: 'eth0', bridge: 'br-fw-admin', mtu: 9000 },
    { action: 'add-port', name: 'eth0.102', bridge: 'br-storage', mtu: 9000 },
    { action: 'add-port', name: 'eth0.101', bridge: 'br-mgmt', mtu: 1500 },
    { action: 'add-port', name: 'eth1', bridge: 'br-ex' },
  ]);
  assert.deepEqual(scheme.interfaces.eth0, { mtu: 9000, vendor_specific: { driver: 'virtio_net', bus_info: '0000:00:03.0' } });
  assert.equal(scheme.interfaces.eth1.mtu, undefined);
});

test('network_scheme: a compute has no br-ex and keeps its admin gateway; tunnels get br-mesh; a plugin network gets its own bridge', () => {
  const config = defaultNetworkConfiguration({ networks_metadata: { neutron: { ...FUEL9_RELEASE.networks_metadata.neutron, networks: [...FUEL9_RELEASE.networks_metadata.neutron.networks.filter((n) => n.name !== 'private'), { name: 'private', seg_type: 'tun', cidr: '192.168.2.0/24', vlan_start: 103, use_gateway: false, notation: 'cidr', map_priority: 2 }, { name: 'contrail_data', cidr: '10.100.0.0/24', vlan_start: 110, use_gateway: false, notation: 'cidr', map_priority: 3 }] } } }, { segmentationType: 'tun' });
  const plan = planAddresses(config, [{ id: '10', roles: ['compute'] }], [], { roles });
  const interfaces = defaultInterfaces(facts, config.networks.filter((n) => n.name !== 'public'), 'eth0');
  const scheme = networkScheme(config, { id: '10', roles: ['compute'], interfaces, adminAddress: '10.77.0.20/24', adminGateway: '10.77.0.1' }, plan.addresses, networkRoles);
  assert.equal(scheme.endpoints['br-ex'], undefined);
  assert.equal(scheme.endpoints['br-fw-admin'].gateway, '10.77.0.1');
  assert.deepEqual(scheme.endpoints['br-mesh'], { IP: ['192.168.2.1/24'] });
  assert.equal(scheme.roles['neutron/mesh'], 'br-mesh');
  assert.equal(scheme.roles['neutron/private'], undefined);
  assert.equal(scheme.roles['contrail/vrouter'], 'br-contrail-dat');
  assert.deepEqual(scheme.endpoints['br-contrail-dat'], { IP: ['10.100.0.1/24'] });
  assert.deepEqual(scheme.transformations[0], { action: 'add-br', name: 'br-contrail-dat' });
  assert.ok(scheme.transformations.some((t) => t.action === 'add-port' && t.name === 'eth0.110' && t.bridge === 'br-contrail-dat'));
  assert.ok(scheme.transformations.some((t) => t.action === 'add-br' && t.name === 'br-mesh'));
});

test('network_metadata: every node by name with its address per network role, and the VIPs', () => {
  const { config, vips, addresses }: { config: NetworkConfiguration; vips: ReturnType<typeof planVips>['vips']; addresses: AddressAssignment[] } = configured();
  const meta = networkMetadata(config, [{ id: '1', roles: ['primary-controller'], interfaces: [], adminAddress: '10.77.0.11/24' }, { id: '10', name: 'compute-a', roles: ['compute'], interfaces: [] }], addresses, vips, networkRoles);
  assert.deepEqual(Object.keys(meta.nodes), ['node-1', 'compute-a']);
  assert.deepEqual(meta.nodes['node-1'].network_roles, {
    'public/vip': '172.16.0.4', 'mgmt/vip': '192.168.0.3', management: '192.168.0.3', storage: '192.168.1.1', ex: '172.16.0.4', 'fw-admin': '10.77.0.11', 'mgmt/messaging': '192.168.0.3', elasticsearch: '192.168.0.3', 'neutron/floating': null, 'neutron/private': null,
  });
  assert.equal(meta.nodes['compute-a'].network_roles.ex, undefined);
  assert.deepEqual(meta.nodes['node-1'].node_roles, ['primary-controller']);
  assert.deepEqual(meta.vips.management, { network_role: 'mgmt/vip', namespace: 'haproxy', ipaddr: '192.168.0.1', is_user_defined: false, node_roles: ['controller', 'primary-controller'] });
  assert.deepEqual(Object.keys(meta.vips), ['public', 'vrouter_pub', 'management', 'vrouter']);
});

const numRuns = (n: number) => Number(process.env.HEARTH_PROPERTY_RUNS ?? n);

test('property: whatever is stored, the plan gives every node one address per needed network, inside the ranges, never one taken or given twice, the same for any node order', () => {
  const config = fuelConfig();
  // A small management range so that stored addresses collide often.
  config.networks.find((n) => n.name === 'management')!.ip_ranges = [['192.168.0.10', '192.168.0.40']];
  const inRange = (network: string, ip: string) => {
    const n = Number(ip.split('.')[3]);
    return network === 'management' ? n >= 10 && n <= 40 : network === 'public' ? n >= 2 && n <= 126 : n >= 1 && n <= 254;
  };
  const node = fc.record({ id: fc.integer({ min: 1, max: 30 }).map(String), roles: fc.constantFrom(['controller'], ['compute'], [] as string[]) });
  const stored = fc.record({ node: fc.option(fc.integer({ min: 1, max: 40 }).map(String), { nil: undefined }), network: fc.constantFrom('management', 'storage', 'public'), ip: fc.integer({ min: 0, max: 60 }) });
  fc.assert(
    fc.property(fc.uniqueArray(node, { selector: (n) => n.id, maxLength: 25 }), fc.array(stored, { maxLength: 40 }), (nodes, raw) => {
      const taken = raw.map((t) => ({ ...(t.node ? { node: t.node } : {}), network: t.network, ip: `${t.network === 'public' ? '172.16.0' : t.network === 'management' ? '192.168.0' : '192.168.1'}.${t.ip}` }));
      const plan = planAddresses(config, nodes, taken, { roles });
      const planned = new Set(nodes.map((n) => n.id));
      const reserved = new Set(taken.filter((t) => !t.node || !planned.has(t.node)).map((t) => `${t.network}/${t.ip}`));
      const seen = new Set<string>();
      for (const a of plan.addresses) {
        const key = `${a.network}/${a.ip}`;
        assert.ok(!seen.has(key), `${key} given twice`);
        assert.ok(!reserved.has(key), `${key} is held by another node or a VIP`);
        assert.ok(inRange(a.network, a.ip), `${key} is outside the ranges`);
        seen.add(key);
      }
      const short = plan.findings.length > 0;
      for (const n of nodes) {
        const want = n.roles.length === 0 ? [] : n.roles[0] === 'controller' ? ['public', 'management', 'storage'] : ['management', 'storage'];
        const got = plan.addresses.filter((a) => a.node === n.id).map((a) => a.network);
        if (!short) assert.deepEqual(got, want);
        // A stored address still valid and free is kept.
        for (const t of taken) {
          if (t.node !== n.id || !want.includes(t.network) || !inRange(t.network, t.ip) || reserved.has(`${t.network}/${t.ip}`)) continue;
          if (taken.some((o) => o !== t && o.node !== t.node && o.network === t.network && o.ip === t.ip)) continue;
          if (taken.some((o) => o !== t && o.node === t.node && o.network === t.network)) continue;
          assert.ok(plan.addresses.some((a) => a.node === n.id && a.network === t.network && a.ip === t.ip), `node ${n.id} lost ${t.ip} on ${t.network}`);
        }
      }
      assert.deepEqual(planAddresses(config, [...nodes].reverse(), taken, { roles }), plan);
    }),
    { numRuns: numRuns(300) },
  );
});

test('a node without interface facts still gets its endpoints and roles; the legacy nodes list reads its addresses by render_addr_mask', () => {
  const { config, addresses } = configured();
  const scheme = networkScheme(config, { id: '2', roles: ['controller'], interfaces: [], adminAddress: '10.77.0.12/24' }, addresses, networkRoles);
  assert.deepEqual(Object.keys(scheme.endpoints).sort(), ['br-ex', 'br-floating', 'br-fw-admin', 'br-mgmt', 'br-storage']);
  assert.equal(scheme.roles['mgmt/messaging'], 'br-mgmt');
  assert.equal(scheme.transformations.some((t) => t.action === 'add-port'), false);
  assert.deepEqual(legacyAddresses(config, '2', addresses), { public_address: '172.16.0.5', public_netmask: '255.255.255.0', internal_address: '192.168.0.4', internal_netmask: '255.255.255.0', storage_address: '192.168.1.2', storage_netmask: '255.255.255.0' });
});
