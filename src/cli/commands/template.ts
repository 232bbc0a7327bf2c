/**
 * `hearth template find|capabilities|resolve`: Heat template capabilities (issue 7), offline on files.
 * Results go to stdout (text, or JSON with --json); findings go to stderr as `file:line:col: …`.
 * Exit 0 ok, 1 when the input has errors (a list that does not resolve, a loop, a bad section),
 * 2 for bad usage (a malformed -c, a path that does not exist).
 */
import type { Command } from 'commander';
import type { Finding } from '../../core/findings.js';
import { group } from '../group.js';
import { EXIT_FINDINGS, EXIT_OK, usageError } from '../exit.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function printFindings(findings: readonly Finding[]): void {
  for (const f of findings) {
    const where = f.file ? `${f.file}${f.line ? `:${f.line}:${f.column ?? 1}` : ''}: ` : '';
    const label = f.severity === 'info' ? 'note' : f.severity;
    const message = f.message.split('\n').join('\n    ');
    process.stderr.write(`${where}${label}: ${message} [${f.code}]${f.hint ? `\n    hint: ${f.hint}` : ''}\n`);
  }
}

const hasErrors = (findings: readonly Finding[]) => findings.some((f) => f.severity === 'error');

/** `-c key=value` options as requirements; undefined (after a usage error) when one is malformed. */
function parseConstraints(options: readonly string[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const option of options) {
    const at = option.indexOf('=');
    if (at <= 0) {
      usageError(`-c wants key=value, not '${option}' (e.g. -c resource_type=OS::TripleO::Controller)`);
      return undefined;
    }
    const key = option.slice(0, at);
    const value = option.slice(at + 1);
    if (Object.prototype.hasOwnProperty.call(out, key) && out[key] !== value) {
      usageError(`-c ${key} is given twice with different values ('${out[key]}', '${value}'); give each key once`);
      return undefined;
    }
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

async function missingPaths(paths: readonly string[]): Promise<string[]> {
  const { existsSync } = await import('node:fs');
  return paths.filter((p) => !existsSync(p));
}

export function registerTemplate(program: Command): void {
  const template = group(program, 'template', 'Heat templates: find them by capabilities, summarise them, resolve environments');

  template
    .command('find <paths...>')
    .description('Templates whose capabilities match every -c key=value, one path per line (sorted)')
    .option('-r, --recursive', 'look into sub-folders')
    .option('-c, --capability <key=value>', 'a capability the template must have (repeat for more; all must match)', collect, [])
    .option('--json', 'print {"templates": [paths]}')
    .action(async (paths: string[], flags: { recursive?: boolean; capability: string[]; json?: boolean }) => {
      const constraints = parseConstraints(flags.capability);
      if (!constraints) return;
      const missing = await missingPaths(paths);
      if (missing.length > 0) return usageError(`no such file or folder: ${missing.join(', ')}`);
      const { findTemplates } = await import('../../package/templates/index.js');
      const result = findTemplates(paths, constraints, { recursive: flags.recursive === true });
      printFindings(result.findings);
      if (flags.json) process.stdout.write(`${JSON.stringify({ templates: result.templates }, null, 2)}\n`);
      else process.stdout.write(result.templates.map((t) => `${t}\n`).join(''));
      process.exitCode = hasErrors(result.findings) ? EXIT_FINDINGS : EXIT_OK;
    });

  template
    .command('capabilities')
    .description('Summarise the capabilities of templates: each tag with its values, each type with its templates, in -f order')
    .option('-f, --file <template>', 'a template (repeat for more)', collect, [])
    .option('-e, --environment <file>', 'an environment: its requires keys and the types it maps to lists (repeat for more)', collect, [])
    .option('--json', 'print {"tags": {key: [values]}, "types": {type: [templates]}} (with -e also "requires" and "lists")')
    .action(async (flags: { file: string[]; environment: string[]; json?: boolean }) => {
      if (flags.file.length === 0 && flags.environment.length === 0) return usageError('give at least one template with -f <file> or environment with -e <file>');
      const missing = await missingPaths([...flags.file, ...flags.environment]);
      if (missing.length > 0) return usageError(`no such file: ${missing.join(', ')}`);
      const { summariseTemplateFiles } = await import('../../package/templates/index.js');
      const result = summariseTemplateFiles(flags.file, { environments: flags.environment });
      printFindings(result.findings);
      const withEnvironments = flags.environment.length ? { requires: result.requires, lists: result.lists } : {};
      if (flags.json) process.stdout.write(`${JSON.stringify({ tags: result.tags, types: result.types, ...withEnvironments }, null, 2)}\n`);
      else {
        const lines: string[] = [];
        const section = (title: string, entries: Record<string, string[]>) => {
          if (Object.keys(entries).length === 0) return;
          lines.push(`${title}:`);
          for (const [key, values] of Object.entries(entries)) lines.push(`  ${key}: ${values.join(', ')}`);
        };
        section('tags', result.tags);
        section('types', result.types);
        section('requires (environments)', result.requires ?? {});
        section('lists (environments)', result.lists ?? {});
        if (lines.length === 0) lines.push('no capabilities declared');
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      process.exitCode = hasErrors(result.findings) ? EXIT_FINDINGS : EXIT_OK;
    });

  template
    .command('resolve')
    .description('Merge environments in order and resolve each list of candidate templates against requires')
    .option('-e, --environment <file>', 'an environment file (repeat for more; later files win)', collect, [])
    .option('--root <dir>', 'the template tree: /usr/share/openstack-tripleo-heat-templates/ paths are read under it, and paths are shown relative to it')
    .option('--json', 'print {"resolved": {type: template}, "errors": [{type, kind, candidates, matching, message}]}')
    .action(async (flags: { environment: string[]; root?: string; json?: boolean }) => {
      if (flags.environment.length === 0) return usageError('give at least one environment with -e <file>');
      const missing = await missingPaths([...flags.environment, ...(flags.root !== undefined ? [flags.root] : [])]);
      if (missing.length > 0) return usageError(`no such file or folder: ${missing.join(', ')}`);
      const { resolveEnvironments } = await import('../../package/templates/index.js');
      const result = resolveEnvironments(flags.environment, { root: flags.root });
      // Resolution errors are in `errors` (stdout); the other findings go to stderr.
      printFindings(result.findings.filter((f) => !f.code.startsWith('resolve/') || !flags.json));
      if (flags.json) {
        const errors = result.errors.map((e) => ({
          type: e.type,
          ...(e.resource ? { resource: e.resource } : {}),
          kind: e.kind,
          candidates: e.candidates,
          matching: e.matching,
          message: e.message,
        }));
        const body = { resolved: result.resolved, ...(Object.keys(result.resources).length > 0 ? { resources: result.resources } : {}), errors };
        process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      } else {
        const lines = Object.entries(result.resolved).map(([type, value]) => `${type}: ${value}`);
        for (const [resource, types] of Object.entries(result.resources)) {
          for (const [type, value] of Object.entries(types)) lines.push(`resources.${resource}.${type}: ${value}`);
        }
        process.stdout.write(lines.map((l) => `${l}\n`).join(''));
      }
      process.exitCode = result.errors.length > 0 || hasErrors(result.findings) ? EXIT_FINDINGS : EXIT_OK;
    });
}
