/**
 * An environment's networks as the server keeps them: the configuration (stored, or the release's
 * defaults), the composed network roles, the address and VIP plan kept in step with the nodes, and
 * the checks. Every rule is core's (src/core/networks); this file gathers the stored inputs and
 * writes back what the plan changed.
 */
import {
  ADMIN_NETWORK,
  checkNetworks,
  defaultNetworkConfiguration,
  networkRolesOf,
  planAddresses,
  planVips,
  type AddressAssignment,
  type NetworkConfiguration,
  type NetworkFinding,
  type NetworkRole,
  type RoleNetworkNeeds,
  type SegmentationType,
  type TakenAddress,
  type VipAssignment,
} from '../../core/networks/index.js';
import type { Composition } from '../../core/release/index.js';
import type { DeploymentNetworks } from '../../core/graph/deployment-networks.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { composeCluster } from './environment.js';
import { nodeWirings, type NodeWiring } from './node-interfaces.js';


export interface EnvironmentNetworks {
  cluster: store.ClusterRecord;
  composition: Composition;
  config: NetworkConfiguration;
  /** False while the environment has the release's defaults (nothing saved yet). */
  saved: boolean;
  networkRoles: NetworkRole[];
  roles: Record<string, RoleNetworkNeeds>;
}

/** Neutron's segmentation, from the chosen components: VLAN when `network:neutron:ml2:vlan` is chosen, tunnels otherwise. */
export const segmentationOf = (components: readonly string[]): SegmentationType => (components.some((c) => /^network:neutron:(ml2:)?vlan$/.test(c)) ? 'vlan' : 'tun');

export async function environmentNetworks(q: store.Queryable, cluster: store.ClusterRecord, composed?: Composition): Promise<EnvironmentNetworks> {
  // A caller that composed the environment already (in the same transaction) passes it: inside a
  // transaction nothing is cached, so composing again reads and parses the release row again.
  const composition = composed ?? (await composeCluster(q, cluster));
  const stored = await store.networkConfiguration(q, cluster.id);
  const config = stored ?? withIds(defaultNetworkConfiguration(composition.composed, { segmentationType: segmentationOf(cluster.components) }));
  const roles: Record<string, RoleNetworkNeeds> = {};
  for (const [name, meta] of Object.entries(composition.composed.roles_metadata)) roles[name] = { public_ip_required: meta.public_ip_required === true };
  return { cluster, composition, config, saved: stored !== undefined, networkRoles: networkRolesOf(composition.composed), roles };
}

/** Networks are numbered in their environment (Fuel's ids were global; a client only matches them within one environment). */
export function withIds(config: NetworkConfiguration): NetworkConfiguration {
  return { ...config, networks: config.networks.map((n, i) => ({ ...n, id: n.id ?? i + 1 })) };
}

/** The nodes the plan gives addresses: those with roles, deployed or pending. */
export const planNodesOf = (nodes: readonly store.NodeRecord[]) =>
  nodes.map((n) => ({ id: String(n.id), roles: [...new Set([...n.roles, ...n.pendingRoles])] })).filter((n) => n.roles.length > 0);

/**
 * Plans the environment's addresses and VIPs from what is stored and writes what changed: a node
 * keeps the address it has while it is still valid, a new node gets the next free one, a node that
 * lost its roles gives its addresses back. Call it in the transaction that changed the nodes or the
 * configuration, with the environment's row locked (assignments to one environment queue on it);
 * the database's UNIQUE constraint catches any other writer.
 */
export async function syncAddresses(q: store.Queryable, env: EnvironmentNetworks, nodes?: readonly store.NodeRecord[]): Promise<{ addresses: AddressAssignment[]; vips: VipAssignment[]; findings: NetworkFinding[] }> {
  const all = nodes ?? (await store.listNodes(q, { clusterId: env.cluster.id }));
  // One read of the environment's rows serves the plan and the write of its difference.
  const stored = await store.storedAddresses(q, env.cluster.id);
  const vipTaken: TakenAddress[] = stored.vips.map((v) => ({ name: v.name, network: v.network, ip: v.ip, ...(v.is_user_defined ? { is_user_defined: true } : {}) }));
  const planned = planNodesOf(all);
  const plan = planAddresses(env.config, planned, [...stored.nodes.map((a) => ({ node: a.node, network: a.network, ip: a.ip })), ...vipTaken.map(({ network, ip }) => ({ network, ip }))], { roles: env.roles });
  // VIPs as Nailgun gave them: only for node roles some node has (no controller, no VIP on haproxy).
  const vipPlan = planVips(env.config, env.networkRoles, [...plan.addresses, ...vipTaken], { presentRoles: [...new Set(planned.flatMap((n) => n.roles))] });
  await store.replaceAddresses(
    q,
    env.cluster.id,
    plan.addresses.filter((a) => a.network !== ADMIN_NETWORK).map((a) => ({ nodeId: Number(a.node), network: a.network, ip: a.ip })),
    vipPlan.vips,
    stored,
  );
  return { addresses: plan.addresses, vips: vipPlan.vips, findings: [...plan.findings, ...vipPlan.findings] };
}

/** Everything the checks read: the configuration, the nodes with their interfaces, the SSH addresses on the admin network. */
export async function networkFindings(q: store.Queryable, env: EnvironmentNetworks, config: NetworkConfiguration = env.config): Promise<NetworkFinding[]> {
  const nodes = await store.listNodes(q, { clusterId: env.cluster.id });
  const wirings = await nodeWirings(q, config, nodes);
  return checksWith(env, config, nodes, wirings);
}

export function checksWith(env: EnvironmentNetworks, config: NetworkConfiguration, nodes: readonly store.NodeRecord[], wirings: ReadonlyMap<number, NodeWiring>): NetworkFinding[] {
  // Findings name nodes as people know them: the checks see each node by its (unique) name.
  const taken: AddressAssignment[] = [];
  for (const w of wirings.values()) if (w.adminAddress) taken.push({ node: w.node.name, network: ADMIN_NETWORK, ip: w.adminAddress.split('/')[0] });
  const byId = new Map(nodes.map((n) => [String(n.id), n]));
  return checkNetworks(config, {
    // The admin interface is the one holding the SSH address, not a guess from the mapping.
    nodes: planNodesOf(nodes).map((n) => {
      const w = wirings.get(Number(n.id));
      return { id: byId.get(n.id)!.name, roles: n.roles, interfaces: w?.interfaces ?? [], ...(w ? { adminInterface: w.adminInterface } : {}) };
    }),
    roles: env.roles,
    networkRoles: env.networkRoles,
    taken,
  });
}

export interface NetworkDataEntry {
  name: string;
  ip: string | null;
  vlan: number | null;
  dev: string | null;
  gateway: string | null;
  cidr: string | null;
}

const prefixOf = (cidr: string | null) => (cidr && cidr.includes('/') ? cidr.split('/')[1] : undefined);

/**
 * Fuel's `network_data` of a node: its address on each network it has one on, with the VLAN, the
 * interface the network is mapped to and the gateway; the admin network carries its SSH address.
 * A node in no environment has none.
 */
export async function networkDataOf(q: store.Queryable, node: store.NodeRecord): Promise<NetworkDataEntry[]> {
  if (node.clusterId === undefined) return [];
  const cluster = await store.getCluster(q, node.clusterId);
  if (!cluster) return [];
  const env = await environmentNetworks(q, cluster);
  const wiring = (await nodeWirings(q, env.config, [node])).get(node.id)!;
  const held = new Map((await store.nodeAddresses(q, { nodeIds: [node.id] })).map((a) => [a.network, a.ip]));
  const devOf = new Map<string, string>();
  for (const i of wiring.interfaces) for (const n of i.assigned_networks) devOf.set(n.name, i.name);
  const out: NetworkDataEntry[] = [];
  for (const n of env.config.networks) {
    const dev = devOf.get(n.name) ?? null;
    if (n.name === ADMIN_NETWORK) {
      if (wiring.adminAddress) out.push({ name: n.name, ip: wiring.adminAddress.includes('/') ? wiring.adminAddress : `${wiring.adminAddress}/32`, vlan: null, dev: wiring.adminInterface, gateway: null, cidr: null });
      continue;
    }
    const ip = held.get(n.name);
    if (!ip) continue;
    const prefix = prefixOf(n.cidr);
    out.push({ name: n.name, ip: prefix ? `${ip}/${prefix}` : ip, vlan: n.vlan_start, dev, gateway: n.gateway, cidr: n.cidr });
  }
  return out;
}

/**
 * The environment's stored network plan as the deployment data is written from it (node ids as the
 * graph's strings), with what the checks find: the graph's `network_scheme` and `network_metadata`
 * show the addresses the API shows.
 */
export async function deploymentNetworksOf(q: store.Queryable, cluster: store.ClusterRecord, read?: readonly store.NodeRecord[], composed?: Composition): Promise<{ plan: DeploymentNetworks; findings: NetworkFinding[] }> {
  const env = await environmentNetworks(q, cluster, composed);
  const nodes = read ?? (await store.listNodes(q, { clusterId: cluster.id }));
  const wirings = await nodeWirings(q, env.config, nodes);
  const stored = await store.storedAddresses(q, cluster.id);
  const plan: DeploymentNetworks = {
    config: env.config,
    addresses: stored.nodes.map((a) => ({ node: a.node, network: a.network, ip: a.ip })),
    vips: stored.vips,
    networkRoles: env.networkRoles,
    nodes: new Map([...wirings.values()].map((w) => [String(w.node.id), { interfaces: w.interfaces, ...(w.adminAddress ? { adminAddress: w.adminAddress } : {}) }])),
  };
  // The checks only when asked: a real run reads them, building the graph (twice a deployment) does not.
  return {
    plan,
    get findings() {
      return checksWith(env, env.config, nodes, wirings);
    },
  };
}

/** A real deployment does not start on wiring the checks already know is wrong: every error, per network. */
export function refuseNetworkErrors(clusterName: string, findings: readonly NetworkFinding[]): HttpError | undefined {
  const errors = findings.filter((f) => f.severity === 'error');
  if (!errors.length) return undefined;
  return new HttpError(400, 'deploy/network-errors', `environment '${clusterName}' has network errors: ${errors.slice(0, 5).map((f) => f.message).join('; ')}${errors.length > 5 ? ` and ${errors.length - 5} more` : ''}`, {
    findings: errors,
    hint: 'fix them in the Networks tab, with PUT /api/v1/clusters/{id}/network_configuration or hearth env networks <env> --set NETWORK.FIELD=VALUE',
  });
}
