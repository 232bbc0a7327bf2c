/** `hearth release show`: read a release offline, compose it with plugins, print the result. */
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../../cli/exit.js';
import { hasErrors, sortFindings, type Finding } from '../../core/findings.js';
import { composeRelease, type Composition } from '../../core/release/compose.js';
import { isMapping } from '../../core/release/merge.js';
import type { Task } from '../../core/tasks/model.js';
import type { PluginContribution } from '../../core/release/plugin.js';
import { loadPlugin } from '../plugin/index.js';
import { contributionFromPlugin } from './contribution.js';
import { loadReleaseSource } from './source.js';

export interface ShowReleaseOptions {
  release?: string;
  releaseVersion?: string;
  tasks?: string;
  plugin: string[];
  json?: boolean;
}

/** Compose a release source with plugin folders; everything the command prints comes from here. */
export function composeFromDisk(options: ShowReleaseOptions): { composition?: Composition; findings: Finding[] } {
  const source = loadReleaseSource(options.release!, { ...(options.releaseVersion ? { version: options.releaseVersion } : {}), ...(options.tasks ? { tasksDir: options.tasks } : {}) });
  const findings = [...source.findings];
  const plugins: PluginContribution[] = [];
  for (const dir of options.plugin) {
    const loaded = loadPlugin(dir);
    const prefix = (f: Finding): Finding => ({ ...f, file: f.file ? `${dir}/${f.file}` : dir });
    // Missing deployment_scripts/ or repositories/ matter to packaging, never to composition.
    findings.push(...loaded.findings.filter((f) => f.severity === 'error' && f.code !== 'release/missing-folder').map(prefix));
    if (!loaded.plugin) continue;
    const converted = contributionFromPlugin(loaded.plugin);
    findings.push(...converted.findings.filter((f) => f.severity === 'error').map(prefix));
    plugins.push(converted.contribution);
  }
  if (!source.release) return { findings };
  const composition = composeRelease(source.release, plugins);
  findings.push(...composition.findings);
  return { composition, findings };
}

/** A task id that several plugins define: each definition's plugin and where it runs. */
export interface SharedTask {
  graph: string;
  id: string;
  definitions: Array<{ plugin: string; runs_on: string }>;
}

const selectorText = (task: Task): string => {
  const selector = task.roles ?? task.tags ?? task.groups;
  if (selector === undefined) return task.type === 'group' ? task.id : 'no node';
  return selector === '*' ? 'every node' : selector.join(', ');
};

/** Ids with definitions from several plugins: each node runs the one whose roles it holds. */
export function sharedTasks(graphs: Composition['composed']['graphs']): SharedTask[] {
  const out: SharedTask[] = [];
  for (const [graph, { tasks }] of Object.entries(graphs)) {
    const byId = new Map<string, Task[]>();
    for (const task of tasks) byId.set(task.id, [...(byId.get(task.id) ?? []), task]);
    for (const [id, list] of byId) {
      if (new Set(list.map((t) => t.origin.source)).size < 2) continue;
      out.push({ graph, id, definitions: list.map((t) => ({ plugin: t.origin.source, runs_on: t.type === 'skipped' ? `skipped on ${selectorText(t)}` : selectorText(t) })) });
    }
  }
  return out;
}

export async function showRelease(options: ShowReleaseOptions): Promise<void> {
  if (!options.release) {
    usageError('release show needs --release <dir-or-file> (or --server, when the server client is installed)');
    return;
  }
  const { composition, findings } = composeFromDisk(options);
  const sorted = sortFindings(findings);
  const failed = !composition || hasErrors(findings);
  if (options.json) {
    const c = composition?.composed;
    const editable = c && isMapping(c.attributes_metadata.editable) ? c.attributes_metadata.editable : {};
    const out = {
      release: c ? { name: c.name, version: c.version, operating_system: c.operating_system } : null,
      roles: c?.roles_metadata ?? {},
      components: c?.components ?? [],
      settings: editable,
      graphs: Object.fromEntries(Object.entries(c?.graphs ?? {}).map(([type, g]) => [type, g.tasks])),
      shared_tasks: c ? sharedTasks(c.graphs) : [],
      task_conflicts: c?.task_conflicts ?? [],
      plugins: composition?.plugins ?? [],
      findings: sorted,
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    process.stdout.write(human(composition, sorted));
  }
  process.exitCode = failed ? EXIT_FINDINGS : EXIT_OK;
}

function human(composition: Composition | undefined, findings: Finding[]): string {
  const lines: string[] = [];
  const c = composition?.composed;
  if (c) {
    lines.push(`${c.name} (${c.version}, ${c.operating_system})`, '');
    lines.push('Roles:');
    for (const [name, role] of Object.entries(c.roles_metadata).sort(([, a], [, b]) => (a.weight ?? 999) - (b.weight ?? 999))) {
      const from = c.role_sources[name] === 'release' ? '' : `  [${c.role_sources[name]}]`;
      const conflicts = role.conflicts === '*' ? '  conflicts: all' : role.conflicts?.length ? `  conflicts: ${role.conflicts.join(', ')}` : '';
      lines.push(`  ${name.padEnd(24)} ${role.name ?? ''}${conflicts}${from}`);
    }
    lines.push('', `Components (${c.components.length}):`);
    for (const comp of c.components) lines.push(`  ${comp.name}${comp.plugin ? `  [${comp.plugin.name}]` : ''}`);
    const editable = isMapping(c.attributes_metadata.editable) ? c.attributes_metadata.editable : {};
    lines.push('', `Settings sections: ${Object.keys(editable).join(', ') || 'none'}`, '', 'Graphs:');
    for (const [type, g] of Object.entries(c.graphs)) lines.push(`  ${type.padEnd(22)} ${new Set(g.tasks.map((t) => t.id)).size} tasks`);
    if (c.task_overrides.length) {
      lines.push('', `Release tasks replaced by plugins (${c.task_overrides.length}):`);
      for (const o of c.task_overrides) lines.push(`  ${o.graph}/${o.id}  ${o.skipped ? 'skipped' : 'replaced'} by ${o.plugin}`);
    }
    const shared = sharedTasks(c.graphs);
    if (shared.length) {
      lines.push('', `Tasks defined by several plugins (${shared.length}; each node runs the definition of the plugin whose role it holds):`);
      for (const t of shared) lines.push(`  ${t.graph}/${t.id}  ${t.definitions.map((d) => `${d.plugin} on ${d.runs_on}`).join('; ')}`);
    }
    lines.push('', 'Plugins:');
    for (const p of composition.plugins) lines.push(`  ${p.applied ? 'applied ' : 'left out'}  ${p.name} ${p.version}: ${p.reason}`);
    if (!composition.plugins.length) lines.push('  none given');
    // Multi-release records that fit no version of this release: notes, but what a plugin author checks here.
    const unfit = findings.filter((f) => f.code.endsWith('/no-fit-for-release'));
    if (unfit.length) {
      lines.push('', `Left out for this release (${unfit.length}):`);
      for (const f of unfit) lines.push(`  ${f.file ? `${f.file}${f.line ? `:${f.line}` : ''}: ` : ''}${f.message}`);
    }
  }
  const shown = findings.filter((f) => f.severity !== 'info');
  if (shown.length) {
    lines.push('', 'Findings:');
    for (const f of shown) {
      const at = f.file ? `${f.file}${f.line ? `:${f.line}:${f.column ?? 1}` : ''}: ` : '';
      lines.push(`  ${at}${f.severity} ${f.code}: ${f.message}`);
      if (f.hint) lines.push(`      hint: ${f.hint}`);
    }
  }
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  lines.push('', errors ? `Composition failed: ${errors} error(s), ${warnings} warning(s).` : `Composed, ${warnings} warning(s).`, '');
  return lines.join('\n');
}
