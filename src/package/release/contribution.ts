/**
 * A loaded plugin folder → what it contributes to a release (core's `PluginContribution`).
 * Tasks of every format are normalised here: legacy `tasks.yaml` into the default graph,
 * `deployment_tasks.yaml` and `graphs:` entries by type, and node roles' `tasks:` lists unwrapped
 * into group tasks.
 */
import { finding, type Finding } from '../../core/findings.js';
import { isMapping, type Mapping } from '../../core/release/merge.js';
import type { Component, RoleMetadata, VolumeAllocation } from '../../core/release/model.js';
import type { PluginContribution, PluginGraph, PluginReleaseSupport } from '../../core/release/plugin.js';
import { normalizeTasks, unwrapRoleTasks, type Task } from '../../core/tasks/index.js';
import type { LoadedPlugin } from '../plugin/model.js';

export interface ContributionResult {
  contribution: PluginContribution;
  findings: Finding[];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

function addTasks(graphs: Record<string, PluginGraph>, type: string, tasks: Task[], extra?: Partial<PluginGraph>): void {
  const graph = graphs[type] ?? { tasks: [] };
  graph.tasks.push(...tasks);
  if (extra?.name) graph.name = extra.name;
  if (extra?.metadata) graph.metadata = { ...(graph.metadata ?? {}), ...extra.metadata };
  graphs[type] = graph;
}

/** `graphs:` entries as Fuel wrote them: `{type, name?, tasks | tasks_path (loaded), metadata?…}`. */
export function graphsFromEntries(entries: unknown, source: string, file: string, graphs: Record<string, PluginGraph>, findings: Finding[]): void {
  if (entries === undefined || entries === null) return;
  if (!Array.isArray(entries)) {
    findings.push(finding('graph/wrong-type', 'error', `'graphs' must be a list of {type, tasks_path}`, { file }));
    return;
  }
  for (const entry of entries) {
    if (!isMapping(entry) || typeof entry.type !== 'string') {
      findings.push(finding('graph/no-type', 'error', `a graph entry needs a 'type' (default, provisioning, deletion, …)`, { file }));
      continue;
    }
    const body = entry.tasks;
    const normalized = normalizeTasks(body, { source, file: text(entry.tasks_path) ?? file }, 'graph');
    findings.push(...normalized.findings);
    const metadata: Mapping = {};
    const inner = isMapping(body) ? body : {};
    for (const key of ['node_filter', 'on_success', 'on_error', 'on_stop']) {
      if (entry[key] !== undefined) metadata[key] = entry[key];
      else if (inner[key] !== undefined) metadata[key] = inner[key];
    }
    if (isMapping(inner.metadata)) Object.assign(metadata, inner.metadata);
    if (isMapping(entry.metadata)) Object.assign(metadata, entry.metadata);
    const name = text(entry.name) ?? text(inner.name);
    addTasks(graphs, entry.type, normalized.tasks, { ...(name ? { name } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) });
  }
}

export function contributionFromPlugin(plugin: LoadedPlugin): ContributionResult {
  const findings: Finding[] = [];
  const files = plugin.files;
  const pathOf = (key: string) => plugin.filePaths[key] ?? `${key}.yaml`;
  const releases: PluginReleaseSupport[] = [];
  for (const record of plugin.releases) {
    if (record.isRelease) continue;
    const os = text(record.resolved.os) ?? text(record.resolved.operating_system);
    const version = text(record.resolved.version);
    if (!os || !version) continue; // the validator reports incomplete records
    const entry: PluginReleaseSupport = { os, version };
    if (Array.isArray(record.resolved.mode)) entry.mode = record.resolved.mode.filter((m): m is string => typeof m === 'string');
    releases.push(entry);
  }

  const nodeRoles = isMapping(files.node_roles) ? files.node_roles : {};
  const roles: Record<string, RoleMetadata> = {};
  for (const [name, meta] of Object.entries(nodeRoles)) {
    if (!isMapping(meta)) continue;
    // node_roles.yaml keeps a role's metadata either flat or under `metadata:` (role-as-a-plugin).
    const body = isMapping(meta.metadata) ? { ...meta.metadata, ...(meta.tasks !== undefined ? { tasks: meta.tasks } : {}) } : meta;
    roles[name] = { ...body, name: text(body.name) ?? name } as RoleMetadata;
  }

  const volumesFile = isMapping(files.volumes) ? files.volumes : {};
  const volumes = (Array.isArray(volumesFile.volumes) ? volumesFile.volumes : []).filter((v): v is Mapping & { id: string } => isMapping(v) && typeof v.id === 'string');
  const mapping: Record<string, VolumeAllocation[]> = isMapping(volumesFile.volumes_roles_mapping) ? (volumesFile.volumes_roles_mapping as Record<string, VolumeAllocation[]>) : {};
  // Role-as-a-plugin let a role carry its own mapping in node_roles.yaml.
  for (const [name, meta] of Object.entries(nodeRoles)) {
    if (isMapping(meta) && Array.isArray(meta.volumes_mapping) && !(name in mapping)) mapping[name] = meta.volumes_mapping as VolumeAllocation[];
  }

  const envConfig = isMapping(files.environment_config) ? files.environment_config : {};
  const attributes = isMapping(envConfig.attributes) ? envConfig.attributes : {};

  const components = (Array.isArray(files.components) ? files.components : []).filter((c): c is Component => isMapping(c) && typeof c.name === 'string');
  const networkRoles = (Array.isArray(files.network_roles) ? files.network_roles : []).filter(isMapping);

  const graphs: Record<string, PluginGraph> = {};
  const source = plugin.name;
  if (files.tasks !== undefined) {
    const legacy = normalizeTasks(files.tasks, { source, file: pathOf('tasks') }, 'legacy');
    findings.push(...legacy.findings);
    if (legacy.tasks.length) addTasks(graphs, 'default', legacy.tasks);
  }
  if (files.deployment_tasks !== undefined) {
    const deployment = normalizeTasks(files.deployment_tasks, { source, file: pathOf('deployment_tasks') }, 'deployment');
    findings.push(...deployment.findings);
    addTasks(graphs, 'default', deployment.tasks);
  }
  const unwrapped = unwrapRoleTasks(nodeRoles, { source, file: pathOf('node_roles') });
  findings.push(...unwrapped.findings);
  if (unwrapped.tasks.length) addTasks(graphs, 'default', unwrapped.tasks);
  graphsFromEntries(plugin.metadata.graphs, source, 'metadata.yaml', graphs, findings);
  for (const record of plugin.releases) {
    if (!record.isRelease) graphsFromEntries(record.resolved.graphs, source, 'metadata.yaml', graphs, findings);
  }

  const contribution: PluginContribution = {
    name: plugin.name,
    version: plugin.version,
    packageVersion: plugin.packageVersion,
    releases,
    roles,
    tags: isMapping(files.node_tags) ? (files.node_tags as PluginContribution['tags']) : {},
    volumes,
    volumesRolesMapping: mapping,
    networkRoles,
    components,
    attributes,
    graphs,
    files: {
      roles: pathOf('node_roles'),
      volumes: pathOf('volumes'),
      attributes: pathOf('environment_config'),
      components: pathOf('components'),
      networkRoles: pathOf('network_roles'),
      tasks: pathOf('deployment_tasks'),
    },
  };
  const title = text(plugin.metadata.title);
  if (title) contribution.title = title;
  const description = text(plugin.metadata.description);
  if (description) contribution.description = description;
  if (typeof plugin.metadata.is_hotpluggable === 'boolean') contribution.isHotpluggable = plugin.metadata.is_hotpluggable;
  const nodeConfig = isMapping(files.node_config) ? files.node_config : undefined;
  if (nodeConfig) contribution.nodeAttributes = isMapping(nodeConfig.node_attributes) ? nodeConfig.node_attributes : nodeConfig;
  if (isMapping(files.nic_config)) contribution.nicAttributes = files.nic_config;
  if (isMapping(files.bond_config)) contribution.bondAttributes = files.bond_config;
  return { contribution, findings };
}
