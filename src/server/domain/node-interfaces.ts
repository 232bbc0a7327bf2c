/**
 * A node's interfaces and the networks on them. A real node's interfaces are its facts (`ip -j
 * addr`, deploy/facts.ts); a simulated node gets three plausible ones (eth0-eth2, as Fuel's fake
 * nodes had). The interface holding the node's SSH address is the admin interface: Hearth reaches
 * the node there, so the admin network stays on it. The mapping is the operator's where saved,
 * else core's default (by `map_priority`).
 */
import { defaultInterfaces, type InterfaceFact, type Network, type NetworkConfiguration, type NodeInterface } from '../../core/networks/index.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';

export interface NodeWiring {
  node: store.NodeRecord;
  /** The interfaces the node has (facts, or simulated). */
  facts: InterfaceFact[];
  adminInterface: string;
  /** The node's SSH address with its prefix (`10.77.0.48/24`), when it is a real node. */
  adminAddress?: string;
  /** Each interface with its networks: saved by the operator, or the default. */
  interfaces: NodeInterface[];
  /** Whether the mapping is the operator's (saved with PUT /nodes/{id}/interfaces). */
  saved: boolean;
}

interface FactInterface {
  name?: unknown;
  mac?: unknown;
  state?: unknown;
  addresses?: unknown;
  speed_mbps?: unknown;
}

const hex = (n: number) => (n & 255).toString(16).padStart(2, '0');

/** A simulated node's interfaces: stable names and MACs made from its id, so every read agrees. */
export function simulatedInterfaces(nodeId: number): InterfaceFact[] {
  return [0, 1, 2].map((i) => ({ name: `eth${i}`, mac: `52:54:${hex(nodeId >> 16)}:${hex(nodeId >> 8)}:${hex(nodeId)}:${hex(i)}`, state: 'up', addresses: [], speed_mbps: 1000 }));
}

/** The interfaces in a real node's facts (loopback is already left out there). */
export function factInterfaces(facts: unknown): InterfaceFact[] {
  const list = facts !== null && typeof facts === 'object' ? (facts as { interfaces?: unknown }).interfaces : undefined;
  if (!Array.isArray(list)) return [];
  return (list as FactInterface[])
    .filter((i) => typeof i.name === 'string' && i.name.length > 0)
    .map((i) => ({
      name: i.name as string,
      ...(typeof i.mac === 'string' ? { mac: i.mac } : {}),
      state: typeof i.state === 'string' ? i.state : 'unknown',
      addresses: Array.isArray(i.addresses) ? i.addresses.filter((a): a is string => typeof a === 'string') : [],
      speed_mbps: typeof i.speed_mbps === 'number' ? i.speed_mbps : null,
    }));
}

const addressesOf = (i: InterfaceFact): string[] => (Array.isArray(i.addresses) ? (i.addresses as string[]) : []);

/** The interface holding `address` (the SSH address), and the address with its prefix. */
export function adminInterfaceOf(interfaces: readonly InterfaceFact[], address: string | undefined): { name: string; address?: string } {
  if (address) {
    for (const i of interfaces) {
      const held = addressesOf(i).find((a) => a.split('/')[0] === address);
      if (held) return { name: i.name, address: held };
    }
  }
  // A DNS name, or facts not gathered yet: the first interface with an address, else the first one.
  const first = interfaces.find((i) => addressesOf(i).length > 0) ?? interfaces[0];
  return { name: first?.name ?? 'eth0', ...(address && /^[0-9.]+$/.test(address) ? { address } : {}) };
}

/**
 * The saved mapping laid over the node's interfaces as they are now: networks on interfaces that
 * are gone, and networks added since, go where the default would put them; networks no longer in
 * the configuration are dropped.
 */
export function mergeSaved(saved: readonly NodeInterface[], defaults: readonly NodeInterface[], networks: readonly Network[]): NodeInterface[] {
  const ids = new Map(networks.map((n) => [n.name, n.id]));
  const names = new Set(defaults.map((i) => i.name));
  const placed = new Map<string, string>();
  for (const i of saved) if (names.has(i.name)) for (const n of i.assigned_networks) if (ids.has(n.name) && !placed.has(n.name)) placed.set(n.name, i.name);
  for (const i of defaults) for (const n of i.assigned_networks) if (!placed.has(n.name)) placed.set(n.name, i.name);
  return defaults.map((i) => ({
    ...i,
    assigned_networks: networks.filter((n) => placed.get(n.name) === i.name).map((n) => ({ ...(n.id !== undefined ? { id: n.id } : {}), name: n.name })),
  }));
}

/** The wiring of each node: its interfaces, the admin one, and the networks on each. */
export async function nodeWirings(q: store.Queryable, config: NetworkConfiguration, nodes: readonly store.NodeRecord[]): Promise<Map<number, NodeWiring>> {
  const ids = nodes.map((n) => n.id);
  const access = await real.realNodes(q, ids);
  const saved = await store.nodeInterfaces(q, ids);
  const out = new Map<number, NodeWiring>();
  for (const node of nodes) {
    const r = access.get(node.id);
    const facts = r ? factInterfaces(r.facts) : simulatedInterfaces(node.id);
    const admin = adminInterfaceOf(facts, r?.address);
    const defaults = defaultInterfaces(facts, config.networks, admin.name);
    const mine = saved.get(node.id);
    out.set(node.id, {
      node,
      facts,
      adminInterface: admin.name,
      ...(r && admin.address ? { adminAddress: admin.address } : {}),
      interfaces: mine ? mergeSaved(mine, defaults, config.networks) : defaults,
      saved: mine !== undefined,
    });
  }
  return out;
}
