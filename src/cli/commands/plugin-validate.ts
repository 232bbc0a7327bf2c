/**
 * `hearth plugin validate <dir>`: check a plugin folder the way Fuel's builder did, and more.
 * Exit 0 without errors (warnings allowed), 1 with errors, 2 for bad usage.
 */
import type { Command } from 'commander';
import type { Release } from '../../core/release/model.js';
import { group } from '../group.js';
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../exit.js';
import { withoutOptimisingCompiler } from '../short-run.js';
import { printAnswer, stdoutIsTerminal } from '../terminal.js';

export interface ValidateFlags {
  json?: boolean;
  release?: string;
  releaseVersion?: string;
  tasks?: string;
  with: string[];
  color?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerPluginValidate(program: Command): void {
  const plugin = group(program, 'plugin', 'Write, check and package plugins');
  plugin
    .command('validate <dir>')
    .description('Check a plugin folder: every file against its schema for the package version, then tasks, roles, volumes and components')
    .option('--json', 'print {plugin, valid, findings} as JSON')
    .option('--release <dir-or-file>', 'check against this release: a release plugin folder or a Fuel release fixture (openstack.yaml)')
    .option('--release-version <version>', 'with --release: which release of the plugin or fixture (e.g. newton-10.0)')
    .option('--tasks <dir>', 'with a fixture --release: the Fuel library folder its deployment tasks come from')
    .option('--with <plugin-dir>', 'a plugin folder to be enabled beside this one: a network role both define differently is an error (repeatable)', collect, [])
    .option('--no-color', 'plain text output')
    .action(validateAction);
}

/** What `hearth plugin validate <dir>` does with its folder and flags (commander's, or ./plugin-validate-args.ts's). */
export async function validateAction(dir: string, flags: ValidateFlags): Promise<void> {
  const { statSync } = await import('node:fs');
  let isFolder = false;
  try {
    isFolder = statSync(dir).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) return usageError(`no such plugin folder: ${dir}`);
  if ((flags.releaseVersion !== undefined || flags.tasks !== undefined) && flags.release === undefined) {
    return usageError('--release-version and --tasks need --release');
  }
  let release: Release | undefined;
  let releases: Release[] | undefined;
  const releaseArg = flags.release;
  if (releaseArg !== undefined) {
    const { loadReleaseSource } = await import('../../package/release/source.js');
    const source = withoutOptimisingCompiler(() => loadReleaseSource(releaseArg, { version: flags.releaseVersion, tasksDir: flags.tasks }));
    if (!source.release) {
      for (const f of source.findings.filter((x) => x.severity === 'error')) {
        process.stderr.write(`hearth: ${f.file ? `${f.file}${f.line ? `:${f.line}:${f.column ?? 1}` : ''}: ` : ''}${f.message}${f.hint ? ` (${f.hint})` : ''}\n`);
      }
      return usageError(`cannot use ${flags.release} as the release to check against`);
    }
    release = source.release;
    // Without --release-version, the release the plugin's metadata.yaml names is chosen from them.
    if (flags.releaseVersion === undefined) releases = source.releases;
  }
  // The plugins to be enabled beside it: their network roles, for the composition's merge rule.
  const otherPlugins: Array<{ name: string; networkRoles: Array<Record<string, unknown>> }> = [];
  if (flags.with.length) {
    const { loadPlugin } = await import('../../package/plugin/index.js');
    for (const other of flags.with) {
      const loaded = withoutOptimisingCompiler(() => loadPlugin(other));
      if (!loaded.plugin) return usageError(`--with ${other}: not a plugin folder that can be read (hearth plugin validate ${other} says why)`);
      const roles = loaded.plugin.files.network_roles;
      otherPlugins.push({ name: loaded.plugin.name, networkRoles: Array.isArray(roles) ? roles.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r)) : [] });
    }
  }
  const { validatePlugin } = await import('../../package/validate/index.js');
  const result = withoutOptimisingCompiler(() => validatePlugin(dir, { ...(release ? { release } : {}), ...(releases ? { releases } : {}), ...(otherPlugins.length ? { otherPlugins } : {}) }));
  const report = await import('../../package/validate/report.js');
  // Straight to file descriptor 1: making process.stdout was 2 ms of the run (terminal.ts).
  if (flags.json) printAnswer(report.toJson(result));
  else printAnswer(report.formatReport(result, { root: dir, color: flags.color !== false && stdoutIsTerminal() }));
  process.exitCode = result.valid ? EXIT_OK : EXIT_FINDINGS;
}
