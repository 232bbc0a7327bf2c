/** `hearth release show`: read a release offline, compose it with plugins, print the result. */
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../exit.js';
import { hasErrors, sortFindings, type Finding } from '../../core/findings.js';
import type { Composition } from '../../core/release/compose.js';
import { isMapping } from '../../core/release/merge.js';
import { composeFromDisk, sharedTasks, type ShowReleaseOptions } from '../../package/release/compose.js';
import { chosenFormat, showOutput, type OutputOptions } from '../output.js';

export type { ShowReleaseOptions };

export async function showRelease(options: ShowReleaseOptions & OutputOptions): Promise<void> {
  const format = chosenFormat(options);
  if (!options.release) {
    usageError('release show needs --release <dir-or-file> (or --server, when the server client is installed)');
    return;
  }
  const { composition, findings } = composeFromDisk(options);
  const sorted = sortFindings(findings);
  const failed = !composition || hasErrors(findings);
  if (format !== 'table' || options.column?.length) {
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
    process.stdout.write(await showOutput(options, out, () => ''));
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
