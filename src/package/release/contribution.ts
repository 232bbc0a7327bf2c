/**
 * A loaded plugin folder → what it contributes to a release (core's `PluginContribution`).
 * Tasks of every format are normalised here: legacy `tasks.yaml` into the default graph,
 * `deployment_tasks.yaml` and `graphs:` entries by type, and node roles' `tasks:` lists unwrapped
 * into group tasks.
 */
import { finding, type Finding } from '../../core/findings.js';
import { isMapping, type Mapping } from '../../core/release/merge.js';
import type { Component, RoleMetadata, VolumeAllocation } from '../../core/release/model.js';
import type { PluginContribution, PluginGraph, PluginReleaseSupport, ReleaseParts } from '../../core/release/plugin.js';
import { copyPositions, positionOf } from '../../core/positions.js';
import { PLUGIN_FILES } from '../plugin/index.js';
import { filesTheVersionReads } from '../plugin/file-versions.js';
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

/** A plugin's files, each parsed, with the path to name it by in messages. */
interface FileSet {
  files: Record<string, unknown>;
  pathOf(key: string): string;
}

/**
 * Everything a set of plugin files contributes: roles, volumes, settings, components, network
 * roles, node attributes, tasks. Called for the top-level files, and for each release record that
 * has files of its own (its `*_path` keys and `conf_path` folder over the top-level ones).
 */
function partsOf(plugin: LoadedPlugin, set: FileSet, graphEntries: unknown[], findings: Finding[]): ReleaseParts & Pick<PluginContribution, 'roles' | 'graphs'> {
  const { files, pathOf } = set;
  const nodeRoles = isMapping(files.node_roles) ? files.node_roles : {};
  const roles: Record<string, RoleMetadata> = {};
  for (const [name, meta] of Object.entries(nodeRoles)) {
    if (!isMapping(meta)) continue;
    // node_roles.yaml keeps a role's metadata either flat or under `metadata:` (role-as-a-plugin).
    const body = isMapping(meta.metadata) ? { ...meta.metadata, ...(meta.tasks !== undefined ? { tasks: meta.tasks } : {}) } : meta;
    for (const key of ['os-version', 'fuel-version']) if (body !== meta && meta[key] !== undefined && body[key] === undefined) body[key] = meta[key];
    const role = { ...body, name: text(body.name) ?? name } as RoleMetadata;
    copyPositions(meta, role);
    roles[name] = role;
  }
  copyPositions(nodeRoles, roles);

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
  for (const entries of graphEntries) graphsFromEntries(entries, source, 'metadata.yaml', graphs, findings);

  const parts: ReleaseParts & Pick<PluginContribution, 'roles' | 'graphs'> = {
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
  const nodeConfig = isMapping(files.node_config) ? files.node_config : undefined;
  if (nodeConfig) parts.nodeAttributes = isMapping(nodeConfig.node_attributes) ? nodeConfig.node_attributes : nodeConfig;
  if (isMapping(files.nic_config)) parts.nicAttributes = files.nic_config;
  if (isMapping(files.bond_config)) parts.bondAttributes = files.bond_config;
  return parts;
}

/**
 * The plugin files a release record gives its own copy of (plugins-v5 variant 2: `<file>_path`;
 * variant 3: `conf_path`, loaded beside them by the plugin loader), over the top-level ones.
 */
function recordFiles(plugin: LoadedPlugin, record: LoadedPlugin['releases'][number]): FileSet | undefined {
  const own = PLUGIN_FILES.filter((name) => name !== 'tasks' && Object.hasOwn(record.resolved, name) && typeof record.resolved[name] !== 'string');
  if (own.length === 0) return undefined;
  const files: Record<string, unknown> = filesTheVersionReads(plugin.files, plugin.packageVersion);
  const paths: Record<string, string> = {};
  for (const name of own) {
    files[name] = record.resolved[name];
    const written = record.raw[`${name}_path`];
    paths[name] = positionOf(record.resolved[name])?.file ?? (typeof written === 'string' ? written : `${String(record.raw.conf_path ?? '')}${name}.yaml`);
  }
  return { files, pathOf: (key) => paths[key] ?? plugin.filePaths[key] ?? `${key}.yaml` };
}

export function contributionFromPlugin(plugin: LoadedPlugin): ContributionResult {
  const findings: Finding[] = [];
  // A file the package version does not read contributes nothing, as in Fuel (issue 28 item 10).
  const top: FileSet = { files: filesTheVersionReads(plugin.files, plugin.packageVersion), pathOf: (key) => plugin.filePaths[key] ?? `${key}.yaml` };
  const extensions = plugin.releases.filter((r) => !r.isRelease);
  const parts = partsOf(plugin, top, extensions.map((r) => r.resolved.graphs), findings);
  // A record with files or graphs of its own gets its own parts; once one does, every record
  // does, so that no release sees the graphs another record names.
  const perRelease = extensions.some((r) => recordFiles(plugin, r) !== undefined || r.resolved.graphs !== undefined);
  const releases: PluginReleaseSupport[] = [];
  for (const record of extensions) {
    const os = text(record.resolved.os) ?? text(record.resolved.operating_system);
    const version = text(record.resolved.version);
    if (!os || !version) continue; // the validator reports incomplete records
    const entry: PluginReleaseSupport = { os, version };
    if (Array.isArray(record.resolved.mode)) entry.mode = record.resolved.mode.filter((m): m is string => typeof m === 'string');
    if (perRelease) {
      const own = recordFiles(plugin, record);
      // Findings of the top-level files were collected once already; only new files add any.
      entry.parts = partsOf(plugin, own ?? top, [record.resolved.graphs], own ? findings : []);
    }
    releases.push(entry);
  }

  const contribution: PluginContribution = {
    name: plugin.name,
    version: plugin.version,
    packageVersion: plugin.packageVersion,
    releases,
    ...parts,
    tags: parts.tags ?? {},
    volumes: parts.volumes ?? [],
    volumesRolesMapping: parts.volumesRolesMapping ?? {},
    networkRoles: parts.networkRoles ?? [],
    components: parts.components ?? [],
    attributes: parts.attributes ?? {},
  };
  const title = text(plugin.metadata.title);
  if (title) contribution.title = title;
  const description = text(plugin.metadata.description);
  if (description) contribution.description = description;
  if (typeof plugin.metadata.is_hotpluggable === 'boolean') contribution.isHotpluggable = plugin.metadata.is_hotpluggable;
  return { contribution, findings };
}
