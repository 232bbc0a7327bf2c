/**
 * An operator's change to the network configuration (PUT /clusters/{id}/network_configuration,
 * `hearth env networks --set`), laid over the current one. Networks are named by id or name; what
 * a field cannot take, or a network the operator does not edit (the admin network), is a finding
 * naming the network and the field, so nothing is half-applied.
 */
import type { IpRange, Network, NetworkConfiguration, NetworkFinding } from '../../core/networks/index.js';

export interface NetworkChange {
  id?: number;
  name?: string;
  cidr?: string | null;
  gateway?: string | null;
  vlan_start?: number | null;
  ip_ranges?: IpRange[];
  [key: string]: unknown;
}

export interface ConfigurationChange {
  networks?: NetworkChange[];
  networking_parameters?: Record<string, unknown>;
}

const EDITABLE = ['cidr', 'gateway', 'vlan_start', 'ip_ranges'] as const;
/** Neutron parameters an operator sets; the segmentation comes from the chosen components. */
const PARAMETERS = ['floating_ranges', 'vlan_range', 'gre_id_range', 'internal_cidr', 'internal_gateway', 'internal_name', 'floating_name', 'dns_nameservers', 'base_mac', 'baremetal_gateway', 'baremetal_range'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const problem = (code: string, message: string, networks: string[], field: string, hint: string): NetworkFinding => ({ code, severity: 'error', message, networks, field, hint });

export function applyNetworkChange(current: NetworkConfiguration, change: ConfigurationChange): { config: NetworkConfiguration; changed: string[]; findings: NetworkFinding[] } {
  const findings: NetworkFinding[] = [];
  const changed: string[] = [];
  const networks: Network[] = current.networks.map((n) => ({ ...n }));
  const names = networks.map((n) => n.name).join(', ');
  (change.networks ?? []).forEach((c, i) => {
    const at = networks.findIndex((n) => (c.id !== undefined && n.id === c.id) || (c.id === undefined && n.name === c.name));
    if (at < 0) {
      const which = c.id !== undefined ? `id ${c.id}` : `'${c.name ?? ''}'`;
      findings.push(problem('network/unknown', `networks[${i}]: the environment has no network ${which}`, [], `networks[${i}]`, `name one of its networks: ${names}`));
      return;
    }
    const before = networks[at];
    if (c.id !== undefined && c.name !== undefined && c.name !== before.name) {
      findings.push(problem('network/rename', `network ${c.id} is '${before.name}'; networks cannot be renamed`, [before.name], `${before.name}.name`, `send name '${before.name}' or leave it out`));
      return;
    }
    for (const field of EDITABLE) {
      if (!(field in c) || same(c[field], before[field])) continue;
      if (before.meta.configurable === false) {
        findings.push(problem('network/not-configurable', `${before.name}.${field} cannot be changed: ${before.name === 'fuelweb_admin' ? 'the admin network is the one Hearth reaches nodes on, at their SSH addresses' : 'the release makes this network not configurable'}`, [before.name], `${before.name}.${field}`, `leave ${before.name}.${field} as it is (${JSON.stringify(before[field])})`));
        continue;
      }
      (networks[at] as unknown as Record<string, unknown>)[field] = c[field];
      changed.push(`${before.name}.${field}`);
    }
  });
  const parameters = { ...current.networking_parameters };
  for (const [key, value] of Object.entries(change.networking_parameters ?? {})) {
    if (same(value, parameters[key])) continue;
    if (!(PARAMETERS as readonly string[]).includes(key)) {
      findings.push(problem('network/parameter-not-editable', `networking_parameters.${key} cannot be changed here`, [], `networking_parameters.${key}`, key === 'segmentation_type' ? 'the segmentation follows the chosen components (network:neutron:ml2:vlan or :tun)' : `editable parameters: ${PARAMETERS.join(', ')}`));
      continue;
    }
    parameters[key] = value;
    changed.push(`networking_parameters.${key}`);
  }
  return { config: { networks, networking_parameters: parameters }, changed, findings };
}

/**
 * `--set` assignments (`public.cidr=172.16.1.0/24`, `management.vlan_start=none`,
 * `public.ip_ranges=172.16.1.2-172.16.1.100,172.16.1.200-172.16.1.210`,
 * `networking_parameters.floating_ranges=172.16.1.130-172.16.1.254`) as a change. The CLI sends it.
 */
export function parseAssignments(assignments: readonly string[]): { change: ConfigurationChange; problems: string[] } {
  const networks = new Map<string, NetworkChange>();
  const parameters: Record<string, unknown> = {};
  const problems: string[] = [];
  const ranges = (v: string): IpRange[] => v.split(',').map((r) => r.trim()).filter(Boolean).map((r) => r.split('-').map((x) => x.trim()) as IpRange);
  for (const text of assignments) {
    const m = /^([A-Za-z0-9_/-]+)\.([a-z_]+)=(.*)$/.exec(text);
    if (!m) {
      problems.push(`'${text}' is not <network>.<field>=<value> (for example public.cidr=172.16.0.0/24)`);
      continue;
    }
    const [, net, field, raw] = m;
    const value = raw.trim();
    const none = value === '' || value === 'none' || value === 'null';
    if (net === 'networking_parameters') {
      if (field === 'floating_ranges' || field === 'baremetal_range') parameters[field] = field === 'baremetal_range' ? (none ? null : ranges(value)[0]) : ranges(value);
      else if (field === 'vlan_range' || field === 'gre_id_range') parameters[field] = none ? null : value.split('-').map(Number);
      else if (field === 'dns_nameservers') parameters[field] = value.split(',').map((s) => s.trim()).filter(Boolean);
      else parameters[field] = none ? null : value;
      continue;
    }
    const entry = networks.get(net) ?? { name: net };
    networks.set(net, entry);
    if (field === 'vlan_start' || field === 'vlan') {
      if (none) entry.vlan_start = null;
      else if (/^\d+$/.test(value)) entry.vlan_start = Number(value);
      else problems.push(`${net}.${field}: '${value}' is not a VLAN (a number from 1 to 4094, or none for untagged)`);
    } else if (field === 'ip_ranges') entry.ip_ranges = ranges(value);
    else if (field === 'cidr' || field === 'gateway') entry[field] = none ? null : value;
    else problems.push(`${net}.${field}: a network's editable fields are cidr, gateway, vlan_start and ip_ranges`);
  }
  return { change: { ...(networks.size ? { networks: [...networks.values()] } : {}), ...(Object.keys(parameters).length ? { networking_parameters: parameters } : {}) }, problems };
}
