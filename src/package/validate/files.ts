/**
 * Which files each package version must or may have, and the schema of each (the reference
 * builder's file matrix, research/fpb.md §2.1). A file that a version does not read is named, so
 * an author who added components.yaml to a 3.0.0 plugin learns it is ignored.
 */
import { finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import { checkSchema } from './schemas.js';
import type { ValidationContext } from './context.js';
import { wrappedRoles } from './role-skeleton.js';
import { FILE_VERSIONS } from '../plugin/file-versions.js';

/** First major package version that reads the file (one table for the validator and composition). */
const sinceOf = (name: string): number => FILE_VERSIONS[name]?.since ?? 1;

interface FileRule {
  /** File name without extension, as in LoadedPlugin.files. */
  name: string;
  /** Required from this major version on (inclusive), if ever. */
  requiredSince?: number;
  /** The file may hold nothing (null) without an error. */
  emptyAllowed: (major: number) => boolean;
  schema: (major: number) => string;
}

const RULES: FileRule[] = [
  { name: 'environment_config', requiredSince: 1, emptyAllowed: () => true, schema: (m) => (m >= 4 ? 'environment-config-4.0.0.json' : 'environment-config-1.0.0.json') },
  { name: 'tasks', emptyAllowed: (m) => m >= 4, schema: (m) => (m === 1 ? 'tasks-1.0.0.json' : m === 2 ? 'tasks-2.0.0.json' : 'tasks-3.0.0.json') },
  { name: 'deployment_tasks', requiredSince: 3, emptyAllowed: () => false, schema: (m) => (m === 3 ? 'deployment-tasks-3.0.0.json' : 'deployment-tasks-4.0.0.json') },
  { name: 'network_roles', emptyAllowed: () => false, schema: () => 'network-roles.json' },
  { name: 'node_roles', emptyAllowed: () => false, schema: () => 'node-roles.json' },
  { name: 'volumes', emptyAllowed: () => false, schema: () => 'volumes.json' },
  { name: 'components', emptyAllowed: () => false, schema: () => 'components.json' },
  { name: 'node_config', emptyAllowed: () => false, schema: () => 'node-config.json' },
  { name: 'nic_config', emptyAllowed: () => false, schema: () => 'interface-config.json' },
  { name: 'bond_config', emptyAllowed: () => false, schema: () => 'interface-config.json' },
];

/** The schema (a file in schemas/) a plugin file of this major package version is checked with, if any. */
export function schemaFileFor(name: string, major: number, packageVersion: string): string | undefined {
  if (name === 'metadata') return `metadata-${packageVersion}.json`;
  const rule = RULES.find((r) => r.name === name);
  return rule && major >= sinceOf(rule.name) ? rule.schema(major) : undefined;
}

/** "Falsy" as Python saw it: Fuel skipped an environment_config that was empty, {} or []. */
const pythonFalsy = (v: unknown) =>
  v === null || v === undefined || v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

export function checkFiles(ctx: ValidationContext): void {
  const { plugin, major, findings } = ctx;
  // tasks.yaml was required (and non-empty) until 3.0.0 made deployment_tasks.yaml the format.
  const tasksRequired = major <= 2;
  for (const rule of RULES) {
    const file = plugin.filePaths[rule.name] ?? `${rule.name}.yaml`;
    const present = rule.name in plugin.files;
    const where = { file, line: 1, column: 1 };
    const since = sinceOf(rule.name);
    if (major < since) {
      if (present) {
        findings.push(
          finding('plugin/file-ignored', 'warning', `${file} is not read by package version ${plugin.packageVersion}; Fuel ignores it`, where, `move to package_version ${since}.0.0 or later to use it, or delete the file`),
        );
      }
      continue;
    }
    // A plugin of releases only takes its settings and tasks from each release's *_path files and
    // graphs; Hearth never reads the top-level ones (issue 28 item 14), nor do Fuel's examples have them.
    const releaseOnly = plugin.isReleasePlugin && plugin.releases.every((r) => r.isRelease);
    const required = !releaseOnly && ((rule.requiredSince !== undefined && major >= rule.requiredSince) || (rule.name === 'tasks' && tasksRequired));
    if (!present) {
      if (required) {
        findings.push(
          finding(
            'plugin/missing-file',
            'error',
            `package version ${plugin.packageVersion} needs ${file}, and the plugin has none`,
            { file: 'metadata.yaml', line: 1, column: 1 },
            rule.name === 'environment_config' ? 'add environment_config.yaml; it may be empty (Fuel read it unconditionally)' : `add ${file}`,
          ),
        );
      }
      continue;
    }
    const value = plugin.files[rule.name];
    if (value === undefined) continue; // not YAML: the parser already said where
    if (value === null) {
      if (!rule.emptyAllowed(major) && !releaseOnly) {
        findings.push(
          finding('file/empty', 'error', `${file} is empty`, where, required ? `describe at least one entry in ${file}` : `describe at least one entry, or delete ${file}`),
        );
      }
      continue;
    }
    if (rule.name === 'environment_config' && pythonFalsy(value)) continue;
    if (rule.name === 'node_roles') {
      const wrapped = wrappedRoles(value, file, plugin.filePaths.volumes ?? 'volumes.yaml');
      findings.push(...wrapped.findings, ...checkSchema(rule.schema(major), wrapped.rest, { file }));
      continue;
    }
    findings.push(...checkSchema(rule.schema(major), value, { file }));
  }
}

/**
 * Package 5.0.0 extension records may carry their own copy of a plugin file, through a
 * `<file>_path` key (plugins-v5 variant 2) or a `conf_path` folder (variant 3). Each gets the
 * schema the top-level file would.
 */
export function checkReleaseFiles(ctx: ValidationContext): void {
  if (ctx.major < 5) return;
  for (const record of ctx.plugin.releases) {
    if (record.isRelease) continue;
    for (const rule of RULES) {
      if (rule.name === 'tasks' || !(rule.name in record.resolved)) continue;
      const value = record.resolved[rule.name];
      if (typeof value === 'string') continue; // a path that could not be loaded: already reported
      const label = `releases[${record.index}].${rule.name}`;
      if (value === null || value === undefined) {
        if (!rule.emptyAllowed(ctx.major)) ctx.findings.push(finding('file/empty', 'error', `${label} is empty`, positionOf(record.resolved, rule.name), 'describe at least one entry, or drop the per-release file'));
        continue;
      }
      if (rule.name === 'environment_config' && pythonFalsy(value)) continue;
      ctx.findings.push(...checkSchema(rule.schema(ctx.major), value, { file: 'metadata.yaml', basePath: ['releases', record.index, rule.name] }));
    }
  }
}
