/**
 * Which network goes on which of a node's interfaces. The default is Nailgun's
 * `get_default_interfaces_configuration`: networks by `map_priority`, onto the interfaces in order,
 * each interface taking every tagged network still unplaced but at most one untagged one (a
 * `dedicated_nic` network alone), the admin network only on the admin interface. In Hearth the admin
 * interface is the one holding the node's SSH address: the admin network stays there, and nothing
 * untagged joins it, since that would re-address the interface Hearth reaches the node through.
 */
import { ADMIN_NETWORK } from './defaults.js';
import type { InterfaceFact, Network, NetworkFinding, NodeInterface } from './model.js';

/** Nailgun's `is_untagged`: no VLAN, and not a network whose VLANs are elsewhere (Neutron's VLAN private). */
export function isUntagged(network: Pick<Network, 'vlan_start' | 'meta'>): boolean {
  return network.vlan_start === null && !network.meta.ext_net_data && !network.meta.neutron_vlan_range;
}

const adminOf = (networks: readonly Network[]): Network =>
  networks.find((n) => n.name === ADMIN_NETWORK) ?? { name: ADMIN_NETWORK, cidr: null, gateway: null, vlan_start: null, ip_ranges: [], meta: { notation: null, map_priority: 0, use_gateway: false, assign_vip: false } };

function shape(fact: InterfaceFact, admin: boolean): NodeInterface {
  const out: NodeInterface = { name: fact.name, type: 'ether', assigned_networks: [] };
  if (typeof fact.mac === 'string') out.mac = fact.mac;
  if (typeof fact.driver === 'string') out.driver = fact.driver;
  if (typeof fact.bus_info === 'string') out.bus_info = fact.bus_info;
  if (admin) out.pxe = true;
  return out;
}

const ref = (n: Network) => (n.id === undefined ? { name: n.name } : { id: n.id, name: n.name });

/**
 * The default mapping of `networks` (those the node needs; the admin network is added when missing)
 * onto the node's interfaces, in the facts' order. Networks no interface can take land on the first
 * interface that is not the admin one, as Nailgun put them on the first NIC; `checkInterfaceMapping`
 * then says what to change.
 */
export function defaultInterfaces(interfaces: readonly InterfaceFact[], networks: readonly Network[], adminInterface: string): NodeInterface[] {
  const admin = adminOf(networks);
  const all = networks.some((n) => n.name === ADMIN_NETWORK) ? [...networks] : [admin, ...networks];
  // A stable sort keeps the configuration's order among networks of one priority, as Python's did.
  let left = all.map((n, i) => ({ n, i })).sort((a, b) => a.n.meta.map_priority - b.n.meta.map_priority || a.i - b.i).map((x) => x.n);
  const out = interfaces.map((fact) => shape(fact, fact.name === adminInterface));
  for (const nic of out) {
    if (left.length === 0) break;
    const isAdmin = nic.name === adminInterface;
    const placed = new Set<Network>();
    let untagged = 0;
    for (const network of left) {
      if (network.name === ADMIN_NETWORK && !isAdmin) continue;
      if (network.meta.dedicated_nic) {
        if (placed.size === 0) {
          placed.add(network);
          break;
        }
      } else if (isUntagged(network)) {
        if (untagged === 0) {
          placed.add(network);
          untagged++;
        }
      } else placed.add(network);
    }
    nic.assigned_networks = left.filter((n) => placed.has(n)).map(ref);
    left = left.filter((n) => !placed.has(n));
  }
  // The admin network is never put anywhere but on the SSH interface: when the facts do not show
  // that interface, it stays unplaced and checkInterfaceMapping says so.
  left = left.filter((n) => n.name !== ADMIN_NETWORK);
  if (left.length > 0 && out.length > 0) {
    const fallback = out.find((nic) => nic.name !== adminInterface) ?? out[0];
    fallback.assigned_networks.push(...left.map(ref));
  }
  return out;
}

function interfaceFinding(code: string, message: string, networks: string[], hint: string, nic?: string, node?: string, severity: NetworkFinding['severity'] = 'error'): NetworkFinding {
  const f: NetworkFinding = { code, severity, message, networks, hint };
  if (nic !== undefined) f.interface = nic;
  if (node !== undefined) f.node = node;
  return f;
}

/**
 * Why a mapping cannot be used: the admin network off the SSH interface or something untagged beside
 * it (either would cut Hearth off the node), unknown interfaces or networks, a network twice or not
 * at all, two untagged networks or one VLAN twice on an interface (Nailgun's
 * `check_untagged_intersection` and `check_vlan_ids_intersection`).
 */
export function checkInterfaceMapping(interfaces: readonly NodeInterface[], networks: readonly Network[], adminInterface: string, options: { node?: string; facts?: readonly InterfaceFact[] } = {}): NetworkFinding[] {
  const findings: NetworkFinding[] = [];
  const node = options.node;
  const on = node ? `node ${node}` : 'the node';
  const known = new Map(networks.map((n) => [n.name, n]));
  if (!known.has(ADMIN_NETWORK)) known.set(ADMIN_NETWORK, adminOf(networks));
  const factNames = options.facts ? new Set(options.facts.map((f) => f.name)) : null;
  const where = new Map<string, string[]>();
  if (!interfaces.some((nic) => nic.name === adminInterface)) {
    findings.push(interfaceFinding('interface/admin-interface-missing', `${on} has no interface ${adminInterface}, the one holding its SSH address`, [ADMIN_NETWORK], `keep ${adminInterface} in the mapping, with the admin network on it`, adminInterface, node));
  }
  for (const nic of interfaces) {
    if (factNames && !factNames.has(nic.name)) {
      findings.push(interfaceFinding('interface/unknown-interface', `${on} has no interface ${nic.name}`, nic.assigned_networks.map((n) => n.name), `assign networks to interfaces the node has: ${[...factNames].join(', ')}`, nic.name, node));
    }
    const untagged: string[] = [];
    const vlans = new Map<number, string[]>();
    for (const { name } of nic.assigned_networks) {
      const network = known.get(name);
      if (!network) {
        findings.push(interfaceFinding('interface/unknown-network', `interface ${nic.name} of ${on} carries network ${name}, which this environment does not have`, [name], `assign only: ${[...known.keys()].join(', ')}`, nic.name, node));
        continue;
      }
      where.set(name, [...(where.get(name) ?? []), nic.name]);
      if (isUntagged(network)) untagged.push(name);
      else if (network.vlan_start !== null) vlans.set(network.vlan_start, [...(vlans.get(network.vlan_start) ?? []), name]);
    }
    if (untagged.length > 1) {
      // On the SSH interface it is said, not refused: a one-interface machine reached over SSH
      // carries its untagged public network there, and only the release's tasks configure it.
      const onAdmin = nic.name === adminInterface && untagged.includes(ADMIN_NETWORK);
      const others = untagged.filter((n) => n !== ADMIN_NETWORK);
      findings.push(
        onAdmin
          ? interfaceFinding('interface/untagged-on-admin', `untagged network${others.length > 1 ? 's' : ''} ${others.join(', ')} would share ${nic.name} of ${on} with its SSH address: configuring ${others.length > 1 ? 'them' : 'it'} would re-address the interface Hearth reaches the node on`, untagged, `give ${others.join(', ')} a VLAN, or move ${others.length > 1 ? 'them' : 'it'} to another interface`, nic.name, node, 'warning')
          : interfaceFinding('interface/untagged-intersection', `untagged networks ${untagged.join(', ')} share interface ${nic.name} of ${on}`, untagged, `give all but one of them a VLAN, or put them on different interfaces`, nic.name, node),
      );
    }
    for (const [vlan, names] of vlans) {
      if (names.length > 1) findings.push(interfaceFinding('interface/same-vlan', `networks ${names.join(', ')} use VLAN ${vlan} on interface ${nic.name} of ${on}`, names, `give each network on ${nic.name} its own VLAN, or put them on different interfaces`, nic.name, node));
    }
  }
  const adminOn = where.get(ADMIN_NETWORK) ?? [];
  if (interfaces.some((nic) => nic.name === adminInterface) && (adminOn.length !== 1 || adminOn[0] !== adminInterface)) {
    findings.push(interfaceFinding('interface/admin-moved', `the admin network of ${on} must stay on ${adminInterface}, which holds its SSH address${adminOn.length ? ` (it is on ${adminOn.join(', ')})` : ' (it is on no interface)'}: Hearth would lose the node`, [ADMIN_NETWORK], `assign ${ADMIN_NETWORK} to ${adminInterface} only`, adminInterface, node));
  }
  for (const network of networks) {
    if (network.name === ADMIN_NETWORK) continue;
    const nics = where.get(network.name) ?? [];
    if (nics.length === 0) findings.push(interfaceFinding('interface/network-unassigned', `network ${network.name} is on no interface of ${on}`, [network.name], `assign ${network.name} to one of the node's interfaces`, undefined, node));
    else if (nics.length > 1) findings.push(interfaceFinding('interface/network-twice', `network ${network.name} is on ${nics.join(' and ')} of ${on}`, [network.name], `assign ${network.name} to one interface only`, undefined, node));
  }
  return findings;
}
