/**
 * Networks of an environment: Fuel's network configuration made from the release, the checks
 * Nailgun ran before a deployment (for every network), the address and VIP plan, the default
 * interface mapping, and astute.yaml's `network_scheme` and `network_metadata`.
 *
 * Public face (all pure):
 * - `defaultNetworkConfiguration(release, options?: { segmentationType?, restricted? })` → `NetworkConfiguration`
 *   (the admin network `fuelweb_admin` is always there, without CIDR: its addresses are the nodes' SSH addresses)
 * - `networkRolesOf(release)` → `NetworkRole[]` (typed; a composed release's include the plugins')
 * - `networksForNode(config, node, roles?)` → names of the networks the node gets an address on
 * - `checkNetworks(config, nodesInfo)` → `NetworkFinding[]`; `checkConfiguration(config)` for the configuration alone
 * - `planVips(config, networkRoles, taken?, { presentRoles? })` → `VipPlan`
 * - `planAddresses(config, nodes, taken?, { roles? })` → `AddressPlan`
 *   (`taken`: stored node addresses, kept while valid, and VIPs, never reused; plan VIPs first, then
 *   nodes with the VIPs in `taken`, so adding nodes never moves a VIP)
 * - `defaultInterfaces(facts, networks, adminInterface)` → `NodeInterface[]`;
 *   `checkInterfaceMapping(interfaces, networks, adminInterface, { node?, facts? })` → `NetworkFinding[]`
 * - `networkScheme(config, node, addresses, networkRoles)` → `NetworkScheme`;
 *   `networkMetadata(config, nodes, addresses, vips, networkRoles)` → `NetworkMetadata`;
 *   `legacyAddresses(config, nodeId, addresses)` → the legacy `nodes` list's `internal_address`, `internal_netmask`, ...
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
export { MTU_MAX, MTU_MIN, checkConfiguration, checkNetworks } from './checks.js';
export { checkInterfaceMapping, defaultInterfaces, isUntagged } from './interfaces.js';
export { legacyAddresses, networkMetadata, networkScheme } from './scheme.js';
