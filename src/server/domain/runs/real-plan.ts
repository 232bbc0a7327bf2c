/**
 * What a real deployment needs besides core's graph: how to reach each node, each node's deployment
 * data, where each task source's scripts are on this server, and the secret values to keep out of
 * logs. Also the refusals that must come before anything runs: simulated nodes, sources whose files
 * Hearth does not hold, tasks naming files their source does not contain.
 */
import type { DeploymentNetworks } from '../../../core/graph/deployment-networks.js';
import { existsSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import { MASTER_NODE, SYNC_NODE, deploymentCommon, nodeDeploymentInfo, type DeploymentGraph } from '../../../core/graph/index.js';
import { finding, type Finding } from '../../../core/findings.js';
import { scriptsNamedBy } from '../../../core/tasks/scripts.js';
import { refused, type HttpError } from '../../errors.js';
import type { ComposedRelease } from '../../../core/release/compose.js';
import type { DeployTarget, PluginScripts } from '../../../deploy/index.js';
import { PLUGINS_ROOT } from '../../../deploy/index.js';
import * as store from '../../../store/index.js';
import * as real from '../../../store/real-nodes.js';
import { targetOf } from '../real-nodes.js';
import type { PluginFiles, PluginRoot } from '../plugin-files.js';

/** `{section: {field: value}}` from a settings tree, and the values of password fields. */
export function settingsOf(editable: Record<string, unknown>): { values: Record<string, Record<string, unknown>>; secrets: string[] } {
  const values: Record<string, Record<string, unknown>> = {};
  const secrets: string[] = [];
  for (const [section, fields] of Object.entries(editable)) {
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) continue;
    for (const [field, slot] of Object.entries(fields as Record<string, unknown>)) {
      if (field === 'metadata' || !slot || typeof slot !== 'object' || !('value' in slot)) continue;
      const s = slot as { value: unknown; type?: unknown };
      (values[section] ??= {})[field] = s.value;
      if (s.type === 'password' && typeof s.value === 'string' && s.value) secrets.push(s.value);
    }
  }
  return { values, secrets };
}

export interface SourceFolder extends PluginScripts {
  plugin: string;
  /** The plugin's repository_path, served at /plugins/<folder>/repositories/. */
  repository?: string;
  /** Why Hearth cannot deliver this source's files, when it cannot. */
  unusable?: string;
  bundled?: boolean;
}

/** A plugin's repository folder on this server (under its folder `root`), from its release records' `repository_path`. */
export function repositoryFolder(p: store.PluginRecord, root: string): { root: string; rel: string } | undefined {
  const rel = p.loaded.releases.map((r) => r.raw.repository_path).find((x): x is string => typeof x === 'string' && x !== '');
  return rel ? { root: resolve(root, rel), rel } : undefined;
}

/** The scripts folder of a plugin for a release: the record's deployment_scripts_path, else deployment_scripts/. */
function scriptsFolder(p: store.PluginRecord, where: PluginRoot, release?: { name: string; version: string }): SourceFolder {
  const folder = `${p.name}-${p.version}`;
  if ('unusable' in where) return { folder, plugin: p.id, unusable: where.unusable };
  const records = p.loaded.releases;
  const fit = records.find((r) => release && r.raw.name === release.name) ?? records.find((r) => typeof r.raw.deployment_scripts_path === 'string') ?? records[0];
  const rel = typeof fit?.raw.deployment_scripts_path === 'string' ? fit.raw.deployment_scripts_path : 'deployment_scripts';
  const dir = resolve(where.root, rel);
  const repo = repositoryFolder(p, where.root);
  return { folder, plugin: p.id, root: where.root, ...(existsSync(dir) && statSync(dir).isDirectory() ? { localDir: dir } : {}), ...(repo && existsSync(repo.root) ? { repository: repo.rel } : {}), ...(p.sourceKind === 'bundled' ? { bundled: true } : {}) };
}

/** Task sources (`release` and each enabled plugin's name) and their scripts. */
export async function sourcesOf(q: store.Queryable, cluster: store.ClusterRecord, files: PluginFiles): Promise<Map<string, SourceFolder>> {
  const out = new Map<string, SourceFolder>();
  const release = await store.getRelease(q, cluster.releaseId);
  const releasePlugin = release?.pluginId ? await store.getPlugin(q, release.pluginId) : undefined;
  if (releasePlugin) out.set('release', scriptsFolder(releasePlugin, await files.rootOf(q, releasePlugin), release?.release));
  else out.set('release', { folder: `${cluster.releaseId.replace(/[^A-Za-z0-9._-]/g, '-')}`, plugin: cluster.releaseId, unusable: `release ${cluster.releaseId} came from a fixture, not a release plugin: Hearth holds no scripts for it` });
  for (const [name, id] of Object.entries(cluster.plugins)) {
    const p = await store.getPlugin(q, id);
    if (p) out.set(name, scriptsFolder(p, await files.rootOf(q, p)));
  }
  return out;
}

const FILE_FIELDS: Record<string, string[]> = { puppet: ['puppet_manifest'] };

/**
 * Files the graph's tasks name that their source does not contain: a puppet manifest, a copy_files
 * or sync source, a relative puppet module folder, and the scripts a shell command runs where the
 * command says so plainly (core's scriptsNamedBy: `bash deploy.sh`, `./run.sh`, not `$SCRIPT`).
 */
export function missingFiles(graph: DeploymentGraph, sources: ReadonlyMap<string, SourceFolder>): Finding[] {
  const out = new Map<string, Finding>();
  const seen = new Set<string>();
  for (const cls of graph.classes) {
    for (const slot of cls.slots) {
      const t = slot.task;
      if (seen.has(`${t.origin.source}|${t.id}`)) continue;
      seen.add(`${t.origin.source}|${t.id}`);
      const source = sources.get(t.origin.source) ?? sources.get('release');
      const names: string[] = [];
      for (const field of FILE_FIELDS[t.type] ?? []) if (typeof t.parameters?.[field] === 'string') names.push(t.parameters[field] as string);
      if (t.type === 'puppet' && typeof t.parameters?.puppet_modules === 'string') names.push(...t.parameters.puppet_modules.split(':').filter((m) => m && m !== '.'));
      if (t.type === 'shell' && typeof t.parameters?.cmd === 'string') {
        // Relative to the task's working folder; one on the node itself (absolute) cannot be checked here.
        const cwd = typeof t.parameters.cwd === 'string' && t.parameters.cwd !== '' ? t.parameters.cwd : '.';
        if (!cwd.startsWith('/')) names.push(...scriptsNamedBy(t.parameters.cmd).map((f) => posix.join(cwd, f)));
      }
      if (t.type === 'copy_files' && Array.isArray(t.parameters?.files)) for (const f of t.parameters.files as Array<{ src?: unknown }>) if (typeof f?.src === 'string') names.push(f.src);
      if (t.type === 'sync' && typeof t.parameters?.src === 'string' && !/^rsync:/.test(t.parameters.src)) names.push(t.parameters.src);
      for (const name of names) {
        if (name.startsWith('/')) {
          // A file of the node itself: an earlier task or a package may put it there, except in the
          // bundled release, whose absolute paths are the Fuel library's, which nothing installs.
          if (source?.bundled) out.set(`${t.id}|${name}`, finding('deploy/missing-file', 'error', `task '${t.id}' (${t.origin.source}) needs ${name} on the node, a file of the Fuel library that Hearth does not ship`, t.origin, PLANNING_MODEL));
          continue;
        }
        if (source?.localDir && existsSync(join(source.localDir, name))) continue;
        const where = source?.localDir ?? `${source?.plugin ?? t.origin.source} (no scripts folder)`;
        out.set(`${t.id}|${name}`, finding('deploy/missing-file', 'error', `task '${t.id}' (${t.origin.source}) needs ${name}, which is not in ${where}`, t.origin, source?.bundled ? PLANNING_MODEL : 'add the file to the plugin\'s deployment scripts, or fix the task'));
      }
    }
  }
  return [...out.values()];
}

const PLANNING_MODEL = "the bundled release is a planning model: it plans, graphs and dry-runs deployments, and its tasks name the Fuel library's puppet manifests, which Hearth does not ship; deploy for real with a release whose tasks are real scripts (hearth plugin create --release-plugin makes one)";

/**
 * Refuses a real deployment, before anything runs, when a source's files are not on this server or
 * its tasks name files it does not contain: every problem listed, and the bundled release named as
 * the planning model it is.
 */
export function refuseMissingFiles(graph: DeploymentGraph, sources: ReadonlyMap<string, SourceFolder>): HttpError | undefined {
  const unusable = [...sources.values()].filter((s) => s.unusable).map((s) => finding('deploy/no-files', 'error', s.unusable!, undefined, 'install the plugin again from its package, or register its folder'));
  const missing = missingFiles(graph, sources);
  const count = unusable.length + missing.length;
  if (!count) return undefined;
  const planning = missing.some((f) => f.hint === PLANNING_MODEL) ? `. ${PLANNING_MODEL[0].toUpperCase()}${PLANNING_MODEL.slice(1)}` : '';
  return refused('deploy/files-missing', `a real deployment needs files its release and plugins do not hold: ${count} problem${count === 1 ? '' : 's'}; nothing was run${planning}`, [...unusable, ...missing]);
}

/** Each graph node's deployment data: the common part, the node's own keys, and where Hearth put things. */
export function deploymentData(
  composed: ComposedRelease,
  graph: DeploymentGraph,
  cluster: store.ClusterRecord,
  settings: Record<string, Record<string, unknown>>,
  access: ReadonlyMap<number, real.RealNodeRecord>,
  sources: ReadonlyMap<string, SourceFolder>,
  publicUrl?: string,
  networks?: DeploymentNetworks,
  /** Each node's `node_volumes` (its disk layout), by graph node id: what the provisioning graph's tasks lay out. */
  nodeVolumes?: ReadonlyMap<string, unknown[]>,
): Map<string, Record<string, unknown>> {
  const nodes = graph.nodes.filter((n) => n.id !== MASTER_NODE && n.id !== SYNC_NODE);
  const labelled = nodes.map((n) => ({ input: { id: n.id, roles: n.roles }, labels: n.labels }));
  const { common, networks: net } = deploymentCommon(composed, labelled, settings, { id: cluster.id, name: cluster.name, ...(networks ? { networks } : {}) });
  const plugins = [...sources.entries()].map(([source, s]) => ({
    source,
    plugin: s.plugin,
    scripts: `${PLUGINS_ROOT}/${s.folder}`,
    repository_url: s.repository && publicUrl ? `${publicUrl}/plugins/${encodeURIComponent(s.folder)}/repositories/` : null,
  }));
  // Every node with its real address and roles: what a node needs to reach the others (a compute
  // its controllers), which Fuel's network_metadata gave from its own address plan.
  const everyNode = nodes.map((n) => {
    const a = access.get(Number(n.id));
    return { id: Number(n.id), name: a?.name ?? n.id, address: a?.address ?? null, roles: n.roles };
  });
  const out = new Map<string, Record<string, unknown>>();
  nodes.forEach((n, i) => {
    const a = access.get(Number(n.id));
    out.set(n.id, { ...common, ...nodeDeploymentInfo(n, { id: n.id, roles: n.roles, ...(nodeVolumes?.has(n.id) ? { node_volumes: nodeVolumes.get(n.id)! } : {}) }, i, net), ...(a ? { fqdn: a.name, name: a.name, ip: a.address } : {}), hearth: { environment: { id: cluster.id, name: cluster.name }, node: { id: Number(n.id), name: a?.name ?? n.id, address: a?.address ?? null }, nodes: everyNode, plugins } });
  });
  return out;
}

export function targetsOf(access: ReadonlyMap<number, real.RealNodeRecord>): Map<string, DeployTarget> {
  return new Map([...access.values()].map((a) => [String(a.id), targetOf(a)]));
}
