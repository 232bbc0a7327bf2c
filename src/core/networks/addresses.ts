/**
 * The address plan: each node with roles gets one address on every network its roles need, and
 * each VIP of the network roles one address, from the networks' ranges. As Nailgun's `assign_ips`
 * and `assign_vip`, an address already held is kept while it lies in its network's ranges, and the
 * others come from the lowest free addresses. Unlike Nailgun, the order is fixed (nodes by id,
 * networks in configuration order), so planning twice gives the same addresses.
 */
import { ADMIN_NETWORK } from './defaults.js';
import { formatIp, parseCidr, parseIp } from './ip.js';
import type { AddressAssignment, AddressPlan, Network, NetworkConfiguration, NetworkFinding, NetworkRole, PlanNode, RoleNetworkNeeds, TakenAddress, VipAssignment, VipPlan } from './model.js';

/** Nailgun's default for VIPs without `node_roles`, as serialised into `network_metadata`. */
export const DEFAULT_VIP_NODE_ROLES = ['controller', 'primary-controller'];

/** Node ids in a stable order: numerically when both are numbers (`2` before `10`), else as text. */
export function compareNodeIds(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The numeric ranges of a network (invalid ones left out: `checkNetworks` names them). */
export function rangesOf(network: Network): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [a, b] of network.ip_ranges) {
    const first = parseIp(a);
    const last = parseIp(b);
    if (first !== null && last !== null && first <= last) out.push([first, last]);
  }
  return out;
}

/** Whether a network hands out addresses: it has a CIDR and ranges, and is not the admin network. */
export function isAddressed(network: Network): boolean {
  return network.name !== ADMIN_NETWORK && network.cidr !== null && network.meta.notation !== null && network.ip_ranges.length > 0;
}

/** Whether the node gets an address on `public`: as Nailgun, only with a role that has `public_ip_required`. */
export function needsPublic(roles: readonly string[], roleNeeds: Readonly<Record<string, RoleNetworkNeeds>> = {}): boolean {
  return roles.some((r) => roleNeeds[r]?.public_ip_required === true);
}

/**
 * The networks a node gets an address on, in configuration order: none without roles; its
 * `networksNeeded` when given; else every addressed network, `public` only with `public_ip_required`.
 */
export function networksForNode(config: NetworkConfiguration, node: PlanNode, roles: Readonly<Record<string, RoleNetworkNeeds>> = {}): string[] {
  if (node.roles.length === 0) return [];
  if (node.networksNeeded) {
    const wanted = new Set(node.networksNeeded);
    return config.networks.filter((n) => wanted.has(n.name) && isAddressed(n)).map((n) => n.name);
  }
  const withPublic = needsPublic(node.roles, roles);
  return config.networks.filter((n) => isAddressed(n) && (n.name !== 'public' || withPublic)).map((n) => n.name);
}

/** Free addresses of one network, lowest first, skipping those in use and the gateway. */
class Pool {
  private range = 0;
  private next: number;
  readonly used = new Set<number>();
  constructor(readonly network: Network, readonly ranges: Array<[number, number]>) {
    this.next = ranges[0]?.[0] ?? 0;
    const gateway = parseIp(network.gateway);
    if (gateway !== null) this.used.add(gateway);
  }
  contains(ip: number): boolean {
    for (const [a, b] of this.ranges) if (ip >= a && ip <= b) return true;
    return false;
  }
  take(): number | null {
    while (this.range < this.ranges.length) {
      const [, last] = this.ranges[this.range];
      while (this.next <= last) {
        const ip = this.next++;
        if (!this.used.has(ip)) {
          this.used.add(ip);
          return ip;
        }
      }
      this.range++;
      if (this.range < this.ranges.length) this.next = this.ranges[this.range][0];
    }
    return null;
  }
  /** How many addresses the ranges hold in all (the gateway and addresses in use not subtracted). */
  size(): number {
    return this.ranges.reduce((sum, [a, b]) => sum + (b - a + 1), 0);
  }
}

function pools(config: NetworkConfiguration): Map<string, Pool> {
  const out = new Map<string, Pool>();
  for (const network of config.networks) if (isAddressed(network)) out.set(network.name, new Pool(network, rangesOf(network)));
  return out;
}

function outOfAddresses(network: Network, pool: Pool, missing: number, what: string): NetworkFinding {
  return {
    code: 'network/out-of-addresses',
    severity: 'error',
    message: `network ${network.name} has no free address left for ${missing} ${what} (its ranges hold ${pool.size()} addresses, ${pool.used.size} of them in use or the gateway)`,
    networks: [network.name],
    field: `${network.name}.ip_ranges`,
    hint: `widen ${network.name}'s IP ranges${network.meta.notation === 'cidr' ? ' (a larger CIDR)' : ''}, or give fewer nodes roles that need it`,
  };
}

/**
 * Plans node addresses. `taken` holds the addresses already stored: those of the planned nodes are
 * kept when still valid, all others (other nodes, VIPs) are never handed out. Returns every planned
 * node's addresses (kept and new), by node then network.
 */
export function planAddresses(config: NetworkConfiguration, nodes: readonly PlanNode[], taken: readonly TakenAddress[] = [], options: { roles?: Readonly<Record<string, RoleNetworkNeeds>> } = {}): AddressPlan {
  const byName = pools(config);
  const planned = new Set(nodes.map((n) => n.id));
  const own = new Map<string, Map<string, number>>();
  for (const t of taken) {
    const pool = byName.get(t.network);
    const ip = parseIp(t.ip);
    if (!pool || ip === null) continue;
    if (t.node === undefined || !planned.has(t.node)) pool.used.add(ip);
  }
  // Kept addresses are claimed before any new one is handed out, in the stable node order: of two
  // nodes stored with one address (a bug elsewhere), the first keeps it and the second gets a new one.
  const order = [...nodes].sort((a, b) => compareNodeIds(a.id, b.id));
  const needed = new Map<string, string[]>();
  for (const node of order) needed.set(node.id, networksForNode(config, node, options.roles));
  for (const t of taken) {
    if (t.node === undefined || !planned.has(t.node)) continue;
    const pool = byName.get(t.network);
    const ip = parseIp(t.ip);
    if (!pool || ip === null || !pool.contains(ip) || !needed.get(t.node)?.includes(t.network)) continue;
    let mine = own.get(t.node);
    if (!mine) own.set(t.node, (mine = new Map()));
    if (mine.has(t.network)) continue;
    mine.set(t.network, ip);
  }
  const claimed = new Map<string, Set<number>>();
  for (const node of order) {
    const mine = own.get(node.id);
    if (!mine) continue;
    for (const [network, ip] of mine) {
      const pool = byName.get(network) as Pool;
      let seen = claimed.get(network);
      if (!seen) claimed.set(network, (seen = new Set()));
      if (pool.used.has(ip) || seen.has(ip)) mine.delete(network);
      else seen.add(ip);
    }
  }
  for (const [network, ips] of claimed) for (const ip of ips) byName.get(network)?.used.add(ip);

  const addresses: AddressAssignment[] = [];
  const short = new Map<string, number>();
  for (const node of order) {
    const mine = own.get(node.id);
    for (const network of needed.get(node.id) ?? []) {
      const kept = mine?.get(network);
      const ip = kept ?? byName.get(network)?.take() ?? null;
      if (ip === null) short.set(network, (short.get(network) ?? 0) + 1);
      else addresses.push({ node: node.id, network, ip: formatIp(ip) });
    }
  }
  const findings: NetworkFinding[] = [];
  for (const [name, missing] of short) {
    const pool = byName.get(name) as Pool;
    findings.push(outOfAddresses(pool.network, pool, missing, missing === 1 ? 'node' : 'nodes'));
  }
  return { addresses, findings };
}

/** The VIP requests of the network roles, by VIP name (the first request of a name wins; duplicates are findings). */
export function vipRequests(networkRoles: readonly NetworkRole[]): { requests: Array<{ role: NetworkRole; name: string; namespace: string | null; node_roles: string[] }>; findings: NetworkFinding[] } {
  const requests: Array<{ role: NetworkRole; name: string; namespace: string | null; node_roles: string[] }> = [];
  const findings: NetworkFinding[] = [];
  const byName = new Map<string, NetworkRole>();
  for (const role of networkRoles) {
    for (const vip of role.properties.vip ?? []) {
      const first = byName.get(vip.name);
      if (first) {
        if (first.id !== role.id) {
          findings.push({
            code: 'network/duplicate-vip-name',
            severity: 'error',
            message: `VIP ${vip.name} is requested by network roles ${first.id} and ${role.id}`,
            networks: [...new Set([first.default_mapping, role.default_mapping])],
            hint: `VIP names are unique in an environment: rename the VIP of ${role.plugin ? `plugin ${role.plugin}'s ` : ''}network role ${role.id}`,
          });
        }
        continue;
      }
      byName.set(vip.name, role);
      requests.push({ role, name: vip.name, namespace: typeof vip.namespace === 'string' ? vip.namespace : null, node_roles: Array.isArray(vip.node_roles) ? [...vip.node_roles] : [...DEFAULT_VIP_NODE_ROLES] });
    }
  }
  return { requests, findings };
}

/**
 * Plans the VIPs of the network roles, each on its role's network. A VIP in `taken` (by `name`) is
 * kept when user-defined or still in the ranges; every other address in `taken` is never handed
 * out. With `presentRoles`, VIPs whose node roles no node has are left out, as Nailgun did.
 */
export function planVips(config: NetworkConfiguration, networkRoles: readonly NetworkRole[], taken: readonly TakenAddress[] = [], options: { presentRoles?: readonly string[] } = {}): VipPlan {
  const byName = pools(config);
  const networks = new Map(config.networks.map((n) => [n.name, n]));
  const { requests, findings } = vipRequests(networkRoles);
  const present = options.presentRoles ? new Set(options.presentRoles.map((r) => r.replace(/^primary-/, ''))) : null;
  const previous = new Map<string, TakenAddress>();
  for (const t of taken) {
    if (t.node === undefined && t.name !== undefined && !previous.has(t.name)) previous.set(t.name, t);
    else {
      const ip = parseIp(t.ip);
      if (ip !== null) byName.get(t.network)?.used.add(ip);
    }
  }
  const wanted = requests.filter((r) => !present || r.node_roles.some((nr) => present.has(nr.replace(/^primary-/, ''))));
  // First every VIP that keeps its address, then the new ones: a new VIP never takes a kept one's.
  const kept = new Map<string, VipAssignment>();
  for (const r of wanted) {
    const before = previous.get(r.name);
    const pool = byName.get(r.role.default_mapping);
    if (!before || before.network !== r.role.default_mapping) continue;
    const ip = parseIp(before.ip);
    if (ip === null) continue;
    if (before.is_user_defined !== true && (!pool || !pool.contains(ip) || pool.used.has(ip))) continue;
    pool?.used.add(ip);
    kept.set(r.name, vip(r, before.ip, before.is_user_defined === true));
  }
  const vips: VipAssignment[] = [];
  for (const r of wanted) {
    const same = kept.get(r.name);
    if (same) {
      vips.push(same);
      continue;
    }
    const network = networks.get(r.role.default_mapping);
    const pool = byName.get(r.role.default_mapping);
    if (!network || !pool) {
      // Nailgun skipped a VIP on a network the environment lacks (baremetal without Ironic) with a
      // log line; here it is a warning, and an error when the network exists but has no addresses.
      findings.push({
        code: 'network/vip-without-network',
        severity: network ? 'error' : 'warning',
        message: network
          ? `VIP ${r.name} of network role ${r.role.id} is on network ${network.name}, which has no address ranges`
          : `VIP ${r.name} of network role ${r.role.id} is on network ${r.role.default_mapping}, which this environment does not have`,
        networks: [r.role.default_mapping],
        hint: network ? `give ${network.name} a CIDR and IP ranges, or map network role ${r.role.id} to another network` : `map network role ${r.role.id} to one of: ${config.networks.map((n) => n.name).join(', ')}`,
      });
      continue;
    }
    const ip = pool.take();
    if (ip === null) findings.push(outOfAddresses(network, pool, 1, `VIP (${r.name})`));
    else vips.push(vip(r, formatIp(ip), false));
  }
  return { vips, findings };
}

function vip(r: { role: NetworkRole; name: string; namespace: string | null; node_roles: string[] }, ip: string, userDefined: boolean): VipAssignment {
  return { name: r.name, network: r.role.default_mapping, network_role: r.role.id, namespace: r.namespace, ip, node_roles: r.node_roles, is_user_defined: userDefined };
}

/** `ip/prefix` for an address on a network (`192.168.0.3/24`), as `network_scheme` endpoints write it. */
export function withPrefix(ip: string, network: Network | undefined): string {
  const cidr = parseCidr(network?.cidr);
  return cidr ? `${ip}/${cidr.prefix}` : ip;
}
