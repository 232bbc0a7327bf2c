import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Network, NetworkConfiguration } from './model.js';
import { verifyPlanOf, type VerifyNode } from './verify-plan.js';
import { probePlan } from './verify.js';

const net = (name: string, vlan: number | null, gateway: string | null, meta: Partial<Network['meta']> = {}): Network => ({ name, cidr: null, gateway, vlan_start: vlan, ip_ranges: [], meta: { notation: 'cidr', map_priority: 1, use_gateway: gateway !== null, assign_vip: false, ...meta } });
const config = {
  networks: [net('fuelweb_admin', null, null), net('management', 101, null), net('storage', 102, null), net('public', 103, '172.16.0.1'), net('private', null, null, { neutron_vlan_range: true })],
  networking_parameters: {},
} as unknown as NetworkConfiguration;
const node = (id: string, roles: string[], addresses: Record<string, string>): VerifyNode => ({
  id,
  name: `node-${id}`,
  roles,
  adminAddress: `10.0.0.${id}/24`,
  addresses,
  interfaces: [
    { name: 'eth0', type: 'ether', assigned_networks: [{ name: 'fuelweb_admin' }, { name: 'public' }] },
    { name: 'eth1', type: 'ether', assigned_networks: [{ name: 'management' }, { name: 'storage' }, { name: 'private' }] },
  ],
});

test("the environment's own networks on each node's mapped interface, from the node's own addresses", () => {
  const plan = verifyPlanOf(config, [node('1', ['controller'], { management: '192.168.0.2/24', public: '172.16.0.2/24' }), node('2', ['compute'], { management: '192.168.0.3' })], { controller: { public_ip_required: true } });
  // Neutron's VLAN range is the tenants', not a network of the nodes: left out.
  assert.deepEqual(plan.networks.map((n) => [n.name, n.vlan, n.gateway]), [['fuelweb_admin', null, null], ['management', 101, null], ['storage', 102, null], ['public', 103, '172.16.0.1']]);
  assert.deepEqual(plan.members.filter((m) => m.node === '1').map((m) => [m.network, m.interface, m.ip]), [['fuelweb_admin', 'eth0', '10.0.0.1'], ['public', 'eth0', '172.16.0.2'], ['management', 'eth1', '192.168.0.2'], ['storage', 'eth1', null]]);
  // A compute has no public address, as Nailgun gave none: public is not checked from it.
  assert.deepEqual(plan.members.filter((m) => m.node === '2').map((m) => m.network), ['fuelweb_admin', 'management', 'storage']);
  // The gateway is pinged from the node's address on the gateway's network.
  const [first] = probePlan(plan);
  assert.deepEqual(first.gateways, [{ network: 'public', interface: 'eth0', vlan: 103, ip: '172.16.0.1', source: '172.16.0.2' }]);
  assert.deepEqual(first.addresses.map((a) => a.ip), ['10.0.0.1', '172.16.0.2', '192.168.0.2']);
});

test("VLAN segmentation: Neutron's tenant VLAN range is probed on the interface private is mapped to; a network's MTU is tried", () => {
  const vlan = {
    networks: config.networks.map((n) => (n.name === 'storage' ? { ...n, mtu: 9000 } : n)),
    networking_parameters: { segmentation_type: 'vlan', vlan_range: [1000, 1003] },
  } as unknown as NetworkConfiguration;
  const plan = verifyPlanOf(vlan, [node('1', ['compute'], {}), node('2', ['compute'], {})]);
  assert.deepEqual(plan.networks.find((n) => n.name === 'private'), { name: 'private', vlan: 1000, gateway: null, mtu: null, vlans: [1000, 1001, 1002, 1003] });
  assert.deepEqual(plan.members.filter((m) => m.network === 'private').map((m) => [m.node, m.interface, m.ip]), [['1', 'eth1', null], ['2', 'eth1', null]]);
  const [first] = probePlan(plan);
  assert.deepEqual(first.interfaces.find((i) => i.name === 'eth1'), { name: 'eth1', vlans: [101, 102, 1000, 1001, 1002, 1003], mtus: { 102: 9000 } });
});
