/**
 * astute.yaml's `network_scheme` (per node) and `network_metadata` (per environment), as Nailgun's
 * `NeutronNetworkDeploymentSerializer90` wrote them, so that tasks written for Fuel (netconfig,
 * `get_network_role_property`, `network_metadata.vips`) read Hearth's unchanged:
 * - a bridge per network on the node (`br-fw-admin`, `br-mgmt`, `br-storage`, `br-ex`, `br-mesh`,
 *   `br-baremetal`, `br-<name>` for a plugin's network), the node's interfaces added as ports,
 *   tagged ones as `eth1.101`;
 * - `endpoints` with the node's address on each bridge and the gateway (public's when the node has
 *   a public address, else the admin network's);
 * - `roles` mapping every network role, the plugins' included, to the bridge of its network.
 */
import { withPrefix } from './addresses.js';
import { formatIp, parseCidr } from './ip.js';
import { ADMIN_NETWORK } from './defaults.js';
import { isUntagged } from './interfaces.js';
import type { AddressAssignment, Endpoint, Network, NetworkConfiguration, NetworkMetadata, NetworkRole, NetworkScheme, SchemeNode, Transformation, VipAssignment } from './model.js';

/** Nailgun's bridge for each network it knew (`consts.NETWORKS`); others get `br-<name>`. */
const DEFAULT_BRIDGES: Record<string, string> = { [ADMIN_NETWORK]: 'br-fw-admin', management: 'br-mgmt', storage: 'br-storage', public: 'br-ex', baremetal: 'br-baremetal' };
const FUEL_NETWORKS = new Set([ADMIN_NETWORK, 'management', 'storage', 'public', 'private', 'fixed', 'baremetal']);
const RESERVED_BRIDGES = new Set(['br-fw-admin', 'br-mgmt', 'br-storage', 'br-ex', 'br-floating', 'br-prv', 'br-aux', 'br-mesh', 'br-baremetal', 'br-ironic']);
/** Linux's interface names hold 15 characters. */
const BRIDGE_NAME_MAX = 15;

/** Addresses by node and network, made once per address list (a plan of 1,000 nodes is read 1,000 times). */
const indexes = new WeakMap<readonly AddressAssignment[], Map<string, Map<string, string>>>();
function addressesOf(addresses: readonly AddressAssignment[], node: string): Map<string, string> {
  let index = indexes.get(addresses);
  if (!index) {
    index = new Map();
    for (const a of addresses) {
      let mine = index.get(a.node);
      if (!mine) index.set(a.node, (mine = new Map()));
      if (!mine.has(a.network)) mine.set(a.network, a.ip);
    }
    indexes.set(addresses, index);
  }
  return index.get(node) ?? new Map();
}

/** Nailgun 7.0's `get_bridge_name`: `br-<name>` cut to 15 characters, a number at the end when taken. */
function bridgeNames(names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const name of names) {
    const clean = name.toLowerCase().replace(/[^0-9a-z-]/g, '-').replace(/-+$/, '') || 'net';
    const base = (clean.startsWith('br-') ? clean : `br-${clean}`).slice(0, BRIDGE_NAME_MAX);
    let bridge = base;
    for (let suffix = 1; used.has(bridge) || RESERVED_BRIDGES.has(bridge); suffix++) bridge = base.slice(0, BRIDGE_NAME_MAX - String(suffix).length) + String(suffix);
    used.add(bridge);
    out.set(name, bridge);
  }
  return out;
}

const ipOnly = (address: string) => address.split('/')[0];

interface NodeNetworks {
  /** Network name → interface and VLAN, for networks on one of the node's interfaces. */
  placed: Map<string, { dev: string; vlan: number | null; network: Network }>;
  ips: Map<string, string>;
  /** Network → bridge, for networks with an endpoint on this node (Nailgun's `get_network_to_endpoint_mapping`). */
  bridges: Map<string, string>;
  hasPublicIp: boolean;
  isPublic: boolean;
}

function nodeNetworks(config: NetworkConfiguration, node: SchemeNode, addresses: readonly AddressAssignment[]): NodeNetworks {
  const byName = new Map(config.networks.map((n) => [n.name, n]));
  const placed = new Map<string, { dev: string; vlan: number | null; network: Network }>();
  for (const nic of node.interfaces) {
    for (const { name } of nic.assigned_networks) {
      const network = byName.get(name);
      if (network && !placed.has(name)) placed.set(name, { dev: nic.name, vlan: network.vlan_start, network });
    }
  }
  const ips = new Map(addressesOf(addresses, node.id));
  if (node.adminAddress) ips.set(ADMIN_NETWORK, node.adminAddress);
  const hasPublicIp = ips.has('public');
  const tunnels = config.networking_parameters.segmentation_type !== 'vlan';
  // A network has a bridge when it is on an interface or the node has an address on it: a node
  // without interface facts yet (a dry run, an offline graph) still gets its endpoints and roles.
  const on = (name: string) => placed.has(name) || ips.has(name);
  const bridges = new Map<string, string>();
  for (const name of [ADMIN_NETWORK, 'storage', 'management']) if (on(name)) bridges.set(name, DEFAULT_BRIDGES[name]);
  if (hasPublicIp) bridges.set('public', 'br-ex');
  if (tunnels && on('private')) bridges.set('private', 'br-mesh');
  if (on('baremetal')) bridges.set('baremetal', 'br-baremetal');
  const custom = [...new Set([...placed.keys(), ...ips.keys()])].filter((n) => !FUEL_NETWORKS.has(n));
  for (const [name, bridge] of bridgeNames(custom)) bridges.set(name, bridge);
  // Nailgun's should_have_public: public with an address (DVR's public without one is not modelled).
  return { placed, ips, bridges, hasPublicIp, isPublic: hasPublicIp };
}

/** Network role → bridge (or address): every role whose network has one on this node. */
function roleMapping<T>(networkRoles: readonly NetworkRole[], mapping: ReadonlyMap<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const role of networkRoles) {
    const value = mapping.get(role.default_mapping);
    if (value !== undefined) out[role.id] = value;
  }
  return out;
}

/**
 * The node's `network_scheme`. `addresses` may hold the whole environment's plan: the node's own
 * are picked by id. `node.interfaces` is its interface mapping (`defaultInterfaces` or the
 * operator's); networks on no interface have no bridge.
 */
export function networkScheme(config: NetworkConfiguration, node: SchemeNode, addresses: readonly AddressAssignment[], networkRoles: readonly NetworkRole[]): NetworkScheme {
  const { placed, ips, bridges, hasPublicIp, isPublic } = nodeNetworks(config, node, addresses);
  const segmentation = config.networking_parameters.segmentation_type;
  const endpoints: Record<string, Endpoint> = {};
  const roles: Record<string, string> = roleMapping(networkRoles, bridges);
  if (isPublic) {
    endpoints['br-ex'] = { IP: 'none' };
    endpoints['br-floating'] = { IP: 'none' };
    roles.ex = 'br-ex';
    roles['neutron/floating'] = 'br-floating';
  }
  const endpointsOf = [...bridges.entries()];
  if (isPublic && !bridges.has('public')) endpointsOf.push(['public', 'br-ex']);
  if (segmentation !== 'vlan' && bridges.has('private')) {
    endpoints['br-mesh'] = {};
    roles['neutron/mesh'] = 'br-mesh';
  }
  const byDev = new Map<string, Array<{ bridge: string; vlan: number | null; mtu: number | null }>>();
  const onDev = (dev: string, entry: { bridge: string; vlan: number | null; mtu: number | null }) => byDev.set(dev, [...(byDev.get(dev) ?? []), entry]);
  for (const [name, bridge] of endpointsOf) {
    const ip = ips.get(name);
    const where = placed.get(name);
    const network = config.networks.find((n) => n.name === name);
    if (ip !== undefined) {
      const endpoint: Endpoint = { IP: [name === ADMIN_NETWORK ? ip : withPrefix(ip, network)] };
      if (network?.gateway && network.cidr) endpoint.vendor_specific = { provider_gateway: network.gateway };
      endpoints[bridge] = endpoint;
    }
    if (where) onDev(where.dev, { bridge, vlan: where.network && !isUntagged(where.network) ? where.vlan : null, mtu: where.network.mtu ?? null });
  }
  const publicNetwork = config.networks.find((n) => n.name === 'public');
  if (hasPublicIp && publicNetwork?.gateway) endpoints['br-ex'].gateway = publicNetwork.gateway;
  else if (node.adminGateway && endpoints['br-fw-admin']) endpoints['br-fw-admin'].gateway = node.adminGateway;

  const interfaces: NetworkScheme['interfaces'] = {};
  for (const nic of node.interfaces) {
    const vendor: Record<string, unknown> = {};
    if (nic.driver) vendor.driver = nic.driver;
    if (nic.bus_info) vendor.bus_info = nic.bus_info;
    interfaces[nic.name] = Object.keys(vendor).length ? { vendor_specific: vendor } : {};
  }

  // Neutron's VLAN private network rides on an OVS bridge patched to the untagged bridge of its
  // interface, or to a bridge of its own (br-aux) when that interface carries nothing untagged.
  let prvBase: string | null = null;
  const prv = placed.get('private');
  if (segmentation === 'vlan' && prv) {
    endpoints['br-prv'] = { IP: 'none' };
    roles['neutron/private'] = 'br-prv';
    prvBase = (byDev.get(prv.dev) ?? []).find((e) => e.vlan === null)?.bridge ?? null;
    if (!prvBase) onDev(prv.dev, { bridge: 'br-aux', vlan: null, mtu: prv.network.mtu ?? null });
  }

  const transformations: Transformation[] = [];
  for (const [name, bridge] of bridges) if (!FUEL_NETWORKS.has(name)) transformations.unshift({ action: 'add-br', name: bridge });
  if (bridges.has('baremetal')) transformations.unshift({ action: 'add-br', name: 'br-baremetal' });
  for (const bridge of ['br-fw-admin', 'br-mgmt', 'br-storage']) if ([...bridges.values()].includes(bridge)) transformations.push({ action: 'add-br', name: bridge });
  if (isPublic) {
    transformations.push({ action: 'add-br', name: 'br-ex' });
    transformations.push({ action: 'add-br', name: 'br-floating', provider: 'ovs' });
    transformations.push({ action: 'add-patch', bridges: ['br-floating', 'br-ex'], provider: 'ovs', mtu: 65000 });
  }
  if (segmentation === 'vlan' && prv) {
    transformations.push({ action: 'add-br', name: 'br-prv', provider: 'ovs' });
    if (!prvBase) transformations.push({ action: 'add-br', name: 'br-aux' });
    transformations.push({ action: 'add-patch', bridges: ['br-prv', prvBase ?? 'br-aux'], provider: 'ovs', mtu: 65000 });
  } else if (segmentation !== 'vlan' && bridges.has('private')) transformations.push({ action: 'add-br', name: 'br-mesh' });
  for (const nic of node.interfaces) {
    const entries = byDev.get(nic.name) ?? [];
    // MTUs: a VLAN subinterface takes its network's, the interface itself the largest of its
    // networks' (a subinterface cannot exceed its parent), as l23network reads `interfaces.*.mtu`.
    const mtus = entries.map((e) => e.mtu).filter((m): m is number => m !== null);
    const nicMtu = mtus.length ? Math.max(...mtus) : null;
    if (nicMtu !== null) interfaces[nic.name] = { mtu: nicMtu, ...interfaces[nic.name] };
    const port = (name: string, bridge: string, mtu: number | null): Transformation => ({ action: 'add-port', name, bridge, ...(mtu !== null ? { mtu } : {}) });
    // The interface itself before its VLAN subinterfaces.
    for (const e of entries) if (e.vlan === null) transformations.push(port(nic.name, e.bridge, nicMtu));
    for (const e of entries) if (e.vlan !== null) transformations.push(port(`${nic.name}.${e.vlan}`, e.bridge, e.mtu));
  }
  if (bridges.has('baremetal')) {
    transformations.push({ action: 'add-br', name: 'br-ironic', provider: 'ovs' });
    transformations.push({ action: 'add-patch', bridges: ['br-ironic', 'br-baremetal'], provider: 'ovs' });
  }
  if (segmentation === 'vlan') delete roles['neutron/mesh'];
  else delete roles['neutron/private'];
  return { version: '1.1', provider: 'lnx', interfaces, transformations, endpoints, roles };
}

/** A node's address per network role (Nailgun's `get_network_role_mapping_to_ip`). */
function networkRoleAddresses(config: NetworkConfiguration, node: SchemeNode, addresses: readonly AddressAssignment[], networkRoles: readonly NetworkRole[]): Record<string, string | null> {
  const ips = new Map<string, string>();
  for (const [network, ip] of addressesOf(addresses, node.id)) ips.set(network, ip);
  if (node.adminAddress) ips.set(ADMIN_NETWORK, ipOnly(node.adminAddress));
  // Nailgun mapped roles only to networks with an endpoint: private only with tunnels.
  if (config.networking_parameters.segmentation_type === 'vlan') ips.delete('private');
  const out: Record<string, string | null> = roleMapping(networkRoles, ips);
  out['neutron/floating'] = null;
  out['neutron/private'] = null;
  return out;
}

/**
 * The environment's `network_metadata`: every node (by name) with its address per network role,
 * and every VIP.
 */
export function networkMetadata(config: NetworkConfiguration, nodes: readonly SchemeNode[], addresses: readonly AddressAssignment[], vips: readonly VipAssignment[], networkRoles: readonly NetworkRole[]): NetworkMetadata {
  const out: NetworkMetadata = { nodes: {}, vips: {} };
  for (const node of nodes) {
    const name = node.name ?? `node-${node.id}`;
    out.nodes[name] = {
      uid: node.id,
      fqdn: node.fqdn ?? `${name}.domain.local`,
      name,
      user_node_name: node.userName ?? `Untitled (${node.id})`,
      swift_zone: node.id,
      node_roles: [...node.roles],
      network_roles: networkRoleAddresses(config, node, addresses, networkRoles),
    };
  }
  for (const vip of vips) out.vips[vip.name] = { network_role: vip.network_role, namespace: vip.namespace, ipaddr: vip.ip, is_user_defined: vip.is_user_defined === true, node_roles: [...vip.node_roles] };
  return out;
}

const netmask = (prefix: number) => formatIp(prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);
/** Nailgun's `render_addr_mask` of the networks it knew, for releases whose metadata lacks it. */
const LEGACY_MASKS: Record<string, string> = { management: 'internal', storage: 'storage', public: 'public' };

/**
 * The node's addresses as the legacy `nodes` list of astute.yaml wrote them (`internal_address`,
 * `internal_netmask`, `storage_address`, `public_address`, ...), by each network's `render_addr_mask`.
 */
export function legacyAddresses(config: NetworkConfiguration, node: string, addresses: readonly AddressAssignment[]): Record<string, string> {
  const out: Record<string, string> = {};
  const mine = addressesOf(addresses, node);
  for (const network of config.networks) {
    const ip = mine.get(network.name);
    const mask = typeof network.meta.render_addr_mask === 'string' ? network.meta.render_addr_mask : LEGACY_MASKS[network.name];
    const cidr = parseCidr(network.cidr);
    if (ip === undefined || !mask || !cidr) continue;
    out[`${mask}_address`] = ip;
    out[`${mask}_netmask`] = netmask(cidr.prefix);
  }
  return out;
}
