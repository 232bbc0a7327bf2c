/**
 * The shapes of the network API, in Fuel's words (Nailgun's network_configuration resource, its
 * node interfaces with `assigned_networks`, a node's `network_data`, astute.yaml's VIPs). Listed
 * in shapes.ts's COMPONENTS like every shared shape.
 */
const STRING = { type: 'string' } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const IP_RANGE = { type: 'array', minItems: 2, maxItems: 2, items: STRING, description: '[first, last], both included' } as const;

export const NETWORK = {
  type: 'object',
  required: ['id', 'name', 'cidr', 'gateway', 'vlan_start', 'ip_ranges', 'meta'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer', description: 'the network\'s number in its environment (assigned_networks refer to it)' },
    name: STRING,
    cidr: { ...NULLABLE_STRING, description: 'IPv4 CIDR; null for networks without addresses (admin, Neutron VLAN private)' },
    gateway: NULLABLE_STRING,
    vlan_start: { type: ['integer', 'null'], description: 'the VLAN tag; null: untagged' },
    ip_ranges: { type: 'array', items: IP_RANGE, description: 'where node addresses and VIPs come from' },
    group_id: { type: ['integer', 'null'] },
    mtu: { type: ['integer', 'null'], description: "the MTU frames on this network must pass (network_scheme sets it on the network's ports; Verify networks sends frames of this size); absent or null: the interfaces' own" },
    meta: { type: 'object', additionalProperties: true, description: "the release's description of the network: notation, map_priority, use_gateway, assign_vip, configurable, ..." },
  },
} as const;

export const NETWORK_FINDING = {
  type: 'object',
  description: 'What the network checks found, with the networks involved, the field to change and what to change it to',
  required: ['code', 'severity', 'message', 'networks', 'hint'],
  additionalProperties: false,
  properties: {
    code: STRING,
    severity: { type: 'string', enum: ['error', 'warning'] },
    message: STRING,
    networks: { type: 'array', items: STRING },
    field: { ...STRING, description: 'the field to edit: `public.cidr`, `networking_parameters.floating_ranges`, ...' },
    node: { ...STRING, description: 'the node, where the finding is about its wiring' },
    interface: STRING,
    hint: STRING,
  },
} as const;
const NETWORK_FINDINGS = { type: 'array', items: NETWORK_FINDING } as const;

export const NETWORK_CONFIGURATION = {
  type: 'object',
  required: ['networks', 'networking_parameters', 'findings'],
  additionalProperties: false,
  properties: {
    networks: { type: 'array', items: NETWORK },
    networking_parameters: {
      type: 'object',
      additionalProperties: true,
      description: "Neutron's parameters: segmentation_type, vlan_range, gre_id_range, floating_ranges, internal_cidr, dns_nameservers, ...",
      properties: { segmentation_type: STRING, floating_ranges: { type: 'array', items: IP_RANGE }, vlan_range: { type: ['array', 'null'], items: { type: 'integer' } }, dns_nameservers: { type: 'array', items: STRING } },
    },
    findings: { ...NETWORK_FINDINGS, description: 'the checks Fuel made before a deployment, for every network; errors refuse a deployment' },
    saved: { type: 'boolean', description: "false while the environment has the release's defaults" },
  },
} as const;

export const VIP = {
  type: 'object',
  required: ['name', 'network', 'ipaddr', 'network_role', 'namespace', 'node_roles', 'is_user_defined'],
  additionalProperties: false,
  properties: {
    name: STRING,
    network: STRING,
    ipaddr: STRING,
    network_role: STRING,
    namespace: NULLABLE_STRING,
    node_roles: { type: 'array', items: STRING },
    is_user_defined: { type: 'boolean' },
  },
} as const;

/** One of a node's addresses (Fuel's `network_data` entry). */
export const NETWORK_DATA = {
  type: 'array',
  description: "the node's addresses, one per network it is on (Fuel's network_data)",
  items: {
    type: 'object',
    required: ['name', 'ip', 'vlan', 'dev', 'gateway'],
    additionalProperties: false,
    properties: {
      name: STRING,
      ip: { ...NULLABLE_STRING, description: 'address/prefix; null where the network has no address for it' },
      vlan: { type: ['integer', 'null'] },
      dev: { ...NULLABLE_STRING, description: 'the interface the network is mapped to' },
      gateway: NULLABLE_STRING,
      cidr: NULLABLE_STRING,
    },
  },
} as const;

export const NODE_INTERFACE = {
  type: 'object',
  required: ['name', 'type', 'assigned_networks'],
  additionalProperties: false,
  properties: {
    name: STRING,
    type: STRING,
    mac: NULLABLE_STRING,
    state: STRING,
    current_speed: { type: ['integer', 'null'], description: 'Mb/s' },
    pxe: { type: 'boolean', description: 'the interface Hearth reaches the node on (it carries the admin network)' },
    ip_addresses: { type: 'array', items: STRING },
    assigned_networks: { type: 'array', items: { type: 'object', required: ['name'], additionalProperties: false, properties: { id: { type: 'integer' }, name: STRING } } },
  },
} as const;
