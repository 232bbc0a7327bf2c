/**
 * `hearth env networks <env> [--json] [--set public.cidr=…]…` and `hearth node interfaces <node>
 * [--assign management=eth1]…` (issue 27): an environment's networks with what the checks found,
 * changed by field; a node's interfaces with the networks on each, moved by name.
 */
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type ServerOptions } from './http.js';
import { clusterId, nodeId } from './refs.js';
import type { AnswerOf } from '../../api/client.js';
import { table } from './table.js';
import { chosenFormat, listOrPage, type Column, type OutputOptions } from '../output.js';

type Configuration = AnswerOf<'/clusters/{id}/network_configuration', 'get'>;
type Interface = AnswerOf<'/nodes/{id}/interfaces', 'get'>[number];
type NetworkChange = { name: string; cidr?: string | null; gateway?: string | null; vlan_start?: number | null; ip_ranges?: Array<[string, string]>; mtu?: number | null };

const usage = (message: string) => new ClientError(message, EXIT_USAGE);

const ranges = (v: string): Array<[string, string]> =>
  v
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [a, b] = r.split('-').map((x) => x.trim());
      return [a, b ?? a];
    });

/**
 * `--set` assignments as the body of PUT /clusters/{id}/network_configuration:
 * `public.cidr=172.16.1.0/24`, `management.vlan_start=none` (untagged), `storage.mtu=9000`,
 * `public.ip_ranges=172.16.1.2-172.16.1.100,172.16.1.200-172.16.1.210`,
 * `networking_parameters.floating_ranges=172.16.1.130-172.16.1.254`.
 */
export function parseNetworkSettings(assignments: readonly string[]): { networks?: NetworkChange[]; networking_parameters?: Record<string, unknown> } {
  const networks = new Map<string, NetworkChange>();
  const parameters: Record<string, unknown> = {};
  for (const text of assignments) {
    const m = /^([A-Za-z0-9_/-]+)\.([a-z_]+)=(.*)$/.exec(text);
    if (!m) throw usage(`--set '${text}': say NETWORK.FIELD=VALUE (for example public.cidr=172.16.0.0/24)`);
    const [, net, field, raw] = m;
    const value = raw.trim();
    const none = value === '' || value === 'none' || value === 'null';
    if (net === 'networking_parameters') {
      if (field === 'floating_ranges') parameters[field] = ranges(value);
      else if (field === 'baremetal_range') parameters[field] = none ? null : ranges(value)[0];
      else if (field === 'vlan_range' || field === 'gre_id_range') {
        if (!none && !/^\d+-\d+$/.test(value)) throw usage(`--set ${text}: say FIRST-LAST (for example 1000-1030)`);
        parameters[field] = none ? null : value.split('-').map(Number);
      } else if (field === 'dns_nameservers') parameters[field] = value.split(',').map((s) => s.trim()).filter(Boolean);
      else parameters[field] = none ? null : value;
      continue;
    }
    const entry = networks.get(net) ?? { name: net };
    networks.set(net, entry);
    if (field === 'vlan_start' || field === 'vlan') {
      if (none) entry.vlan_start = null;
      else if (/^\d+$/.test(value)) entry.vlan_start = Number(value);
      else throw usage(`--set ${text}: '${value}' is not a VLAN (a number from 1 to 4094, or none for untagged)`);
    } else if (field === 'mtu') {
      if (none) entry.mtu = null;
      else if (/^\d+$/.test(value)) entry.mtu = Number(value);
      else throw usage(`--set ${text}: '${value}' is not an MTU (a number of bytes such as 1500 or 9000, or none for the interfaces' own)`);
    } else if (field === 'ip_ranges') entry.ip_ranges = ranges(value);
    else if (field === 'cidr' || field === 'gateway') entry[field] = none ? null : value;
    else throw usage(`--set ${text}: a network's fields are cidr, gateway, vlan_start, ip_ranges and mtu (or networking_parameters.FIELD)`);
  }
  return { ...(networks.size ? { networks: [...networks.values()] } : {}), ...(Object.keys(parameters).length ? { networking_parameters: parameters } : {}) };
}

function describeNetworks(config: Configuration): string {
  const rows = config.networks.map((n) => [n.name, n.cidr ?? '-', n.vlan_start === null ? 'untagged' : String(n.vlan_start), n.gateway ?? '-', n.ip_ranges.map(([a, b]) => `${a}-${b}`).join(', ') || '-', n.mtu ? String(n.mtu) : '-']);
  const p = config.networking_parameters;
  const lines = [table(['network', 'cidr', 'vlan', 'gateway', 'ip ranges', 'mtu'], rows).trimEnd()];
  lines.push(`segmentation: ${String(p.segmentation_type)}; floating ranges: ${(p.floating_ranges ?? []).map(([a, b]) => `${a}-${b}`).join(', ') || '-'}${p.vlan_range ? `; tenant VLANs: ${p.vlan_range.join('-')}` : ''}`);
  lines.push(config.saved ? 'saved configuration' : "the release's defaults (nothing changed yet)");
  const errors = config.findings.filter((f) => f.severity === 'error');
  lines.push(errors.length ? `${errors.length} error${errors.length === 1 ? '' : 's'}: a real deployment is refused until they are fixed` : 'checks: no errors');
  for (const f of config.findings) lines.push(`${f.severity}: ${f.message}${f.field ? ` [${f.field}]` : ''}\n  hint: ${f.hint}`);
  return `${lines.join('\n')}\n`;
}

type Network = Configuration['networks'][number];
const NETWORK_COLUMNS: ReadonlyArray<Column<Network>> = [
  { header: 'network', value: (n) => n.name },
  { header: 'cidr', value: (n) => n.cidr },
  { header: 'vlan', value: (n) => n.vlan_start },
  { header: 'gateway', value: (n) => n.gateway },
  { header: 'ip ranges', value: (n) => n.ip_ranges.map(([a, b]) => `${a}-${b}`) },
  { header: 'mtu', value: (n) => n.mtu },
];

export const envNetworks = (ref: string, o: ServerOptions & OutputOptions & { set: string[] }) =>
  run(o, async (c) => {
    chosenFormat(o); // a bad -f is refused before the server is asked
    const body = parseNetworkSettings(o.set);
    const id = await clusterId(c, ref);
    const params = { params: { id } };
    const config = o.set.length ? await c.call('put', '/clusters/{id}/network_configuration', { ...params, body }) : await c.call('get', '/clusters/{id}/network_configuration', params);
    process.stdout.write(await listOrPage(o, NETWORK_COLUMNS, config.networks, config, () => describeNetworks(config)));
    if (!o.set.length && config.findings.some((f) => f.severity === 'error')) process.exitCode = EXIT_FINDINGS;
  });

function describeInterfaces(list: Interface[]): string {
  return table(
    ['interface', 'MAC', 'state', 'speed', 'networks', 'admin'],
    list.map((i) => [i.name, i.mac ?? '-', i.state ?? '-', i.current_speed ? `${i.current_speed} Mb/s` : '-', i.assigned_networks.map((n) => n.name).join(', ') || '-', i.pxe ? 'yes (Hearth reaches the node here)' : '']),
  );
}

/** `NETWORK=INTERFACE` moves a network; every other stays where it is. */
export function applyAssignments(list: Interface[], assignments: readonly string[]): Array<{ name: string; assigned_networks: Array<{ name: string }> }> {
  const out = list.map((i) => ({ name: i.name, assigned_networks: i.assigned_networks.map((n) => ({ name: n.name })) }));
  for (const text of assignments) {
    const m = /^([^=\s]+)=([^=\s]+)$/.exec(text);
    if (!m) throw usage(`--assign '${text}': say NETWORK=INTERFACE (for example management=eth1)`);
    const [, network, nic] = m;
    const target = out.find((i) => i.name === nic);
    if (!target) throw usage(`--assign ${text}: the node has no interface '${nic}' (its interfaces: ${out.map((i) => i.name).join(', ')})`);
    if (!out.some((i) => i.assigned_networks.some((n) => n.name === network))) throw usage(`--assign ${text}: no interface carries a network '${network}' (networks: ${out.flatMap((i) => i.assigned_networks.map((n) => n.name)).join(', ')})`);
    for (const i of out) i.assigned_networks = i.assigned_networks.filter((n) => n.name !== network);
    target.assigned_networks.push({ name: network });
  }
  return out;
}

const INTERFACE_COLUMNS: ReadonlyArray<Column<Interface>> = [
  { header: 'interface', value: (i) => i.name },
  { header: 'MAC', value: (i) => i.mac },
  { header: 'state', value: (i) => i.state },
  { header: 'speed', value: (i) => i.current_speed },
  { header: 'networks', value: (i) => i.assigned_networks.map((n) => n.name) },
  { header: 'admin', value: (i) => !!i.pxe },
];

export const nodeInterfaces = (ref: string, o: ServerOptions & OutputOptions & { assign: string[] }) =>
  run(o, async (c) => {
    chosenFormat(o);
    const id = await nodeId(c, ref);
    const params = { params: { id } };
    let list = await c.call('get', '/nodes/{id}/interfaces', params);
    if (o.assign.length) list = await c.call('put', '/nodes/{id}/interfaces', { ...params, body: applyAssignments(list, o.assign) });
    process.stdout.write(await listOrPage(o, INTERFACE_COLUMNS, list, list, () => describeInterfaces(list)));
  });
