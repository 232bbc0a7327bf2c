/**
 * The non-task parts of composition: volumes and their mapping to roles, settings sections,
 * components, network roles, node/NIC/bond attributes. Each merge says who clashed with whom.
 */
import { finding, type Finding } from '../findings.js';
import { positionAt } from '../positions.js';
import type { Component, Release, RoleMetadata, VolumesMetadata } from './model.js';
import { isMapping, type Mapping } from './merge.js';
import { pluginLabel, type PluginContribution } from './plugin.js';

const fileOf = (plugin: PluginContribution, part: keyof NonNullable<PluginContribution['files']>) =>
  plugin.files?.[part] ? { file: plugin.files[part] } : undefined;

export function mergeVolumes(release: Release, plugins: readonly PluginContribution[], roles: Record<string, RoleMetadata>, roleSources: Record<string, string>): { volumes: VolumesMetadata; findings: Finding[] } {
  const findings: Finding[] = [];
  const base = release.volumes_metadata;
  const volumes: VolumesMetadata = { ...base, volumes: [...base.volumes], volumes_roles_mapping: { ...base.volumes_roles_mapping } };
  const volumeOwner = new Map<string, string>(base.volumes.map((v) => [v.id, 'release']));
  const mappingOwner = new Map<string, string>(Object.keys(base.volumes_roles_mapping).map((r) => [r, 'release']));
  for (const plugin of plugins) {
    for (const volume of plugin.volumes) {
      const owner = volumeOwner.get(volume.id);
      if (owner !== undefined) {
        findings.push(finding('volume/defined-twice', 'error', `plugin ${pluginLabel(plugin)} defines the volume '${volume.id}', which ${owner === 'release' ? 'the release' : `plugin ${owner}`} already defines`, positionAt(volume, ['id']) ?? fileOf(plugin, 'volumes'), `give the volume another id in ${pluginLabel(plugin)}`));
        continue;
      }
      volumes.volumes.push(volume);
      volumeOwner.set(volume.id, pluginLabel(plugin));
    }
    for (const [role, allocations] of Object.entries(plugin.volumesRolesMapping)) {
      const where = positionAt(plugin.volumesRolesMapping, [role]) ?? fileOf(plugin, 'volumes');
      const previous = mappingOwner.get(role);
      if (previous !== undefined) {
        findings.push(finding('volume/mapping-replaced', 'warning', `plugin ${pluginLabel(plugin)} replaces the disk layout of role '${role}' set by ${previous === 'release' ? 'the release' : `plugin ${previous}`}`, where, 'a plugin should lay out the disks of its own roles only'));
      } else if (!(role in roles)) {
        findings.push(finding('volume/mapping-for-unknown-role', 'warning', `plugin ${pluginLabel(plugin)} lays out disks for role '${role}', which no enabled source defines`, where, `add '${role}' to node_roles.yaml or drop its mapping`));
      }
      volumes.volumes_roles_mapping[role] = allocations;
      mappingOwner.set(role, pluginLabel(plugin));
    }
  }
  const known = new Set(volumes.volumes.map((v) => v.id));
  for (const [role, allocations] of Object.entries(volumes.volumes_roles_mapping)) {
    if (!Array.isArray(allocations)) {
      findings.push(finding('volume/bad-mapping', 'error', `the disk layout of role '${role}' must be a list of {id, allocate_size}`, positionAt(volumes.volumes_roles_mapping, [role])));
      continue;
    }
    const missing = allocations.filter((a) => !isMapping(a) || typeof a.id !== 'string' || !known.has(a.id)).map((a) => (isMapping(a) ? String(a.id) : JSON.stringify(a)));
    if (missing.length) {
      const owner = mappingOwner.get(role) ?? 'release';
      findings.push(finding('volume/unknown-volume', 'error', `the disk layout of role '${role}' (${owner === 'release' ? 'release' : `plugin ${owner}`}) uses volumes that are not defined: ${missing.join(', ')}`, positionAt(volumes.volumes_roles_mapping, [role]), `define them in volumes, or use one of: ${[...known].sort().join(', ')}`));
    }
  }
  for (const role of Object.keys(roles).sort()) {
    if (!(role in volumes.volumes_roles_mapping)) {
      const owner = roleSources[role] ?? 'release';
      // Fuel 9.0 (get_node_spaces) skipped such a role and fell back to the release's 'other'
      // layout when a node had nothing else, so a package Fuel accepted stays usable here.
      const fallback = 'other' in volumes.volumes_roles_mapping ? "the release's 'other' layout" : 'no volumes';
      findings.push(finding('volume/role-without-mapping', 'warning', `role '${role}' (${owner === 'release' ? 'release' : `plugin ${owner}`}) has no disk layout in volumes_roles_mapping: its nodes get the volumes of their other roles, or ${fallback} when they have none (as in Fuel 9.0)`, positionAt(roles, [role]), `add '${role}: [{id: os, allocate_size: min}]' (or its own volumes) to volumes_roles_mapping`));
    }
  }
  return { volumes, findings };
}

/** Plugin `environment_config` attributes become one settings section per plugin, named after it. */
export function mergeSettings(release: Release, plugins: readonly PluginContribution[]): { attributes: Mapping; findings: Finding[] } {
  const findings: Finding[] = [];
  const attributes: Mapping = { ...release.attributes_metadata };
  const editable: Mapping = isMapping(attributes.editable) ? { ...attributes.editable } : {};
  for (const plugin of plugins) {
    if (plugin.name in editable) {
      findings.push(finding('settings/section-clash', 'error', `plugin ${pluginLabel(plugin)} needs a settings section named '${plugin.name}', but the ${isMapping(editable[plugin.name]) && isMapping((editable[plugin.name] as Mapping).metadata) && ((editable[plugin.name] as Mapping).metadata as Mapping).class === 'plugin' ? 'plugin of that name' : 'release'} already has one`, fileOf(plugin, 'attributes'), 'plugin names must differ from every settings section of the release'));
      continue;
    }
    const { metadata, ...attrs } = plugin.attributes;
    const own = isMapping(metadata) ? metadata : {};
    editable[plugin.name] = {
      ...attrs,
      metadata: {
        ...own,
        class: 'plugin',
        label: typeof own.label === 'string' ? own.label : plugin.title ?? plugin.name,
        enabled: true,
        toggleable: own.toggleable !== false,
        weight: typeof own.weight === 'number' ? own.weight : 70,
        plugin_version: plugin.version,
        versions: [plugin.version],
        hot_pluggable: plugin.isHotpluggable === true,
      },
    };
  }
  attributes.editable = editable;
  return { attributes, findings };
}

export function mergeComponents(release: Release, plugins: readonly PluginContribution[]): { components: Component[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const components = [...release.components];
  const owner = new Map<string, string>(release.components.map((c) => [c.name, 'release']));
  for (const plugin of plugins) {
    for (const component of plugin.components) {
      const previous = owner.get(component.name);
      if (previous !== undefined) {
        findings.push(finding('component/defined-twice', 'error', `plugin ${pluginLabel(plugin)} defines the component '${component.name}', which ${previous === 'release' ? 'the release' : `plugin ${previous}`} already defines`, positionAt(component, ['name']) ?? fileOf(plugin, 'components'), 'a component name belongs to one source; rename it'));
        continue;
      }
      components.push({ ...component, plugin: { name: plugin.name, version: plugin.version } });
      owner.set(component.name, pluginLabel(plugin));
    }
  }
  return { components, findings };
}

/** Same id twice is fine only when both say the same thing (VIP lists are merged, as Nailgun did). */
export function mergeNetworkRoles(release: Release, plugins: readonly PluginContribution[]): { networkRoles: Mapping[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const byId = new Map<string, { role: Mapping; owner: string }>();
  const out: Mapping[] = [];
  for (const role of release.network_roles_metadata) {
    if (typeof role.id === 'string') byId.set(role.id, { role, owner: 'release' });
    out.push(role);
  }
  for (const plugin of plugins) {
    for (const role of plugin.networkRoles) {
      if (typeof role.id !== 'string') {
        findings.push(finding('network-role/no-id', 'error', `plugin ${pluginLabel(plugin)} has a network role without an id`, positionAt(role, []) ?? fileOf(plugin, 'networkRoles')));
        continue;
      }
      const existing = byId.get(role.id);
      if (!existing) {
        byId.set(role.id, { role, owner: pluginLabel(plugin) });
        out.push(role);
        continue;
      }
      const merged = mergeVips(existing.role, role);
      if (merged === undefined) {
        findings.push(finding('network-role/conflict', 'error', `plugin ${pluginLabel(plugin)} redefines the network role '${role.id}' of ${existing.owner === 'release' ? 'the release' : `plugin ${existing.owner}`} differently`, positionAt(role, ['id']) ?? fileOf(plugin, 'networkRoles'), 'use a new network role id, or keep the default mapping identical and only add VIPs'));
        continue;
      }
      out[out.indexOf(existing.role)] = merged;
      byId.set(role.id, { role: merged, owner: existing.owner });
    }
  }
  return { networkRoles: out, findings };
}

function mergeVips(a: Mapping, b: Mapping): Mapping | undefined {
  const strip = (r: Mapping) => {
    const props = isMapping(r.properties) ? { ...r.properties } : {};
    delete props.vip;
    return JSON.stringify({ ...r, properties: props });
  };
  if (strip(a) !== strip(b)) return undefined;
  const vipsA = isMapping(a.properties) && Array.isArray(a.properties.vip) ? a.properties.vip : [];
  const vipsB = isMapping(b.properties) && Array.isArray(b.properties.vip) ? b.properties.vip : [];
  const names = new Set(vipsA.map((v) => JSON.stringify(v)));
  const vip = [...vipsA, ...vipsB.filter((v) => !names.has(JSON.stringify(v)))];
  return { ...a, properties: { ...(a.properties as Mapping), vip } };
}

export function mergeNodeAttributes(release: Release, plugins: readonly PluginContribution[]): Pick<Release, 'node_attributes' | 'nic_attributes' | 'bond_attributes'> & { findings: Finding[] } {
  const findings: Finding[] = [];
  const node: Mapping = { ...(release.node_attributes ?? {}) };
  const nic: Mapping = { ...(release.nic_attributes ?? {}) };
  const bond: Mapping = { ...(release.bond_attributes ?? {}) };
  const nodeOwner = new Map<string, string>(Object.keys(node).map((k) => [k, 'release']));
  for (const plugin of plugins) {
    for (const [key, value] of Object.entries(plugin.nodeAttributes ?? {})) {
      const previous = nodeOwner.get(key);
      if (previous !== undefined) {
        findings.push(finding('node-attributes/clash', 'warning', `plugin ${pluginLabel(plugin)} replaces the node attribute section '${key}' of ${previous === 'release' ? 'the release' : `plugin ${previous}`}`));
      }
      node[key] = value;
      nodeOwner.set(key, pluginLabel(plugin));
    }
    const section = (attrs: Mapping | undefined, idKey: string) => ({ ...attrs, metadata: { label: plugin.title ?? plugin.name, class: 'plugin', [idKey]: pluginLabel(plugin) } });
    if (plugin.nicAttributes && Object.keys(plugin.nicAttributes).length) nic[plugin.name] = section(plugin.nicAttributes, 'nic_plugin_id');
    if (plugin.bondAttributes && Object.keys(plugin.bondAttributes).length) bond[plugin.name] = section(plugin.bondAttributes, 'bond_plugin_id');
  }
  const out: Pick<Release, 'node_attributes' | 'nic_attributes' | 'bond_attributes'> & { findings: Finding[] } = { findings };
  if (release.node_attributes || Object.keys(node).length) out.node_attributes = node;
  if (release.nic_attributes || Object.keys(nic).length) out.nic_attributes = nic;
  if (release.bond_attributes || Object.keys(bond).length) out.bond_attributes = bond;
  return out;
}
