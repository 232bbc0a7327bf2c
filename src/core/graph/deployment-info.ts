/**
 * The deployment data task conditions read: Fuel's astute.yaml ("deployment info"), which Nailgun's
 * LCM serializer handed every YAQL condition as `$`. It has two parts, as in Nailgun:
 * - `common`, the same for every node: the cluster's settings flattened the way Nailgun flattened
 *   them (`$.<section>.<attr>` = value, `common` lifted to the top, `additional_components.X`
 *   as `X.enabled`), `network_metadata` (every node and the VIPs), the legacy `nodes` list, the
 *   enabled plugins and the cluster;
 * - a small per-node overlay: uid, names, roles (after primary assignment), network scheme.
 * The common part is built once, in one pass over the nodes, and shared by reference: a node's `$`
 * is the overlay laid over it, never a copy of the cluster.
 */
import { deepEqual } from '../expressions/index.js';
import { finding, type Finding } from '../findings.js';
import { positionOf } from '../positions.js';
import type { GraphNode, NodeInput } from './model.js';
import { defaultNetworkPlan, networkData, schemeNode, type DeploymentNetworks, type NetworkData, type NetworkSource } from './deployment-networks.js';

/** `{section: {attr: value}}` (or `{section: {attr: {value}}}`, as Nailgun's API took them). */
export type SettingsValues = Record<string, unknown>;

/** What the deployment data is made from: a composed release's metadata and the cluster. */
export interface DeploymentInfoSource extends NetworkSource {
  attributes_metadata?: Record<string, unknown>;
  name?: string;
  version?: string;
  applied_plugins?: Array<{ name: string; version: string }>;
}

/** A cluster node with its final labels (`primary-controller` for the first controller, ...). */
export interface LabelledClusterNode {
  input: NodeInput;
  labels: string[];
}

/** Keys the per-node overlay sets: conditions reading them are evaluated per node (or per class). */
export const NODE_KEYS: ReadonlySet<string> = new Set(['uid', 'fqdn', 'name', 'user_node_name', 'node_name', 'roles', 'role', 'node_roles', 'tags', 'primary_tags', 'status', 'online', 'ip', 'network_scheme', 'swift_zone', 'fail_if_error', 'node_volumes', 'vms_conf']);

/**
 * Overlay keys that are the same on every node of one node class (same labels): a condition reading
 * only these, and cluster-wide keys, is evaluated once per class. The others tell nodes apart.
 */
export const CLASS_KEYS: ReadonlySet<string> = new Set(['roles', 'role', 'node_roles', 'tags', 'primary_tags', 'status', 'online', 'fail_if_error', 'node_volumes', 'vms_conf']);

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Nailgun filled `{generator: ...}` attributes with passwords and the like; a stand-in is enough for conditions. */
function generated(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(generated);
  if (!isMapping(value)) return value;
  if (typeof value.generator === 'string') return `generated:${value.generator}`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = generated(v);
  return out;
}

/**
 * Applies `--settings` values to the editable attributes (a copy of the touched sections only).
 * An unknown section or attribute is a warning with its position: it would silently do nothing.
 */
export function applySettings(editable: Record<string, unknown>, settings: SettingsValues | undefined, findings: Finding[]): Record<string, unknown> {
  if (!settings) return editable;
  // No release attributes (a bare task folder): the settings given are all there is.
  const known = Object.keys(editable).length > 0;
  const out = { ...editable };
  for (const [section, values] of Object.entries(settings)) {
    const at = positionOf(settings, section);
    const current = known ? out[section] : (out[section] ?? {});
    if (!isMapping(current)) {
      findings.push(finding('settings/unknown-section', 'warning', `settings section '${section}' does not exist in this release (or its plugins); the values are ignored`, at, `sections: ${Object.keys(editable).sort().join(', ')}`));
      continue;
    }
    if (!isMapping(values)) {
      findings.push(finding('settings/not-a-mapping', 'error', `settings section '${section}' must map attribute names to values`, at, `write ${section}: {attribute: value}`));
      continue;
    }
    const section2 = { ...current };
    for (const [attr, raw] of Object.entries(values)) {
      const where = positionOf(values, attr) ?? at;
      const value = isMapping(raw) && 'value' in raw && Object.keys(raw).length === 1 ? raw.value : raw;
      if (attr === 'metadata' && isMapping(value)) {
        section2.metadata = { ...(isMapping(section2.metadata) ? section2.metadata : {}), ...value };
        continue;
      }
      if (known && !(attr in section2)) {
        findings.push(finding('settings/unknown-attribute', 'warning', `settings attribute '${section}.${attr}' does not exist; it is added as is, but no setting of the release reads it`, where, `attributes of ${section}: ${Object.keys(current).filter((k) => k !== 'metadata').sort().join(', ')}`));
      }
      const existing = section2[attr];
      section2[attr] = isMapping(existing) && 'value' in existing ? { ...existing, value } : value;
    }
    out[section] = section2;
  }
  return out;
}

/**
 * Nailgun's `Attributes.merged_attrs_values`: generated and editable attributes merged (editable
 * wins), `{value: v}` attributes replaced by `v`, the `common` section lifted to the top level and
 * each `additional_components.X` turned into `X.enabled`.
 */
export function flattenSettings(attributes: Record<string, unknown> | undefined, settings: SettingsValues | undefined, findings: Finding[] = []): Record<string, unknown> {
  const editable = applySettings(isMapping(attributes?.editable) ? attributes.editable : {}, settings, findings);
  const gen = isMapping(attributes?.generated) ? (generated(attributes.generated) as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = {};
  for (const [name, section] of Object.entries(gen)) merged[name] = isMapping(section) ? { ...section } : section;
  for (const [name, section] of Object.entries(editable)) {
    const before = merged[name];
    // Always a copy: the loop below rewrites attributes in place, and the release is shared.
    merged[name] = isMapping(section) ? { ...(isMapping(before) ? before : {}), ...section } : section;
  }
  for (const section of Object.values(merged)) {
    if (!isMapping(section)) continue;
    for (const [attr, value] of Object.entries(section)) if (isMapping(value) && 'value' in value) section[attr] = value.value;
  }
  const common = merged.common;
  delete merged.common;
  if (isMapping(common)) Object.assign(merged, common);
  const components = merged.additional_components;
  delete merged.additional_components;
  if (isMapping(components)) {
    for (const [name, enabled] of Object.entries(components)) {
      if (typeof enabled !== 'boolean') continue;
      const section = merged[name];
      merged[name] = { ...(isMapping(section) ? section : {}), enabled };
    }
  }
  return merged;
}

const nodeName = (input: NodeInput) => (typeof input.attributes?.name === 'string' ? input.attributes.name : `node-${input.id}`);
const nodeFqdn = (input: NodeInput) => (typeof input.attributes?.fqdn === 'string' ? input.attributes.fqdn : `${nodeName(input)}.domain.local`);

export interface DeploymentInfo {
  /** `$` without the node's own keys: shared by every node. */
  common: Record<string, unknown>;
  findings: Finding[];
  /** The network plan the data was written from: each node's `network_scheme` is made from it. */
  networks: NetworkData;
}

/** The cluster-wide part of the deployment data, built once. */
export function deploymentCommon(source: DeploymentInfoSource, nodes: readonly LabelledClusterNode[], settings?: SettingsValues, cluster: { id?: number; name?: string; networks?: DeploymentNetworks } = {}): DeploymentInfo {
  const findings: Finding[] = [];
  const common = flattenSettings(source.attributes_metadata, settings, findings);
  // A composed release's plugins are enabled ones: their sections say so, as Nailgun's did.
  const plugins = source.applied_plugins ?? [];
  for (const plugin of plugins) {
    const section = common[plugin.name];
    if (isMapping(section)) common[plugin.name] = { ...section, metadata: { ...(isMapping(section.metadata) ? section.metadata : {}), enabled: true, plugin_version: plugin.version } };
  }
  // The environment's network plan (the server's), or the release's defaults for these nodes.
  const plan = cluster.networks ?? defaultNetworkPlan(source, nodes.map((n) => n.input));
  const networks = networkData(plan, nodes.map(({ input, labels }) => schemeNode(plan, input.id, nodeName(input), nodeFqdn(input), labels)));
  const metadataNodes: Record<string, unknown> = {};
  const legacy: Array<Record<string, unknown>> = [];
  nodes.forEach(({ input, labels }) => {
    const name = nodeName(input);
    const fqdn = nodeFqdn(input);
    const ips = networks.addressesOf(input.id);
    metadataNodes[name] = { uid: input.id, fqdn, name, user_node_name: `Untitled (${input.id})`, swift_zone: input.id, node_roles: labels, network_roles: networks.metadata.nodes[name]?.network_roles ?? {} };
    for (const role of labels) {
      legacy.push({ uid: input.id, fqdn, name, user_node_name: `Untitled (${input.id})`, role, swift_zone: input.id, internal_address: ips.get('management') ?? null, storage_address: ips.get('storage') ?? null, public_address: ips.get('public') ?? null });
    }
  });
  Object.assign(common, {
    deployment_id: cluster.id ?? 1,
    deployment_mode: 'ha_compact',
    openstack_version: source.version ?? '',
    master_ip: '10.20.0.2',
    // Nailgun's Neutron serializer set it; the Fuel library still tests it (`$.quantum`).
    quantum: true,
    // Keys Nailgun always serialised that are not settings: OpenStack config overrides, Swift mount
    // points, the test VM image.
    configuration: {},
    mp: [{ point: '1', weight: '1' }, { point: '2', weight: '2' }],
    test_vm_image: { disk_format: 'qcow2', container_format: 'bare', public: 'true', img_name: 'TestVM', os_name: 'cirros', min_ram: 64 },
    cluster: { id: cluster.id ?? 1, name: cluster.name ?? 'cluster', fuel_version: /\d+\.\d+$/.exec(source.version ?? '')?.[0] ?? '', release: source.version ?? '', status: 'operational', mode: 'ha_compact' },
    plugins: plugins.map((p) => ({ name: p.name, version: p.version })),
    network_metadata: { nodes: metadataNodes, vips: networks.metadata.vips },
    nodes: legacy,
  });
  return { common, findings, networks };
}

/**
 * A node's own keys. Attributes the caller gives for the node (from a nodes file, or the store)
 * come last and win: they are the node's real deployment data.
 */
export function nodeDeploymentInfo(node: GraphNode, input: NodeInput | undefined, _index: number, networks?: NetworkData): Record<string, unknown> {
  const own = input ?? { id: node.id, roles: node.roles };
  const name = nodeName(own);
  const fqdn = nodeFqdn(own);
  // Without the cluster's plan (a caller with one node in hand), the release-less default for it alone.
  const net = networks ?? networkData(defaultNetworkPlan({}, [own]), []);
  const primary = node.labels.filter((l) => l.startsWith('primary-'));
  const overlay: Record<string, unknown> = {
    uid: node.id,
    fqdn,
    name,
    node_name: name,
    user_node_name: `Untitled (${node.id})`,
    roles: node.labels,
    role: node.labels[0] ?? null,
    node_roles: node.roles,
    tags: node.labels,
    primary_tags: primary.map((l) => l.slice('primary-'.length)),
    status: 'provisioned',
    online: true,
    fail_if_error: primary.length > 0,
    ip: net.addressesOf(node.id).get('management') ?? null,
    swift_zone: node.id,
    // The node's disk layout (core/disks), given by the caller; none for a bare task folder.
    node_volumes: own.node_volumes ?? [],
    vms_conf: [],
  };
  // Made when first read: most graphs' conditions never read a node's network_scheme, and a
  // thousand of them would be a few percent of the graph's build.
  let scheme: unknown;
  Object.defineProperty(overlay, 'network_scheme', {
    enumerable: true,
    configurable: true,
    get: () => (scheme ??= net.scheme(schemeNode(net.plan, node.id, name, fqdn, node.labels))),
  });
  return input?.attributes ? { ...overlay, ...input.attributes } : overlay;
}

/**
 * Makes the previous common part share every value equal to the current one (whole sections, and
 * each `network_metadata` node). Lifecycle functions compare old and new per node; shared values
 * compare by identity at once, so `changed($)` on ten thousand nodes does not walk the cluster's
 * node list ten thousand times. One deep comparison, once.
 */
export function shareUnchanged(previous: Record<string, unknown>, current: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(previous)) {
    const now = current[key];
    if (deepEqual(value, now)) out[key] = now;
    else if (key === 'network_metadata' && isMapping(value) && isMapping(now) && isMapping(value.nodes) && isMapping(now.nodes)) {
      const nodes: Record<string, unknown> = {};
      const currentNodes = now.nodes;
      for (const [name, entry] of Object.entries(value.nodes)) nodes[name] = deepEqual(entry, currentNodes[name]) ? currentNodes[name] : entry;
      out[key] = { ...value, nodes, ...(deepEqual(value.vips, now.vips) ? { vips: now.vips } : {}) };
    } else out[key] = value;
  }
  return out;
}
