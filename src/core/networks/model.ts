/**
 * An environment's networks, in the shapes Fuel gave them so that operators, scripts and tasks
 * written for Fuel read them unchanged:
 * - `NetworkConfiguration` is Nailgun's `network_configuration` resource (Neutron flavour): the
 *   networks with their CIDR, gateway, VLAN and ranges, plus `networking_parameters`;
 * - a node's addresses are Nailgun's `ip_addrs` rows (one per node and network), VIPs its `ip_addrs`
 *   rows without a node;
 * - the node's interfaces are Nailgun's `GET /nodes/{id}/interfaces` entries (`assigned_networks`);
 * - `NetworkScheme` and `NetworkMetadata` are astute.yaml's `network_scheme` and `network_metadata`.
 * Everything here is plain data: the store keeps it, core computes it, the deploy layer applies it.
 */

/** How a network's addresses are given: the whole CIDR (`cidr`), explicit ranges, or none (no L3). */
export type Notation = 'cidr' | 'ip_ranges' | null;

/** Neutron's tenant segmentation: VLANs from `vlan_range`, or tunnels (GRE, VXLAN) on `private`. */
export type SegmentationType = 'vlan' | 'gre' | 'tun';

/** A closed range of IPv4 addresses, `[first, last]`, as Nailgun wrote them. */
export type IpRange = [string, string];

/**
 * The release's description of a network (Nailgun's network group `meta`), kept on each network:
 * the checks and the address plan read it, the API returns it as Fuel did.
 */
export interface NetworkMeta {
  /** `cidr`: every address of the CIDR but the gateway is usable; `ip_ranges`: only the ranges. */
  notation: Notation;
  /** Default interface mapping: 0 is the admin interface, then lower numbers on earlier interfaces. */
  map_priority: number;
  /** The network has a gateway nodes route through (public). */
  use_gateway: boolean;
  /** VIPs may be allocated on it (the release's `vips` list non-empty, or Fuel 7's `assign_vip`). */
  assign_vip: boolean;
  /** The VIP namespaces the release named for it (`haproxy`, `vrouter`). */
  vips?: string[];
  /** `cidr` or null: how the UI shows the network. */
  render_type?: string | null;
  /** Legacy astute.yaml key this network's address was written under (`internal`, `storage`, `public`). */
  render_addr_mask?: string | null;
  /** False for networks the operator does not edit (admin, Neutron VLAN private). */
  configurable?: boolean;
  /** Neutron's VLAN private network: it has no addresses, its VLANs are `networking_parameters.vlan_range`. */
  neutron_vlan_range?: boolean;
  /** Which segmentation this variant of `private` belongs to. */
  seg_type?: SegmentationType;
  /** The `networking_parameters` key holding the floating ranges that must lie in this network (public). */
  floating_range_var?: string;
  /** The release's default values (what a reset goes back to). */
  cidr?: string | null;
  gateway?: string | null;
  ip_range?: IpRange | null;
  vlan_start?: number | null;
  /** Anything else the release's metadata said (`restrictions`, `ext_net_data`, ...). */
  [key: string]: unknown;
}

/** One network of an environment: what `GET /clusters/{id}/network_configuration` lists. */
export interface Network {
  /** The store's id; absent in a configuration made from a release and not stored yet. */
  id?: number;
  name: string;
  /** IPv4 CIDR (`192.168.0.0/24`); null for networks without addresses (Neutron VLAN private, admin). */
  cidr: string | null;
  gateway: string | null;
  /** The VLAN tag, or null when untagged. */
  vlan_start: number | null;
  /** Where node addresses and VIPs come from; with `notation: cidr` the whole CIDR by default. */
  ip_ranges: IpRange[];
  /** Nailgun's node group; Hearth has one group per environment. */
  group_id?: number | null;
  /**
   * The MTU frames on this network must pass (bytes of Ethernet payload, as `ip link` says it);
   * absent or null: the interfaces' own. Fuel 9 set it per interface; Hearth per network, and the
   * interface carrying several networks takes the largest (network_scheme), so jumbo frames for
   * storage are one field. Verify networks sends frames of this size on the network's VLAN.
   */
  mtu?: number | null;
  meta: NetworkMeta;
}

export interface NetworkingParameters {
  segmentation_type: SegmentationType;
  net_l23_provider: 'ovs';
  /** Neutron's tenant VLAN range on the private network (VLAN segmentation), `[first, last]`. */
  vlan_range: [number, number] | null;
  /** Tunnel ids (GRE/VXLAN segmentation). */
  gre_id_range: [number, number] | null;
  base_mac: string;
  /** Neutron's default tenant network. */
  internal_cidr: string | null;
  internal_gateway: string | null;
  internal_name: string;
  floating_name: string;
  /** Neutron floating IPs: must lie inside the public network, outside its node ranges. */
  floating_ranges: IpRange[];
  dns_nameservers: string[];
  /** Ironic's range on the baremetal network, when the release has one. */
  baremetal_gateway?: string | null;
  baremetal_range?: IpRange | null;
  configuration_template: null;
  [key: string]: unknown;
}

/** Nailgun's `network_configuration` resource, Neutron flavour. */
export interface NetworkConfiguration {
  networks: Network[];
  networking_parameters: NetworkingParameters;
}

/** A network role, as the release and plugins declare it (`network_roles.yaml`). */
export interface NetworkRole {
  id: string;
  /** The network the role lives on (`management`, `public`, ...). */
  default_mapping: string;
  properties: {
    subnet?: boolean;
    gateway?: boolean;
    vip?: VipRequest[];
  };
  /** The plugin that added it, when not the release. */
  plugin?: string;
}

export interface VipRequest {
  name: string;
  /** `haproxy`, `vrouter`, or null for a VIP not in a namespace. */
  namespace?: string | null;
  alias?: string;
  /** Node roles the VIP moves between; `['controller', 'primary-controller']` by default. */
  node_roles?: string[];
  [key: string]: unknown;
}

/** What the release offers for roles' needs: only `public_ip_required` matters for addresses. */
export interface RoleNetworkNeeds {
  public_ip_required?: boolean;
}

/**
 * A node as the address plan sees it. `networksNeeded` overrides the rule (public only for roles
 * with `public_ip_required`, every other network for every node with roles).
 */
export interface PlanNode {
  id: string;
  roles: readonly string[];
  networksNeeded?: readonly string[];
}

/** One node's address on one network (a Nailgun `ip_addrs` row with a node). */
export interface AddressAssignment {
  node: string;
  network: string;
  ip: string;
}

/** One VIP (a Nailgun `ip_addrs` row without a node, `vip_name` and `vip_namespace` set). */
export interface VipAssignment {
  /** The VIP's name (`management`, `public`, `vrouter`, ...), unique in the environment. */
  name: string;
  network: string;
  network_role: string;
  namespace: string | null;
  ip: string;
  node_roles: string[];
  /** Set when a user fixed the address by hand (Fuel 9's `is_user_defined`): kept across plans. */
  is_user_defined?: boolean;
}

/**
 * An address already held: a stored node address (`node` set) or a VIP (no `node`; `name` its VIP
 * name, so a VipAssignment is a TakenAddress). Never handed out again; a planned node's or VIP's own
 * is kept while it still lies in its network's ranges.
 */
export interface TakenAddress {
  node?: string;
  name?: string;
  network: string;
  ip: string;
  is_user_defined?: boolean;
}

/** The address plan: what changed is for the caller to store; `findings` say why something is missing. */
export interface AddressPlan {
  addresses: AddressAssignment[];
  findings: NetworkFinding[];
}

export interface VipPlan {
  vips: VipAssignment[];
  findings: NetworkFinding[];
}

/** A network interface from the node's facts. */
export interface InterfaceFact {
  name: string;
  mac?: string;
  /** Link speed in Mb/s, state, driver, ...: passed through. */
  [key: string]: unknown;
}

/** A node interface in Nailgun's `GET /nodes/{id}/interfaces` shape. */
export interface NodeInterface {
  name: string;
  mac?: string;
  type: 'ether';
  /** Networks carried by this interface (each on its own VLAN, at most one untagged). */
  assigned_networks: Array<{ id?: number; name: string }>;
  /** True for the interface Hearth reaches the node on (Fuel's PXE/admin interface). */
  pxe?: boolean;
  /** From the facts, passed to `network_scheme.interfaces[].vendor_specific` as Fuel did. */
  driver?: string;
  bus_info?: string;
}

/**
 * Why a network finding was made and what to change. `networks` names every network involved;
 * `field` the one to edit (`public.cidr`, `networking_parameters.floating_ranges`), `node` and
 * `interface` where the finding is about a node's wiring.
 */
export interface NetworkFinding {
  /** Stable code: `network/overlapping-cidrs`, `network/gateway-outside-cidr`, ... */
  code: string;
  severity: 'error' | 'warning';
  message: string;
  networks: string[];
  field?: string;
  node?: string;
  interface?: string;
  /** What to change, in plain words. */
  hint: string;
}

/** What the checks know of a node: its interfaces (when mapped) and how many addresses it needs. */
export interface CheckNode {
  id: string;
  roles: readonly string[];
  networksNeeded?: readonly string[];
  interfaces?: readonly NodeInterface[];
  /** The interface holding the node's SSH address: the admin network must stay on it. */
  adminInterface?: string;
}

/** What `checkNetworks` reads besides the configuration. */
export interface NodesInfo {
  nodes: readonly CheckNode[];
  /** The roles' `public_ip_required` (release `roles_metadata`). */
  roles?: Readonly<Record<string, RoleNetworkNeeds>>;
  /** Composed network roles (release + plugins): VIPs to count and networks they need. */
  networkRoles?: readonly NetworkRole[];
  /**
   * Addresses held outside the plan. The nodes' SSH addresses as `{node, network: 'fuelweb_admin',
   * ip}` are checked against every network's CIDR (Nailgun's admin network intersection).
   */
  taken?: readonly TakenAddress[];
}

/** astute.yaml `network_scheme` transformation (Fuel 9, `version: '1.1'`). */
export type Transformation =
  | { action: 'add-br'; name: string; provider?: string }
  | { action: 'add-port'; name: string; bridge: string; provider?: string; mtu?: number }
  | { action: 'add-patch'; bridges: [string, string]; provider?: string; mtu?: number };

export interface Endpoint {
  /** `['192.168.0.3/24']`, or `'none'` for a bridge without an address; absent on an unaddressed `br-mesh`. */
  IP?: string[] | 'none';
  gateway?: string;
  /** Fuel 9: `provider_gateway` for a network with a gateway. */
  vendor_specific?: { provider_gateway?: string; phy_interfaces?: string[]; vlans?: string | number };
}

export interface NetworkScheme {
  version: '1.1';
  provider: 'lnx';
  interfaces: Record<string, { mtu?: number; vendor_specific?: Record<string, unknown> }>;
  transformations: Transformation[];
  endpoints: Record<string, Endpoint>;
  /** Every network role (release and plugins) to its endpoint (bridge) name. */
  roles: Record<string, string>;
}

/** astute.yaml `network_metadata`: every node's addresses per network role, and the VIPs. */
export interface NetworkMetadata {
  nodes: Record<string, { uid: string; name: string; fqdn: string; node_roles: string[]; network_roles: Record<string, string | null>; [key: string]: unknown }>;
  vips: Record<string, { ipaddr: string; network_role: string; namespace: string | null; node_roles: string[]; is_user_defined: boolean; vendor_specific?: Record<string, unknown> }>;
}

/** A node as `networkScheme`/`networkMetadata` see it: its addresses, its interface mapping, its names. */
export interface SchemeNode {
  id: string;
  /** `node-3`; default `node-<id>`. */
  name?: string;
  fqdn?: string;
  /** Final labels (`primary-controller`, ...), for `network_metadata.nodes[].node_roles`. */
  roles: readonly string[];
  interfaces: readonly NodeInterface[];
  /** The node's SSH address (admin network), with its prefix when known: `10.77.0.11/24`. */
  adminAddress?: string;
  /** The node's current default gateway on the admin network, kept when it has no public address. */
  adminGateway?: string;
  /** `user_node_name` in `network_metadata`. */
  userName?: string;
}
