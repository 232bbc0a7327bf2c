/**
 * Networks of an environment: Fuel's network configuration made from the release, the checks
 * Nailgun ran before a deployment (for every network), the address and VIP plan, the default
 * interface mapping, and astute.yaml's `network_scheme` and `network_metadata`.
 *
 * Public face (all pure):
 * - `defaultNetworkConfiguration(release: Pick<Release, 'networks_metadata'>, options?: { segmentationType?: SegmentationType; enabled?: (condition: string) => boolean }): NetworkConfiguration`
 *   (the admin network `fuelweb_admin` is always there, without CIDR: its addresses are the nodes' SSH addresses)
 * - `networkRolesOf(release: Pick<Release, 'network_roles_metadata'>): NetworkRole[]` (typed, plugin roles included once composed)
 * - `networksForNode(config, node: PlanNode, roles?: Record<string, RoleNetworkNeeds>): string[]` (names, in config order)
 * - `checkNetworks(config: NetworkConfiguration, nodesInfo: NodesInfo): NetworkFinding[]`
 * - `planAddresses(config, nodes: readonly PlanNode[], taken?: readonly TakenAddress[], options?: { roles?: Record<string, RoleNetworkNeeds> }): AddressPlan`
 *   (`taken`: stored node addresses, kept when still valid, and VIPs, never reused)
 * - `planVips(config, networkRoles: readonly NetworkRole[], taken?: readonly TakenAddress[]): VipPlan`
 * - `defaultInterfaces(interfaces: readonly InterfaceFact[], networks: readonly Network[], adminInterface: string): NodeInterface[]`
 * - `checkInterfaceMapping(interfaces: readonly NodeInterface[], networks: readonly Network[], adminInterface: string): NetworkFinding[]`
 * - `networkScheme(config, node: SchemeNode, addresses: readonly AddressAssignment[], networkRoles: readonly NetworkRole[]): NetworkScheme`
 * - `networkMetadata(config, nodes: readonly SchemeNode[], addresses: readonly AddressAssignment[], vips: readonly VipAssignment[], networkRoles: readonly NetworkRole[]): NetworkMetadata`
 */
export type {
  AddressAssignment,
  AddressPlan,
  CheckNode,
  Endpoint,
  InterfaceFact,
  IpRange,
  Network,
  NetworkConfiguration,
  NetworkFinding,
  NetworkingParameters,
  NetworkMeta,
  NetworkMetadata,
  NetworkRole,
  NetworkScheme,
  NodeInterface,
  NodesInfo,
  Notation,
  PlanNode,
  RoleNetworkNeeds,
  SchemeNode,
  SegmentationType,
  TakenAddress,
  Transformation,
  VipAssignment,
  VipPlan,
  VipRequest,
} from './model.js';
export { parseIp, formatIp, parseCidr } from './ip.js';
export { ADMIN_NETWORK, defaultNetworkConfiguration, networkFromMetadata, networkRolesOf, type DefaultNetworkOptions } from './defaults.js';
export { DEFAULT_VIP_NODE_ROLES, compareNodeIds, isAddressed, needsPublic, networksForNode, planAddresses, planVips, vipRequests, withPrefix } from './addresses.js';
export { checkConfiguration, checkNetworks } from './checks.js';
export { checkInterfaceMapping, defaultInterfaces, isUntagged } from './interfaces.js';
export { networkMetadata, networkScheme } from './scheme.js';
