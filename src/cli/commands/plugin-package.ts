/**
 * `hearth plugin create | build | inspect`: the plugin author's loop after editing. Actions import
 * the package modules lazily so the CLI starts fast.
 */
import type { Command } from 'commander';
import type { Finding } from '../../core/findings.js';
import { group } from '../group.js';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, usageError } from '../exit.js';
import { formatFinding } from '../finding-line.js';


function printFindings(findings: readonly Finding[], stream: NodeJS.WriteStream = process.stderr): void {
  for (const f of findings) stream.write(formatFinding(f));
}

export function registerPluginPackage(program: Command): void {
  const plugin = group(program, 'plugin', 'Write, check and package plugins');

  plugin
    .command('create <name>')
    .description('Create a plugin skeleton that validates cleanly')
    .option('--package-version <version>', 'package format: 1.0.0, 2.0.0, 3.0.0, 4.0.0 or 5.0.0', '5.0.0')
    .option('--release-plugin', 'a release plugin (package 5.0.0): one release with its own folder and the four graph types')
    .option('--dir <parent>', 'folder to create the plugin folder in', '.')
    .action(async (name: string, opts: { packageVersion: string; releasePlugin?: boolean; dir: string }) => {
      const { createPlugin } = await import('../../package/create/index.js');
      const result = createPlugin(name, { packageVersion: opts.packageVersion, releasePlugin: opts.releasePlugin === true, parentDir: opts.dir });
      if (!result.ok) {
        printFindings(result.findings);
        process.exitCode = result.usage ? EXIT_USAGE : EXIT_FINDINGS;
        return;
      }
      process.stdout.write(`Created ${opts.releasePlugin ? 'release plugin' : 'plugin'} ${name} (package ${opts.packageVersion}) in ${result.dir}: ${result.files.length} files and folders.\n`);
      process.stdout.write(`Next: edit it, then \`hearth plugin validate ${result.dir}\` and \`hearth plugin build ${result.dir}\`.\n`);
    });

  plugin
    .command('build <dir>')
    .description('Run pre_build_hook, validate, and write <name>-<version>.tar.gz')
    .option('--out <dir>', 'folder for the package (default: the plugin folder)')
    .option('--json', 'print {path, size, sha256} as JSON')
    .option('--no-hook', 'do not run pre_build_hook')
    .action(async (dir: string, opts: { out?: string; json?: boolean; hook: boolean }) => {
      const { existsSync, statSync } = await import('node:fs');
      if (!existsSync(dir) || !statSync(dir).isDirectory()) {
        usageError(`no such plugin folder: ${dir}`);
        return;
      }
      const { buildPlugin } = await import('../../package/build/index.js');
      const progress = await import('../../package/build/report.js');
      const reporter = progress.buildReporter(process.stderr, opts.json === true);
      const result = await buildPlugin(dir, {
        outDir: opts.out,
        runHook: opts.hook,
        onEvent: reporter.onEvent,
        // With --json, stdout carries only the result; the hook's output goes to stderr.
        onHookOutput: (chunk) => (opts.json ? process.stderr : process.stdout).write(chunk),
      });
      reporter.finish();
      // Notes (info) belong to `hearth plugin validate`; a build shows what could stop or spoil it.
      printFindings(result.findings.filter((f) => f.severity !== 'info'));
      if (!result.ok) {
        if (result.hookExitCode !== undefined && result.hookExitCode !== 0) process.exitCode = result.hookExitCode;
        else process.exitCode = result.findings.some((f) => f.code === 'build/not-a-plugin') ? EXIT_USAGE : EXIT_FINDINGS;
        return;
      }
      if (opts.json) process.stdout.write(`${JSON.stringify({ path: result.path, size: result.size, sha256: result.sha256 })}\n`);
      else process.stdout.write(`Built ${result.path} (${result.size} bytes, sha256 ${result.sha256})\n`);
      process.exitCode = EXIT_OK;
    });

  plugin
    .command('inspect <package>')
    .description('Verify a package (manifest, every checksum, safe paths) and show what it holds; also a Fuel plugin .rpm or .fp')
    .option('--json', 'print the summary and findings as JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      const { inspectPackage } = await import('../../package/build/index.js');
      const result = await inspectPackage(file);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ ok: result.ok, summary: result.summary, findings: result.findings }, null, 2)}\n`);
      } else {
        printFindings(result.findings);
        if (result.summary) {
          const { formatSummary } = await import('../../package/build/report.js');
          process.stdout.write(formatSummary(result.summary));
        }
      }
      const missing = result.findings.some((f) => f.code === 'package/missing' || f.code === 'package/not-a-file');
      process.exitCode = result.ok ? EXIT_OK : missing ? EXIT_USAGE : EXIT_FINDINGS;
    });
}
