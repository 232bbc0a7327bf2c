/**
 * `hearth graph`: read a release (or a Fuel library task folder), plugins and a cluster description
 * from disk, build the deployment graph of one type, print it. Offline; no server involved.
 */
import { existsSync, statSync } from 'node:fs';
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../exit.js';
import { finding, hasErrors, sortFindings, type Finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import { buildDeploymentGraph, graphForCluster, type ClusterState, type GraphRelease, type NodeInput, type RoleInfo, type SettingsValues } from '../../core/graph/index.js';
import { formatSummaryText, graphToDot, graphToJson, graphToMermaid, summarizeGraph } from '../../core/graph/format.js';
import type { Task } from '../../core/tasks/model.js';
import { readYamlFile } from '../../package/yaml/index.js';
import { readTasksFolder } from '../../package/tasks/read.js';

export interface GraphCommandOptions {
  release?: string;
  releaseVersion?: string;
  tasks?: string;
  plugin: string[];
  nodes?: string;
  type?: string;
  format?: string;
  json?: boolean;
  defaultDuration?: string;
  /** A YAML file of settings values, `{section: {attribute: value}}`, over the release defaults. */
  settings?: string;
  /** A YAML file of the last deployed state: `{nodes: [...], settings: {...}}` (or a list of nodes). */
  previous?: string;
  /** commander's `--no-conditions`: false takes every condition as true. */
  conditions?: boolean;
}

const FORMATS = ['json', 'dot', 'mermaid', 'summary'];
const MAX_NODES = 1_000_000;

/** `controller:3,compute:100,controller+mongo:1` → nodes `node-1`…, in the order written. */
export function nodesFromSpec(spec: string): { nodes: NodeInput[]; error?: string } {
  const nodes: NodeInput[] = [];
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([A-Za-z0-9_.+-]+?)(?::(\d+))?$/.exec(part);
    if (!match) return { nodes, error: `'${part}' is not role:count (e.g. controller:3, or controller+mongo:1 for a node with two roles)` };
    const count = match[2] === undefined ? 1 : Number(match[2]);
    if (nodes.length + count > MAX_NODES) return { nodes, error: `more than ${MAX_NODES} nodes` };
    const roles = match[1].split('+').filter(Boolean);
    for (let i = 0; i < count; i++) nodes.push({ id: `node-${nodes.length + 1}`, roles });
  }
  if (nodes.length === 0) return { nodes, error: 'no nodes given' };
  return { nodes };
}

/** A YAML file: a list of `{id, roles, tags?, attributes?}` (or `{nodes: [...]}`). */
export function nodesFromFile(path: string): { nodes: NodeInput[]; findings: Finding[] } {
  const parsed = readYamlFile(path, path);
  const read = nodesFromValue(parsed.value, path, parsed.ok);
  return { nodes: read.nodes, findings: [...parsed.findings, ...read.findings] };
}

function nodesFromValue(value: unknown, path: string, parsedOk: boolean): { nodes: NodeInput[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const nodes: NodeInput[] = [];
  let list = value;
  if (list && typeof list === 'object' && !Array.isArray(list) && Array.isArray((list as Record<string, unknown>).nodes)) list = (list as Record<string, unknown>).nodes;
  if (!Array.isArray(list)) {
    if (parsedOk) findings.push(finding('nodes/not-a-list', 'error', 'the nodes file must be a list of {id, roles}', positionOf(list) ?? { file: path, line: 1, column: 1 }, 'write - {id: node-1, roles: [controller]}'));
    return { nodes, findings };
  }
  list.forEach((item, i) => {
    const where = positionOf(list, i) ?? { file: path, line: 1, column: 1 };
    const entry = item as Record<string, unknown>;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      findings.push(finding('nodes/invalid-node', 'error', `node ${i + 1} is not a mapping`, where));
      return;
    }
    const id = typeof entry.id === 'string' || typeof entry.id === 'number' ? String(entry.id) : undefined;
    const roles = typeof entry.roles === 'string' ? [entry.roles] : entry.roles;
    if (!id || !Array.isArray(roles) || !roles.every((r) => typeof r === 'string')) {
      findings.push(finding('nodes/invalid-node', 'error', `node ${i + 1} needs an id and a list of role names`, where, 'write {id: node-1, roles: [controller]}'));
      return;
    }
    const node: NodeInput = { id, roles: roles as string[] };
    if (Array.isArray(entry.tags)) node.tags = entry.tags.filter((t): t is string => typeof t === 'string');
    if (entry.attributes !== undefined) {
      if (isMapping(entry.attributes)) node.attributes = entry.attributes;
      else findings.push(finding('nodes/invalid-attributes', 'error', `node ${id}: attributes must be a mapping of deployment data keys (they are laid over the node's generated data)`, positionOf(entry, 'attributes') ?? where, 'write attributes: {fqdn: node-1.example.com}'));
    }
    nodes.push(node);
  });
  return { nodes, findings };
}

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `--settings`: a mapping of sections; anything else is an error finding at the file. */
export function settingsFromFile(path: string): { settings?: SettingsValues; findings: Finding[] } {
  const parsed = readYamlFile(path, path);
  const findings = [...parsed.findings];
  if (!parsed.ok) return { findings };
  if (parsed.value === null || parsed.value === undefined) return { settings: {}, findings };
  if (!isMapping(parsed.value)) {
    findings.push(finding('settings/not-a-mapping', 'error', 'the settings file must map section names to {attribute: value}', positionOf(parsed.value) ?? { file: path, line: 1, column: 1 }, 'write storage: {objects_ceph: true}'));
    return { findings };
  }
  return { settings: parsed.value, findings };
}

/** `--previous`: the last deployed state, `{nodes, settings?}` or just its nodes. */
export function previousFromFile(path: string): { previous?: ClusterState; findings: Finding[] } {
  const parsed = readYamlFile(path, path);
  const findings = [...parsed.findings];
  if (!parsed.ok) return { findings };
  const value = parsed.value;
  const read = nodesFromValue(value, path, true);
  findings.push(...read.findings);
  let settings: SettingsValues | undefined;
  if (isMapping(value) && value.settings !== undefined) {
    if (isMapping(value.settings)) settings = value.settings;
    else findings.push(finding('settings/not-a-mapping', 'error', 'previous state: settings must map section names to {attribute: value}', positionOf(value, 'settings') ?? { file: path, line: 1, column: 1 }));
  }
  return { previous: { nodes: read.nodes, ...(settings ? { settings } : {}) }, findings };
}

interface GraphSource {
  /** Present with --release: what conditions read (settings, plugins) and the graphs. */
  composed?: GraphRelease;
  tasks: Task[];
  roles?: Record<string, RoleInfo>;
  tagsMetadata?: Record<string, { has_primary?: boolean }>;
  findings: Finding[];
}

async function sourceOf(options: GraphCommandOptions, type: string): Promise<GraphSource | undefined> {
  if (options.release) {
    const { composeFromDisk } = await import('../../package/release/compose.js');
    const { composition, findings } = composeFromDisk({ release: options.release, releaseVersion: options.releaseVersion, tasks: options.tasks, plugin: options.plugin });
    if (!composition) return { tasks: [], findings };
    const c = composition.composed;
    if (!c.graphs[type]) findings.push(finding('graph/unknown-type', 'error', `the release has no '${type}' graph (it has: ${Object.keys(c.graphs).join(', ') || 'none'})`, undefined, 'pick one with --type'));
    return { composed: c, tasks: c.graphs[type]?.tasks ?? [], roles: c.roles_metadata as Record<string, RoleInfo>, tagsMetadata: c.tags_metadata as Record<string, { has_primary?: boolean }>, findings };
  }
  const folder = readTasksFolder(options.tasks!);
  const base = options.tasks!.replace(/\/+$/, '');
  const findings = folder.findings.map((f) => (f.file ? { ...f, file: `${base}/${f.file}` } : f));
  let tasks = folder.graphs[type]?.tasks ?? [];
  if (!folder.graphs[type]) findings.push(finding('graph/unknown-type', 'error', `the task folder has no '${type}' graph (it has: ${Object.keys(folder.graphs).join(', ') || 'none'})`, undefined, 'pick one with --type'));
  const roles: Record<string, RoleInfo> = {};
  if (options.plugin.length > 0) {
    const { loadPlugin } = await import('../../package/plugin/index.js');
    const { contributionFromPlugin } = await import('../../package/release/contribution.js');
    for (const dir of options.plugin) {
      const loaded = loadPlugin(dir);
      findings.push(...loaded.findings.filter((f) => f.severity === 'error' && f.code !== 'release/missing-folder').map((f) => ({ ...f, file: f.file ? `${dir}/${f.file}` : dir })));
      if (!loaded.plugin) continue;
      const { contribution } = contributionFromPlugin(loaded.plugin);
      Object.assign(roles, contribution.roles);
      // Without a release to compose with, a plugin task simply replaces a library task of the same id.
      const own = contribution.graphs[type]?.tasks ?? [];
      const ids = new Set(own.map((t) => t.id));
      tasks = [...tasks.filter((t) => !ids.has(t.id)), ...own];
    }
  }
  findings.push(finding('graph/no-roles-metadata', 'info', 'no release given: roles bring no tags, so tasks selected by tags (database, rabbitmq, keystone, ...) run only on nodes whose role has that name; primary roles are inferred from primary-<role> task names', undefined, 'pass --release <openstack.yaml or release plugin> with --tasks for the real role tags'));
  return { tasks, roles: Object.keys(roles).length ? roles : undefined, findings };
}

export async function runGraphCommand(options: GraphCommandOptions): Promise<void> {
  const format = options.format ?? 'summary';
  if (!FORMATS.includes(format)) return usageError(`--format must be one of ${FORMATS.join(', ')}`);
  if (!options.release && !options.tasks) return usageError('graph needs --release <dir-or-file> or --tasks <dir>');
  if (!options.nodes) return usageError('graph needs --nodes "controller:3,compute:10" or --nodes <nodes.yaml>');
  for (const path of [options.release, options.tasks, options.settings, options.previous, ...options.plugin]) {
    if (path && !existsSync(path)) return usageError(`no such file or folder: ${path}`);
  }
  const defaultDuration = options.defaultDuration === undefined ? undefined : Number(options.defaultDuration);
  if (defaultDuration !== undefined && !(defaultDuration >= 0)) return usageError('--default-duration must be a number of seconds');

  const findings: Finding[] = [];
  let nodes: NodeInput[];
  if (existsSync(options.nodes) && statSync(options.nodes).isFile()) {
    const read = nodesFromFile(options.nodes);
    nodes = read.nodes;
    findings.push(...read.findings);
  } else {
    const parsed = nodesFromSpec(options.nodes);
    if (parsed.error) return usageError(`--nodes: ${parsed.error}`);
    nodes = parsed.nodes;
  }
  const type = options.type ?? 'default';
  const source = await sourceOf(options, type);
  if (!source) return;
  findings.push(...source.findings);
  let settings: SettingsValues | undefined;
  let previous: ClusterState | undefined;
  if (options.settings) {
    const read = settingsFromFile(options.settings);
    findings.push(...read.findings);
    settings = read.settings;
  }
  if (options.previous) {
    const read = previousFromFile(options.previous);
    findings.push(...read.findings);
    previous = read.previous;
  }
  // Conditions read the deployment data, made from the release's settings: without a release
  // there is nothing to read, unless settings are given.
  const evaluate = options.conditions !== false && (source.composed !== undefined || settings !== undefined);
  if (options.conditions !== false && !evaluate) {
    findings.push(finding('graph/no-deployment-data', 'info', 'no release given: conditions have no settings to read, so every condition is taken as true', undefined, 'pass --release (and --settings) to evaluate conditions'));
  }
  const composed: GraphRelease = source.composed ?? { graphs: { [type]: { tasks: source.tasks } }, roles_metadata: (source.roles ?? {}) as GraphRelease['roles_metadata'], tags_metadata: source.tagsMetadata ?? {}, attributes_metadata: {}, name: 'tasks', version: '' };
  const graph = source.composed || evaluate
    ? graphForCluster({ composed, nodes, type, ...(settings ? { settings } : {}), ...(previous ? { previous } : {}), evaluateConditions: evaluate, ...(defaultDuration !== undefined ? { defaultDuration } : {}) })
    : buildDeploymentGraph({ tasks: source.tasks, nodes, roles: source.roles, tagsMetadata: source.tagsMetadata, ...(defaultDuration !== undefined ? { defaultDuration } : {}) });
  const all = sortFindings([...findings, ...graph.findings]);
  const failed = hasErrors(all) || graph.cycle !== undefined;

  if (format === 'summary' && options.json) process.stdout.write(`${JSON.stringify(summarizeGraph(graph, all), null, 2)}\n`);
  else if (format === 'json') process.stdout.write(`${JSON.stringify({ ...graphToJson(graph), summary: summarizeGraph(graph, all) })}\n`);
  else if (format === 'dot') process.stdout.write(graphToDot(graph));
  else if (format === 'mermaid') process.stdout.write(graphToMermaid(graph));
  else process.stdout.write(formatSummaryText(graph));
  if (!(format === 'summary' && options.json) && format !== 'json') {
    for (const f of all) {
      if (f.severity === 'info') continue;
      const where = f.file ? `${f.file}${f.line ? `:${f.line}:${f.column ?? 1}` : ''}: ` : '';
      process.stderr.write(`${where}${f.severity} ${f.code}: ${f.message}${f.hint ? `\n  hint: ${f.hint}` : ''}\n`);
    }
  }
  process.exitCode = failed ? EXIT_FINDINGS : EXIT_OK;
}
