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
  mtu?: number | null;
  [key: string]: unknown;
}

export interface ConfigurationChange {
  networks?: NetworkChange[];
  networking_parameters?: Record<string, unknown>;
}

const EDITABLE = ['cidr', 'gateway', 'vlan_start', 'ip_ranges', 'mtu'] as const;
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
