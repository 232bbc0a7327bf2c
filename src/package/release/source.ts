/**
 * Read a release from disk: a release plugin folder (`is_release` records) or a Fuel release
 * fixture file (`openstack.yaml`). A fixture carries no tasks; they come from a Fuel library task
 * folder (`tasksDir`). Both end as the same typed `Release`.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { releasesFromFixture } from '../../core/release/fixture.js';
import { releaseFromFields } from '../../core/release/fields.js';
import type { Release } from '../../core/release/model.js';
import type { PluginGraph } from '../../core/release/plugin.js';
import { normalizeTasks } from '../../core/tasks/index.js';
import { loadPlugin, type LoadResult } from '../plugin/index.js';
import { parseYamlBytes, readFailure } from '../yaml/index.js';
import { graphsFromEntries } from './contribution.js';
import { readTasksFolder } from '../tasks/index.js';

export interface ReleaseSourceOptions {
  /** Pick the release with this version (`--release-version`); the first one otherwise. */
  version?: string;
  /** A Fuel library task folder for the graphs of a fixture (or to replace a plugin's). */
  tasksDir?: string;
}

export interface ReleaseSource {
  releases: Release[];
  release?: Release;
  findings: Finding[];
}

function kindOf(path: string): 'folder' | 'file' | undefined {
  try {
    const s = statSync(path);
    return s.isDirectory() ? 'folder' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/** The fixture is a Jinja template in Fuel; Hearth does not render templates, so markup is refused. */
function checkTemplateMarkup(text: string, file: string): Finding[] {
  const at = text.search(/\{\{|\{%|\{#/);
  if (at < 0) return [];
  const line = text.slice(0, at).split('\n').length;
  return [finding('fixture/template-markup', 'warning', `'${file}' contains Jinja markup, which Hearth does not render; the text is read as it is`, { file, line, column: at - text.lastIndexOf('\n', at - 1) }, 'render the template first, or remove the markup')];
}

export function readReleaseFixture(path: string): { releases: Release[]; findings: Finding[] } {
  const file = basename(path);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { releases: [], findings: [readFailure(err, file)] };
  }
  const parsed = parseYamlBytes(bytes, file);
  const findings: Finding[] = [...checkTemplateMarkup(bytes.toString('utf8'), file), ...parsed.findings];
  if (!parsed.ok) return { releases: [], findings };
  const fixture = releasesFromFixture(parsed.value, file);
  findings.push(...fixture.findings);
  return { releases: fixture.releases, findings };
}

export function readReleasePlugin(dir: string): { releases: Release[]; findings: Finding[] } {
  return releasesOfPlugin(loadPlugin(dir));
}

/**
 * The releases of a plugin folder already read by `loadPlugin`, with the reading's findings:
 * `hearth plugin validate` and a plugin install check these from the reading they have (reading
 * the folder again doubled the time on a large release plugin: every YAML file parsed twice).
 */
export function releasesOfPlugin(loaded: LoadResult): { releases: Release[]; findings: Finding[] } {
  const findings = [...loaded.findings];
  const plugin = loaded.plugin;
  if (!plugin) return { releases: [], findings };
  const releases: Release[] = [];
  const records = plugin.releases.filter((r) => r.isRelease);
  if (records.length === 0) {
    findings.push(finding('release/not-a-release-plugin', 'error', `plugin ${plugin.name} defines no release (no record has is_release: true); it extends releases instead`, { file: 'metadata.yaml', line: 1, column: 1 }, 'pass it with --plugin, and give --release a release plugin or fixture'));
  }
  for (const record of records) {
    const graphs: Record<string, PluginGraph> = {};
    const source = `plugin:${plugin.name}@${plugin.version}`;
    graphsFromEntries(record.resolved.graphs, plugin.name, 'metadata.yaml', graphs, findings);
    if (!graphs.default && record.resolved.deployment_tasks !== undefined) {
      const tasks = normalizeTasks(record.resolved.deployment_tasks, { source: plugin.name, file: 'metadata.yaml' }, 'deployment');
      findings.push(...tasks.findings);
      graphs.default = { tasks: tasks.tasks };
    }
    const result = releaseFromFields(record.resolved, { source, file: 'metadata.yaml', graphs });
    findings.push(...result.findings);
    if (result.release) releases.push(result.release);
  }
  return { releases, findings };
}

export function loadReleaseSource(pathOrFile: string, options: ReleaseSourceOptions = {}): ReleaseSource {
  const kind = kindOf(pathOrFile);
  if (!kind) {
    return { releases: [], findings: [finding('release/not-found', 'error', `'${pathOrFile}' is neither a release plugin folder nor a fixture file`, { file: pathOrFile, line: 1, column: 1 }, 'give the folder holding metadata.yaml, or a release fixture such as openstack.yaml')] };
  }
  const read = kind === 'folder' ? readReleasePlugin(pathOrFile) : readReleaseFixture(pathOrFile);
  const findings = [...read.findings];
  let releases = read.releases;
  if (options.tasksDir !== undefined) {
    const tasks = readTasksFolder(options.tasksDir);
    findings.push(...tasks.findings);
    releases = releases.map((r) => ({ ...r, graphs: { ...r.graphs, ...tasks.graphs } }));
  } else if (kind === 'file' && releases.length) {
    findings.push(finding('release/no-tasks', 'info', 'a release fixture carries no tasks; its graphs are empty', { file: basename(pathOrFile), line: 1, column: 1 }, 'give the Fuel library task folder with --tasks <dir>'));
  }
  const release = pickRelease(releases, options.version, findings, pathOrFile);
  const out: ReleaseSource = { releases, findings };
  if (release) out.release = release;
  return out;
}

function pickRelease(releases: Release[], version: string | undefined, findings: Finding[], from: string): Release | undefined {
  if (version === undefined) {
    return releases.find((r) => r.state !== 'unavailable') ?? releases[0];
  }
  const match = releases.filter((r) => r.version === version);
  if (match.length === 0) {
    const known = [...new Set(releases.map((r) => r.version))].join(', ') || 'none';
    findings.push(finding('release/no-such-version', 'error', `'${from}' has no release with version ${version} (it has: ${known})`, undefined, 'pick one of the versions listed'));
    return undefined;
  }
  return match.find((r) => r.state !== 'unavailable') ?? match[0];
}

