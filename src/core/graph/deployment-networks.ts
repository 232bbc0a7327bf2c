/**
 * The networks the deployment data is written from (astute.yaml's `network_scheme` and
 * `network_metadata`): the server's stored plan (configuration, addresses, VIPs, each node's
 * interfaces), or, where there is no server (`hearth graph` on files, benchmarks), the plan the
 * release's defaults give: its networks, addresses in the stable order, VIPs, and every node wired
 * the same way on three interfaces. Either way the values come from core/networks, so tasks read
 * the same shapes whoever built the graph.
 */
import {
  defaultInterfaces,
  defaultNetworkConfiguration,
  networkMetadata,
  networkRolesOf,
  networkScheme,
  planAddresses,
  planVips,
  type AddressAssignment,
  type NetworkConfiguration,
  type NetworkMetadata,
  type NetworkRole,
  type NetworkScheme,
  type NodeInterface,
  type RoleNetworkNeeds,
  type SchemeNode,
  type VipAssignment,
} from '../networks/index.js';
import type { NodeInput } from './model.js';

/** An environment's network plan, as the server keeps it. Node ids are the graph's (strings). */
export interface DeploymentNetworks {
  config: NetworkConfiguration;
  addresses: readonly AddressAssignment[];
  vips: readonly VipAssignment[];
  /** The composed network roles (release and plugins). */
  networkRoles: readonly NetworkRole[];
  /** Each node's interfaces with their networks, and the address Hearth reaches it on. */
  nodes: ReadonlyMap<string, { interfaces: readonly NodeInterface[]; adminAddress?: string }>;
}

/** What of a release the default plan reads. */
export interface NetworkSource {
  networks_metadata?: Record<string, unknown>;
  network_roles_metadata?: Array<Record<string, unknown>>;
  roles_metadata?: Record<string, { public_ip_required?: boolean }>;
}

/** The plan and what the deployment data needs of it, made once per graph. */
export interface NetworkData {
  plan: DeploymentNetworks;
  metadata: NetworkMetadata;
  /** A node's addresses by network (the legacy `internal_address`, `ip`, ...). */
  addressesOf: (nodeId: string) => ReadonlyMap<string, string>;
  scheme: (node: SchemeNode) => NetworkScheme;
}

const SIMULATED = [0, 1, 2].map((i) => ({ name: `eth${i}` }));

/** The plan the release's defaults give for these nodes. */
export function defaultNetworkPlan(source: NetworkSource, nodes: readonly NodeInput[]): DeploymentNetworks {
  const config = defaultNetworkConfiguration({ networks_metadata: source.networks_metadata ?? {} });
  const networkRoles = networkRolesOf({ network_roles_metadata: source.network_roles_metadata ?? [] });
  const roles: Record<string, RoleNetworkNeeds> = {};
  for (const [name, meta] of Object.entries(source.roles_metadata ?? {})) roles[name] = { public_ip_required: meta?.public_ip_required === true };
  const planned = nodes.filter((n) => n.roles.length > 0).map((n) => ({ id: n.id, roles: n.roles }));
  // VIPs first, then the nodes around them: adding nodes then leaves the VIPs where they were, as
  // the server's stored plan does, so a redeployment's lifecycle conditions see them unchanged.
  const { vips } = planVips(config, networkRoles, [], { presentRoles: [...new Set(planned.flatMap((n) => n.roles))] });
  const { addresses } = planAddresses(config, planned, vips.map((v) => ({ network: v.network, ip: v.ip })), { roles });
  // Every node is wired alike: one mapping, shared (a thousand nodes need not make a thousand).
  const interfaces = defaultInterfaces(SIMULATED, config.networks, 'eth0');
  const wiring = { interfaces };
  return { config, addresses, vips, networkRoles, nodes: new Map(nodes.map((n) => [n.id, wiring])) };
}

/** The network part of the deployment data for these nodes (with their names as the data writes them). */
export function networkData(plan: DeploymentNetworks, nodes: readonly SchemeNode[]): NetworkData {
  const byNode = new Map<string, Map<string, string>>();
  for (const a of plan.addresses) {
    let mine = byNode.get(a.node);
    if (!mine) byNode.set(a.node, (mine = new Map()));
    if (!mine.has(a.network)) mine.set(a.network, a.ip);
  }
  const empty = new Map<string, string>();
  return {
    plan,
    metadata: networkMetadata(plan.config, nodes, plan.addresses, plan.vips, plan.networkRoles),
    addressesOf: (id) => byNode.get(id) ?? empty,
    scheme: (node) => networkScheme(plan.config, node, plan.addresses, plan.networkRoles),
  };
}

/** A node as `networkScheme` reads it: its interfaces from the plan (none when the plan does not know it). */
export function schemeNode(plan: DeploymentNetworks, id: string, name: string, fqdn: string, roles: readonly string[]): SchemeNode {
  const wiring = plan.nodes.get(id);
  return { id, name, fqdn, roles, interfaces: wiring?.interfaces ?? [], ...(wiring?.adminAddress ? { adminAddress: wiring.adminAddress } : {}) };
}
