/**
 * An environment's first network configuration, made from its release's `networks_metadata` the way
 * Nailgun's `create_network_groups` made network groups: one network per entry (the `private`
 * variant of the chosen segmentation only), the gateway at the CIDR's first address when the network
 * uses one, ranges from `ip_range` (notation `ip_ranges`) or the whole CIDR (notation `cidr`).
 */
import type { Release } from '../release/model.js';
import { formatIp, parseCidr } from './ip.js';
import type { IpRange, Network, NetworkConfiguration, NetworkingParameters, NetworkMeta, NetworkRole, SegmentationType, VipRequest } from './model.js';

/** Fuel's admin (PXE) network; in Hearth, the network holding each node's SSH address. */
export const ADMIN_NETWORK = 'fuelweb_admin';

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);
const pair = (v: unknown): IpRange | null => (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' ? [v[0], v[1]] : null);
const intPair = (v: unknown): [number, number] | null => {
  if (!Array.isArray(v) || v.length !== 2) return null;
  const a = int(v[0]);
  const b = int(v[1]);
  return a === null || b === null ? null : [a, b];
};

export interface DefaultNetworkOptions {
  /** Neutron's segmentation; default VLAN when the release has a VLAN `private`, else the first it has. */
  segmentationType?: SegmentationType;
  /**
   * Whether a network with `restrictions` is left out (Nailgun evaluated them against the settings:
   * `baremetal` exists only with Ironic). Without it, restricted networks are left out, as with
   * Fuel's default settings.
   */
  restricted?: (restrictions: unknown[], network: string) => boolean;
}

/** The release's Neutron section: `networks_metadata.neutron`, or the metadata itself when it has `networks`. */
function neutronSection(metadata: Record<string, unknown>): Record<string, unknown> {
  if (isMapping(metadata.neutron)) return metadata.neutron;
  return metadata;
}

function segmentationOf(entries: readonly Record<string, unknown>[], wanted?: SegmentationType): SegmentationType {
  const offered = entries.filter((e) => e.name === 'private' && typeof e.seg_type === 'string').map((e) => e.seg_type as SegmentationType);
  if (wanted) return wanted;
  if (offered.length === 0 || offered.includes('vlan')) return 'vlan';
  return offered[0];
}

function metaOf(entry: Record<string, unknown>): NetworkMeta {
  const vips = Array.isArray(entry.vips) ? entry.vips.filter((v): v is string => typeof v === 'string') : undefined;
  const meta: NetworkMeta = {
    ...entry,
    notation: entry.notation === 'cidr' || entry.notation === 'ip_ranges' ? entry.notation : null,
    map_priority: int(entry.map_priority) ?? 2,
    use_gateway: entry.use_gateway === true,
    assign_vip: entry.assign_vip === true || (vips !== undefined && vips.length > 0),
  };
  if (vips) meta.vips = vips;
  return meta;
}

/** One network from its release entry, as Nailgun's `create_network_group` and `_create_ip_ranges_on_notation` made it. */
export function networkFromMetadata(entry: Record<string, unknown>): Network {
  const meta = metaOf(entry);
  const cidr = meta.notation ? parseCidr(entry.cidr) : null;
  let gateway: string | null = null;
  if (cidr && meta.use_gateway) gateway = meta.notation === 'ip_ranges' ? (str(entry.gateway) ?? formatIp(cidr.first + 1)) : formatIp(cidr.first + 1);
  let ipRanges: IpRange[] = [];
  if (cidr && meta.notation === 'cidr') ipRanges = [[formatIp(cidr.first + (meta.use_gateway ? 2 : 1)), formatIp(cidr.last - 1)]];
  else if (cidr && meta.notation === 'ip_ranges') ipRanges = pair(entry.ip_range) ? [pair(entry.ip_range) as IpRange] : [];
  return {
    name: String(entry.name),
    cidr: cidr ? `${formatIp(cidr.first)}/${cidr.prefix}` : null,
    gateway,
    vlan_start: int(entry.vlan_start),
    ip_ranges: ipRanges,
    group_id: null,
    meta,
  };
}

/** The admin network when the release does not list it (Fuel's came from the master's settings). */
function adminNetwork(): Network {
  return {
    name: ADMIN_NETWORK,
    cidr: null,
    gateway: null,
    vlan_start: null,
    ip_ranges: [],
    group_id: null,
    meta: { name: ADMIN_NETWORK, notation: null, map_priority: 0, use_gateway: false, assign_vip: false, configurable: false, render_type: null },
  };
}

/**
 * The default `network_configuration` of a new environment on `release`. The admin network is
 * always there: without a CIDR, since its addresses are the nodes' SSH addresses, which Hearth
 * never changes.
 */
export function defaultNetworkConfiguration(release: Pick<Release, 'networks_metadata'>, options: DefaultNetworkOptions = {}): NetworkConfiguration {
  const metadata = isMapping(release.networks_metadata) ? release.networks_metadata : {};
  const section = neutronSection(metadata);
  const entries = (Array.isArray(section.networks) ? section.networks : []).filter((e): e is Record<string, unknown> => isMapping(e) && typeof e.name === 'string');
  const segmentation = segmentationOf(entries, options.segmentationType);
  const restricted = options.restricted ?? (() => true);
  const networks: Network[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (typeof entry.seg_type === 'string' && entry.seg_type !== segmentation) continue;
    if (Array.isArray(entry.restrictions) && entry.restrictions.length > 0 && restricted(entry.restrictions, String(entry.name))) continue;
    if (seen.has(String(entry.name))) continue;
    seen.add(String(entry.name));
    networks.push(networkFromMetadata(entry));
  }
  if (!seen.has(ADMIN_NETWORK)) networks.unshift(adminNetwork());
  networks.forEach((n, i) => (n.id = i + 1));
  return { networks, networking_parameters: parametersOf(section, metadata, segmentation) };
}

function parametersOf(section: Record<string, unknown>, metadata: Record<string, unknown>, segmentation: SegmentationType): NetworkingParameters {
  const config = isMapping(section.config) ? section.config : {};
  const floating = Array.isArray(config.floating_ranges) ? config.floating_ranges.map(pair).filter((r): r is IpRange => r !== null) : [];
  const dns = Array.isArray(config.dns_nameservers) ? config.dns_nameservers : Array.isArray(metadata.dns_nameservers) ? metadata.dns_nameservers : ['8.8.4.4', '8.8.8.8'];
  const params: NetworkingParameters = {
    segmentation_type: segmentation,
    net_l23_provider: 'ovs',
    vlan_range: segmentation === 'vlan' ? (intPair(config.vlan_range) ?? [1000, 1030]) : null,
    gre_id_range: segmentation === 'vlan' ? null : (intPair(config.gre_id_range) ?? [2, 65535]),
    base_mac: str(config.base_mac) ?? 'fa:16:3e:00:00:00',
    internal_cidr: str(config.internal_cidr),
    internal_gateway: str(config.internal_gateway),
    internal_name: str(config.internal_name) ?? 'admin_internal_net',
    floating_name: str(config.floating_name) ?? 'admin_floating_net',
    floating_ranges: floating,
    dns_nameservers: dns.filter((d): d is string => typeof d === 'string'),
    configuration_template: null,
  };
  if (config.baremetal_gateway !== undefined) params.baremetal_gateway = str(config.baremetal_gateway);
  if (config.baremetal_range !== undefined) params.baremetal_range = pair(config.baremetal_range);
  return params;
}

/** The release's (or composed release's) network roles, typed; entries without an id are left out. */
export function networkRolesOf(release: Pick<Release, 'network_roles_metadata'>): NetworkRole[] {
  const out: NetworkRole[] = [];
  for (const raw of release.network_roles_metadata ?? []) {
    if (!isMapping(raw) || typeof raw.id !== 'string') continue;
    const properties = isMapping(raw.properties) ? raw.properties : {};
    const vip = Array.isArray(properties.vip) ? properties.vip.filter((v): v is VipRequest => isMapping(v) && typeof v.name === 'string') : [];
    const role: NetworkRole = {
      id: raw.id,
      default_mapping: typeof raw.default_mapping === 'string' ? raw.default_mapping : '',
      properties: { subnet: properties.subnet === true, gateway: properties.gateway === true, vip },
    };
    if (typeof raw.plugin === 'string') role.plugin = raw.plugin;
    out.push(role);
  }
  return out;
}
