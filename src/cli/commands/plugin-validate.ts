/**
 * `hearth plugin validate <dir>`: check a plugin folder the way Fuel's builder did, and more.
 * Exit 0 without errors (warnings allowed), 1 with errors, 2 for bad usage.
 */
import type { Command } from 'commander';
import type { Release } from '../../core/release/model.js';
import { group } from '../group.js';
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../exit.js';
import { withoutOptimisingCompiler } from '../short-run.js';

interface ValidateFlags {
  json?: boolean;
  release?: string;
  releaseVersion?: string;
  tasks?: string;
  color?: boolean;
}

export function registerPluginValidate(program: Command): void {
  const plugin = group(program, 'plugin', 'Write, check and package plugins');
  plugin
    .command('validate <dir>')
    .description('Check a plugin folder: every file against its schema for the package version, then tasks, roles, volumes and components')
    .option('--json', 'print {plugin, valid, findings} as JSON')
    .option('--release <dir-or-file>', 'check against this release: a release plugin folder or a Fuel release fixture (openstack.yaml)')
    .option('--release-version <version>', 'with --release: which release of the plugin or fixture (e.g. newton-10.0)')
    .option('--tasks <dir>', 'with a fixture --release: the Fuel library folder its deployment tasks come from')
    .option('--no-color', 'plain text output')
    .action(async (dir: string, flags: ValidateFlags) => {
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
      const { validatePlugin } = await import('../../package/validate/index.js');
      const result = withoutOptimisingCompiler(() => validatePlugin(dir, { ...(release ? { release } : {}), ...(releases ? { releases } : {}) }));
      const report = await import('../../package/validate/report.js');
      if (flags.json) process.stdout.write(report.toJson(result));
      else process.stdout.write(report.formatReport(result, { root: dir, color: flags.color !== false && process.stdout.isTTY === true }));
      process.exitCode = result.valid ? EXIT_OK : EXIT_FINDINGS;
    });
}
