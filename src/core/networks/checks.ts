/**
 * The checks Nailgun's `NetworkCheck` and `CheckBeforeDeploymentTask` made before a deployment,
 * each a finding naming the networks and the field to change. Where Nailgun checked only the public
 * network (ranges in the CIDR, gateway outside the ranges, enough addresses), Hearth checks every
 * network; where it raised on the first problem, Hearth reports them all.
 */
import { isAddressed, networksForNode, vipRequests } from './addresses.js';
import { ADMIN_NETWORK } from './defaults.js';
import { checkInterfaceMapping } from './interfaces.js';
import { type Cidr, parseCidr, parseIp, overlaps, within, formatIp } from './ip.js';
import type { Network, NetworkConfiguration, NetworkFinding, NodesInfo } from './model.js';

type Span = [number, number];

/** A network's MTU: IPv4's smallest datagram every host must take, up to the largest jumbo frame switches commonly carry. */
export const MTU_MIN = 576;
export const MTU_MAX = 9216;

function f(code: string, message: string, networks: string[], field: string | undefined, hint: string, severity: 'error' | 'warning' = 'error'): NetworkFinding {
  const out: NetworkFinding = { code, severity, message, networks, hint };
  if (field !== undefined) out.field = field;
  return out;
}

const show = ([a, b]: Span) => (a === b ? formatIp(a) : `${formatIp(a)}-${formatIp(b)}`);
const spanOf = (c: Cidr): Span => [c.first, c.last];

interface Parsed {
  network: Network;
  cidr: Cidr | null;
  ranges: Span[];
  gateway: number | null;
}

/** Parses one network, reporting what cannot be read. Only networks with a notation have addresses. */
function parse(network: Network, out: NetworkFinding[]): Parsed {
  const n = network.name;
  const parsed: Parsed = { network, cidr: null, ranges: [], gateway: null };
  if (network.cidr !== null) {
    const cidr = parseCidr(network.cidr);
    if (!cidr) out.push(f('network/invalid-cidr', `network ${n}'s CIDR '${network.cidr}' is not an IPv4 CIDR`, [n], `${n}.cidr`, 'write it as address/prefix, like 192.168.0.0/24'));
    else {
      parsed.cidr = cidr;
      const exact = `${formatIp(cidr.first)}/${cidr.prefix}`;
      if (cidr.hostBits) out.push(f('network/cidr-host-bits', `network ${n}'s CIDR ${network.cidr} has host bits set: it means ${exact}`, [n], `${n}.cidr`, `write ${exact}, or the prefix you meant`));
      if (within(spanOf(cidr), [0xe0000000, 0xffffffff])) out.push(f('network/reserved-space', `network ${n}'s CIDR ${exact} is multicast or reserved space (224.0.0.0/3), not in classes A, B or C`, [n], `${n}.cidr`, 'use a private range such as 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16'));
      else if (within(spanOf(cidr), [0x7f000000, 0x7fffffff])) out.push(f('network/reserved-space', `network ${n}'s CIDR ${exact} is inside the loopback range 127.0.0.0/8`, [n], `${n}.cidr`, 'use a private range such as 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16'));
    }
  } else if (network.meta.notation !== null && network.name !== ADMIN_NETWORK) {
    out.push(f('network/missing-cidr', `network ${n} has notation '${network.meta.notation}' but no CIDR`, [n], `${n}.cidr`, `give ${n} a CIDR`));
  }
  for (const [a, b] of network.ip_ranges) {
    const first = parseIp(a);
    const last = parseIp(b);
    if (first === null || last === null) out.push(f('network/invalid-range', `network ${n} has the range ${a}-${b}, which is not two IPv4 addresses`, [n], `${n}.ip_ranges`, 'write each range as [first, last] addresses'));
    else if (first > last) out.push(f('network/invalid-range', `network ${n}'s range ${a}-${b} ends before it starts`, [n], `${n}.ip_ranges`, `write it as [${b}, ${a}]`));
    else parsed.ranges.push([first, last]);
  }
  const mtu = network.mtu;
  if (mtu !== undefined && mtu !== null && !(Number.isInteger(mtu) && mtu >= MTU_MIN && mtu <= MTU_MAX)) {
    out.push(f('network/invalid-mtu', `network ${n}'s MTU ${String(mtu)} is outside ${MTU_MIN}-${MTU_MAX}`, [n], `${n}.mtu`, `use an MTU from ${MTU_MIN} to ${MTU_MAX} (1500 is Ethernet's, 9000 the usual jumbo frames), or none for the interfaces' own`));
  }
  if (network.gateway !== null && network.gateway !== '') {
    parsed.gateway = parseIp(network.gateway);
    if (parsed.gateway === null) out.push(f('network/invalid-gateway', `network ${n}'s gateway '${network.gateway}' is not an IPv4 address`, [n], `${n}.gateway`, 'write the gateway as an address, like 172.16.0.1'));
  }
  return parsed;
}

/** Ranges and gateway against the network's own CIDR (Nailgun did this for public; here for every network). */
function checkOwnAddresses(p: Parsed, out: NetworkFinding[]): void {
  const n = p.network.name;
  const { cidr, gateway } = p;
  if (cidr) {
    const exact = `${formatIp(cidr.first)}/${cidr.prefix}`;
    for (const r of p.ranges) {
      if (!within(r, spanOf(cidr))) out.push(f('network/range-outside-cidr', `network ${n}'s range ${show(r)} is not inside its CIDR ${exact}`, [n], `${n}.ip_ranges`, `keep ${n}'s ranges inside ${exact}, or widen the CIDR`));
      else if (cidr.prefix < 31 && (r[0] === cidr.first || r[1] === cidr.last)) out.push(f('network/range-includes-network-or-broadcast', `network ${n}'s range ${show(r)} includes the network or broadcast address of ${exact}`, [n], `${n}.ip_ranges`, `start ${n}'s ranges at ${formatIp(cidr.first + 1)} or later and end them at ${formatIp(cidr.last - 1)} or earlier`));
    }
    if (gateway !== null) {
      if (gateway < cidr.first || gateway > cidr.last) out.push(f('network/gateway-outside-cidr', `network ${n}'s gateway ${formatIp(gateway)} is not inside its CIDR ${exact}`, [n], `${n}.gateway`, `set ${n}'s gateway to an address of ${exact}, or correct the CIDR`));
      else if (cidr.prefix < 31 && (gateway === cidr.first || gateway === cidr.last)) out.push(f('network/gateway-network-or-broadcast', `network ${n}'s gateway ${formatIp(gateway)} is the network or broadcast address of ${exact}`, [n], `${n}.gateway`, `use a host address, such as ${formatIp(cidr.first + 1)}`));
    }
  }
  if (gateway !== null) {
    const hit = p.ranges.find((r) => gateway >= r[0] && gateway <= r[1]);
    if (hit) out.push(f('network/gateway-in-range', `network ${n}'s gateway ${formatIp(gateway)} is inside its range ${show(hit)}: a node or VIP would be given the gateway's address`, [n], `${n}.ip_ranges`, `start or end the range so that it leaves out ${formatIp(gateway)}`));
  } else if (p.network.meta.use_gateway && cidr) {
    out.push(f('network/gateway-missing', `network ${n} needs a gateway and has none`, [n], `${n}.gateway`, `set ${n}'s gateway, such as ${formatIp(cidr.first + 1)}`));
  }
  const sorted = [...p.ranges].sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i][0] <= sorted[i - 1][1]) out.push(f('network/ranges-overlap', `network ${n}'s ranges ${show(sorted[i - 1])} and ${show(sorted[i])} overlap`, [n], `${n}.ip_ranges`, `make ${n}'s ranges disjoint, or merge them into one`));
  }
  if (isAddressed(p.network) && p.ranges.length === 0 && p.network.ip_ranges.length === 0 && p.network.meta.notation === 'ip_ranges') {
    out.push(f('network/no-ranges', `network ${n} has no IP ranges`, [n], `${n}.ip_ranges`, `give ${n} at least one range inside its CIDR`));
  }
}

function checkVlans(config: NetworkConfiguration, out: NetworkFinding[]): void {
  const params = config.networking_parameters;
  for (const network of config.networks) {
    const v = network.vlan_start;
    if (v !== null && (!Number.isInteger(v) || v < 2 || v > 4094)) out.push(f('network/vlan-out-of-range', `network ${network.name}'s VLAN ${v} is outside 2-4094`, [network.name], `${network.name}.vlan_start`, 'use a VLAN id from 2 to 4094, or none for untagged'));
  }
  const range = params.vlan_range;
  if (params.segmentation_type === 'vlan') {
    if (!range) out.push(f('network/invalid-vlan-range', "Neutron's VLAN segmentation has no private VLAN range", ['private'], 'networking_parameters.vlan_range', 'set vlan_range, such as [1000, 1030]'));
    else if (!(range[0] >= 2 && range[1] <= 4094 && range[0] <= range[1])) out.push(f('network/invalid-vlan-range', `Neutron's private VLAN range ${range[0]}-${range[1]} is not a range inside 2-4094`, ['private'], 'networking_parameters.vlan_range', 'set vlan_range to [first, last] with 2 <= first <= last <= 4094'));
    else {
      const clash = config.networks.filter((n) => n.vlan_start !== null && n.vlan_start >= range[0] && n.vlan_start <= range[1]);
      if (clash.length) out.push(f('network/vlan-in-private-range', `the VLAN${clash.length > 1 ? 's' : ''} of ${clash.map((n) => `${n.name} (${n.vlan_start})`).join(', ')} ${clash.length > 1 ? 'are' : 'is'} inside Neutron's private VLAN range ${range[0]}-${range[1]}: tenant traffic would mix with ${clash.length > 1 ? 'them' : 'it'}`, [...clash.map((n) => n.name), 'private'], 'networking_parameters.vlan_range', `move ${clash.map((n) => n.name).join(', ')} to VLANs outside ${range[0]}-${range[1]}, or narrow the range`));
    }
  } else {
    const ids = params.gre_id_range;
    if (!ids || !(ids[0] >= 1 && ids[0] <= ids[1])) out.push(f('network/invalid-tunnel-range', `Neutron's tunnel id range ${ids ? `${ids[0]}-${ids[1]}` : '(none)'} is not a range`, ['private'], 'networking_parameters.gre_id_range', 'set gre_id_range to [first, last], such as [2, 65535]'));
  }
}

function checkFloating(config: NetworkConfiguration, parsed: readonly Parsed[], out: NetworkFinding[]): void {
  const params = config.networking_parameters;
  const floating: Span[] = [];
  for (const [a, b] of params.floating_ranges) {
    const first = parseIp(a);
    const last = parseIp(b);
    if (first === null || last === null || first > last) out.push(f('network/invalid-range', `floating range ${a}-${b} is not a range of IPv4 addresses`, ['public'], 'networking_parameters.floating_ranges', 'write each floating range as [first, last] addresses, first not after last'));
    else floating.push([first, last]);
  }
  const sorted = [...floating].sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < sorted.length; i++) if (sorted[i][0] <= sorted[i - 1][1]) out.push(f('network/ranges-overlap', `floating ranges ${show(sorted[i - 1])} and ${show(sorted[i])} overlap`, ['public'], 'networking_parameters.floating_ranges', 'make the floating ranges disjoint'));
  const pub = parsed.find((p) => p.network.name === 'public');
  if (pub?.cidr && floating.length) {
    const cidr = pub.cidr;
    const exact = `${formatIp(cidr.first)}/${cidr.prefix}`;
    for (const r of floating) {
      if (!within(r, spanOf(cidr))) out.push(f('network/floating-outside-public', `floating range ${show(r)} is not inside the public network ${exact}`, ['public'], 'networking_parameters.floating_ranges', `keep the floating ranges inside ${exact} (Neutron's external network is the public one)`));
      else if (cidr.prefix < 31 && (r[0] === cidr.first || r[1] === cidr.last)) out.push(f('network/range-includes-network-or-broadcast', `floating range ${show(r)} includes the network or broadcast address of the public network ${exact}`, ['public'], 'networking_parameters.floating_ranges', `keep floating ranges between ${formatIp(cidr.first + 1)} and ${formatIp(cidr.last - 1)}`));
      const hit = pub.ranges.find((p) => overlaps(p, r));
      if (hit) out.push(f('network/floating-overlaps-public-range', `floating range ${show(r)} overlaps the public range ${show(hit)}: an address could go to a node and to a floating IP`, ['public'], 'networking_parameters.floating_ranges', 'make the floating ranges and the public IP ranges disjoint'));
      if (pub.gateway !== null && pub.gateway >= r[0] && pub.gateway <= r[1]) out.push(f('network/gateway-in-range', `the public gateway ${formatIp(pub.gateway)} is inside floating range ${show(r)}`, ['public'], 'networking_parameters.floating_ranges', `leave ${formatIp(pub.gateway)} out of the floating ranges`));
    }
  }
  for (const p of parsed) {
    if (!p.cidr || p.network.name === 'public') continue;
    for (const r of floating) if (overlaps(spanOf(p.cidr), r)) out.push(f('network/floating-overlaps-network', `floating range ${show(r)} overlaps network ${p.network.name} (${p.network.cidr})`, ['public', p.network.name], 'networking_parameters.floating_ranges', `move the floating range out of ${p.network.cidr}, or ${p.network.name} to another CIDR`));
  }
  if (params.internal_cidr !== null && params.internal_cidr !== undefined) {
    const internal = parseCidr(params.internal_cidr);
    const gw = parseIp(params.internal_gateway);
    if (!internal) out.push(f('network/invalid-cidr', `Neutron's internal network CIDR '${params.internal_cidr}' is not an IPv4 CIDR`, [], 'networking_parameters.internal_cidr', 'write it as address/prefix, like 192.168.111.0/24'));
    else {
      if (gw === null || gw < internal.first || gw > internal.last) out.push(f('network/gateway-outside-cidr', `Neutron's internal gateway ${params.internal_gateway ?? '(none)'} is not inside the internal network ${params.internal_cidr}`, [], 'networking_parameters.internal_gateway', `set the internal gateway to an address of ${params.internal_cidr}, such as ${formatIp(internal.first + 1)}`));
      else if (internal.prefix < 31 && (gw === internal.first || gw === internal.last)) out.push(f('network/gateway-network-or-broadcast', `Neutron's internal gateway ${params.internal_gateway} is the network or broadcast address of ${params.internal_cidr}`, [], 'networking_parameters.internal_gateway', `use a host address, such as ${formatIp(internal.first + 1)}`));
      for (const r of floating) if (overlaps(spanOf(internal), r)) out.push(f('network/floating-overlaps-network', `floating range ${show(r)} overlaps Neutron's internal network ${params.internal_cidr}`, ['public'], 'networking_parameters.internal_cidr', 'move the internal network or the floating range so they do not overlap'));
    }
  }
  const bareRange = params.baremetal_range;
  const bareGw = parseIp(params.baremetal_gateway);
  if (bareRange && bareGw !== null) {
    const a = parseIp(bareRange[0]);
    const b = parseIp(bareRange[1]);
    if (a !== null && b !== null && bareGw >= a && bareGw <= b) out.push(f('network/gateway-in-range', `Ironic's gateway ${formatIp(bareGw)} is inside Ironic's range ${bareRange[0]}-${bareRange[1]}`, ['baremetal'], 'networking_parameters.baremetal_range', `leave ${formatIp(bareGw)} out of the baremetal range`));
  }
  const dns = params.dns_nameservers ?? [];
  for (const d of dns) if (parseIp(d) === null) out.push(f('network/invalid-dns', `DNS server '${d}' is not an IPv4 address`, [], 'networking_parameters.dns_nameservers', 'list DNS servers by address'));
  if (new Set(dns).size < dns.length) out.push(f('network/duplicate-dns', 'a DNS server is listed twice', [], 'networking_parameters.dns_nameservers', 'list each DNS server once'));
}

/** The configuration alone (Nailgun's `check_configuration`): CIDRs, ranges, gateways, VLANs, floating, internal, DNS. */
export function checkConfiguration(config: NetworkConfiguration): NetworkFinding[] {
  const out: NetworkFinding[] = [];
  const names = new Set<string>();
  for (const n of config.networks) {
    if (names.has(n.name)) out.push(f('network/duplicate-name', `two networks are named ${n.name}`, [n.name], undefined, 'give each network its own name'));
    names.add(n.name);
  }
  const parsed = config.networks.map((n) => parse(n, out));
  for (const p of parsed) checkOwnAddresses(p, out);
  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const a = parsed[i].cidr;
      const b = parsed[j].cidr;
      if (a && b && overlaps(spanOf(a), spanOf(b))) {
        const [x, y] = [parsed[i].network, parsed[j].network];
        out.push(f('network/overlapping-cidrs', `networks ${x.name} (${x.cidr}) and ${y.name} (${y.cidr}) overlap`, [x.name, y.name], `${y.name}.cidr`, `give ${x.name} and ${y.name} CIDRs that do not overlap`));
      }
    }
  }
  checkVlans(config, out);
  checkFloating(config, parsed, out);
  return out;
}

/**
 * Everything Nailgun checked before a deployment, for this configuration and these nodes: the
 * configuration itself; the nodes' SSH addresses (the admin network) inside another network;
 * enough addresses on every network for its nodes and VIPs; each node's interface mapping.
 */
export function checkNetworks(config: NetworkConfiguration, nodesInfo: NodesInfo): NetworkFinding[] {
  const out = checkConfiguration(config);
  const parsed = new Map(config.networks.map((n) => [n.name, { cidr: parseCidr(n.cidr), network: n }]));
  // Nailgun checked the admin network's CIDR against the others; in Hearth it has none, its
  // addresses are the nodes' SSH addresses, so each of those is checked instead.
  const seenAdmin = new Set<string>();
  for (const t of nodesInfo.taken ?? []) {
    if (t.network !== ADMIN_NETWORK || seenAdmin.has(t.ip)) continue;
    seenAdmin.add(t.ip);
    const ip = parseIp(t.ip);
    if (ip === null) continue;
    for (const { cidr, network } of parsed.values()) {
      if (network.name === ADMIN_NETWORK || !cidr || ip < cidr.first || ip > cidr.last) continue;
      const who = t.node !== undefined ? `node ${t.node}'s SSH address` : `SSH address`;
      const finding = f('network/overlaps-admin', `${who} ${t.ip} is inside network ${network.name} (${network.cidr}): the node would have two routes to it, and Hearth could lose the node`, [network.name, ADMIN_NETWORK], `${network.name}.cidr`, `move ${network.name} to a CIDR that does not hold the nodes' SSH addresses`);
      if (t.node !== undefined) finding.node = t.node;
      out.push(finding);
    }
  }
  // Enough addresses: Nailgun counted public only (nodes with public plus 2 VIPs); here every network.
  const need = new Map<string, number>();
  for (const node of nodesInfo.nodes) for (const name of networksForNode(config, node, nodesInfo.roles)) need.set(name, (need.get(name) ?? 0) + 1);
  const { requests, findings: vipFindings } = vipRequests(nodesInfo.networkRoles ?? []);
  out.push(...vipFindings);
  const vips = new Map<string, number>();
  for (const r of requests) vips.set(r.role.default_mapping, (vips.get(r.role.default_mapping) ?? 0) + 1);
  for (const network of config.networks) {
    if (!isAddressed(network)) continue;
    const nodes = need.get(network.name) ?? 0;
    const vipCount = nodes > 0 ? (vips.get(network.name) ?? 0) : 0;
    const gateway = parseIp(network.gateway);
    let size = 0;
    for (const [a, b] of network.ip_ranges) {
      const first = parseIp(a);
      const last = parseIp(b);
      if (first === null || last === null || first > last) continue;
      size += last - first + 1 - (gateway !== null && gateway >= first && gateway <= last ? 1 : 0);
    }
    if (size < nodes + vipCount) {
      out.push(f('network/too-few-addresses', `network ${network.name} has ${size} address${size === 1 ? '' : 'es'} in its ranges, and needs ${nodes + vipCount}: ${nodes} node${nodes === 1 ? '' : 's'}${vipCount ? ` and ${vipCount} VIP${vipCount === 1 ? '' : 's'}` : ''}`, [network.name], `${network.name}.ip_ranges`, `widen ${network.name}'s ranges${network.meta.notation === 'cidr' ? ' (a larger CIDR)' : ''} to at least ${nodes + vipCount} addresses`));
    }
  }
  for (const node of nodesInfo.nodes) {
    // No interfaces: the node's facts are not known yet, so there is no mapping to check.
    if (!node.interfaces || node.interfaces.length === 0 || node.roles.length === 0) continue;
    const needed = new Set(networksForNode(config, node, nodesInfo.roles));
    const onNode = config.networks.filter((n) => needed.has(n.name) || !isAddressed(n));
    const mapped = new Set(node.interfaces.flatMap((nic) => nic.assigned_networks.map((a) => a.name)));
    const networks = config.networks.filter((n) => onNode.includes(n) || mapped.has(n.name));
    out.push(...checkInterfaceMapping(node.interfaces, networks, node.adminInterface ?? node.interfaces.find((i) => i.pxe)?.name ?? node.interfaces[0]?.name ?? '', { node: node.id }));
  }
  return out;
}
