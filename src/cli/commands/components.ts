import type { Command } from 'commander';
import { group } from '../group.js';
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../exit.js';

interface Options {
  release?: string;
  releaseVersion?: string;
  plugin: string[];
  select?: string;
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function common(cmd: Command): Command {
  return cmd
    .requiredOption('--release <dir-or-file>', 'a release plugin folder or a Fuel release fixture file')
    .option('--release-version <version>', 'which release of a fixture holding several')
    .option('--plugin <dir>', 'a plugin folder whose components join the catalog (repeatable)', collect, [])
    .option('--json', 'print JSON');
}

/** Read the release and plugins, compose them, compile the catalog; notes go to stderr. */
async function loadCatalog(options: Options) {
  const { composeFromDisk } = await import('../../package/release/compose.js');
  const { compileCatalog } = await import('../../core/components/index.js');
  const { sortFindings } = await import('../../core/findings.js');
  const { composition, findings } = composeFromDisk({ release: options.release, releaseVersion: options.releaseVersion, plugin: options.plugin });
  const errors = findings.filter((f) => f.severity === 'error');
  if (!composition) {
    for (const f of sortFindings(findings)) process.stderr.write(`${f.file ? `${f.file}${f.line ? `:${f.line}:${f.column ?? 1}` : ''}: ` : ''}${f.severity}: ${f.message} [${f.code}]\n`);
    usageError(`could not read a release from ${options.release}`);
    return undefined;
  }
  for (const p of composition.plugins) if (!p.applied) process.stderr.write(`note: plugin ${p.name} ${p.version} skipped: ${p.reason}\n`);
  for (const f of errors) process.stderr.write(`note: ${f.message} [${f.code}]\n`);
  const release = composition.composed;
  return compileCatalog(release.components, { requiredTypes: release.required_component_types });
}

const selection = (text: string | undefined) => (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');

export function registerComponents(program: Command): void {
  const components = group(program, 'components', 'Check selections of components and show the wizard state, offline');

  common(components.command('check').description('Validate a selection of components; exit status 1 when it is invalid'))
    .requiredOption('--select <a,b,c>', 'the chosen component names, comma-separated')
    .action(async (options: Options) => {
      const catalog = await loadCatalog(options);
      if (!catalog) return;
      const { validate } = await import('../../core/components/index.js');
      const result = validate(catalog, selection(options.select));
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ valid: result.valid, findings: result.findings.map((f) => ({ code: f.code, severity: f.severity, message: f.message, hint: f.hint, components: f.components })) }, null, 2)}\n`);
      } else if (result.valid) {
        process.stdout.write('valid\n');
      } else {
        for (const f of result.findings) process.stdout.write(`${f.severity}: ${f.message} [${f.code}]${f.hint ? `\n  hint: ${f.hint}` : ''}\n`);
      }
      process.exitCode = result.valid ? EXIT_OK : EXIT_FINDINGS;
    });

  common(components.command('state').description('Show the wizard state for a selection: enabled, disabled and why, green lights, fixes'))
    .option('--select <a,b,c>', 'the chosen component names, comma-separated')
    .action(async (options: Options) => {
      const catalog = await loadCatalog(options);
      if (!catalog) return;
      const { state } = await import('../../core/components/index.js');
      const s = state(catalog, selection(options.select));
      if (options.json) {
        const out = {
          valid: s.valid,
          completable: s.completable,
          ...(s.blocked ? { blocked: s.blocked } : {}),
          findings: s.findings.map((f) => ({ code: f.code, message: f.message, components: f.components })),
          components: s.components.map((c) => ({ name: c.name, type: c.type, group: c.group, checked: c.checked, enabled: c.enabled, green: c.green, reasons: c.reasons, fix: c.fix, ...(c.replaces ? { replaces: c.replaces } : {}) })),
        };
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        let group = '';
        for (const c of s.components.slice().sort((a, b) => a.group.localeCompare(b.group))) {
          if (c.group !== group) process.stdout.write(`${(group = c.group)}\n`);
          const mark = c.checked ? '[x]' : c.enabled ? '[ ]' : '[-]';
          process.stdout.write(`  ${mark} ${c.name}${c.green ? '  (green: tested with everything chosen)' : ''}\n`);
          for (const r of c.reasons) process.stdout.write(`        ${r}\n`);
          for (const f of c.fix) process.stdout.write(`        fix: ${f}\n`);
          if (c.replaces && c.enabled) process.stdout.write(`        choosing it unselects: ${c.replaces.join(', ')}\n`);
        }
        process.stdout.write(s.valid ? 'selection: valid\n' : `selection: not valid yet (${s.findings.length} finding(s))${s.completable ? '' : `; it cannot be completed: ${s.blocked}`}\n`);
      }
      process.exitCode = EXIT_OK;
    });

  common(components.command('analyse').description('Find components that can never be chosen, rules naming nothing, requirements never met'))
    .action(async (options: Options) => {
      const catalog = await loadCatalog(options);
      if (!catalog) return;
      const { analyse } = await import('../../core/components/index.js');
      const found = analyse(catalog);
      if (options.json) process.stdout.write(`${JSON.stringify({ findings: found }, null, 2)}\n`);
      else if (found.length === 0) process.stdout.write('no problems found\n');
      else for (const f of found) process.stdout.write(`${f.file ? `${f.file}:${f.line ?? 1}:${f.column ?? 1}: ` : ''}${f.severity}: ${f.message} [${f.code}]${f.hint ? `\n  hint: ${f.hint}` : ''}\n`);
      process.exitCode = found.some((f) => f.severity === 'error') ? EXIT_FINDINGS : EXIT_OK;
    });
}
