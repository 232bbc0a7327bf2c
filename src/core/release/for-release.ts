/**
 * What one plugin brings to the one release it is composed with (plugins-v5 multi-release
 * packages). First the release record's own files (variants 2 and 3) replace the top-level ones
 * part by part; then, in every kind of record that may carry `os-version` / `fuel-version`
 * constraints (tasks, node roles, network roles, components, volume allocations), the records
 * sharing an id or name form one group of which the best fit for the release is kept (variant 1).
 * A group with no fitting record is left out, with a note. The kept records lose their
 * constraints: past this point they mean nothing (as the design says).
 */
import { finding, type Finding, type SourcePosition } from '../findings.js';
import { copyPositions, positionAt } from '../positions.js';
import type { Task } from '../tasks/model.js';
import { compareNumbers, parseReleaseVersion, selectBestFit, type ReleaseTarget } from '../versions/index.js';
import type { Release, RoleMetadata, VolumeAllocation } from './model.js';
import { isMapping, type Mapping } from './merge.js';
import { pluginLabel, type PluginContribution, type PluginGraph, type PluginReleaseSupport } from './plugin.js';

/**
 * The versions a plugin's constraints are read against. A plugin that matched the release through
 * one of its `compatible_versions` (`mitaka-9.0`) sees that version whole: the release presents
 * itself as that Fuel release. A plugin that matched the release's own version sees its OpenStack
 * side, and for the Fuel side the newest Fuel version the release keeps compatible with (Hearth's
 * own release line, `2026.1-1.0`, has no Fuel version of its own); a Fuel release (`newton-10.0`)
 * is its own Fuel version.
 */
export function releaseTarget(release: Release, matchedVersion: string): ReleaseTarget {
  if (matchedVersion !== release.version) return { release: matchedVersion };
  let fuel: number[] | undefined;
  for (const text of release.compatible_versions ?? []) {
    const v = parseReleaseVersion(text);
    if (v?.fuel && (!fuel || compareNumbers(v.fuel, fuel) > 0)) fuel = v.fuel;
  }
  if (!fuel) return { release: release.version };
  const own = parseReleaseVersion(release.version);
  const dash = release.version.lastIndexOf('-');
  const os = own?.os ? own.os.join('.') : own?.osName ?? (dash > 0 ? release.version.slice(0, dash) : undefined);
  return { ...(os ? { os } : {}), fuel: fuel.join('.') };
}

const CONSTRAINT_KEYS = ['os-version', 'fuel-version'] as const;

interface Kind<T> {
  /** Finding code prefix and words: `task`, `node role`, … */
  code: string;
  noun: string;
  keyOf(record: T): string | undefined;
  constraints(record: T): { os?: unknown; fuel?: unknown };
  /** The record without its constraints (positions kept). */
  strip(record: T): T;
  where(record: T): Partial<SourcePosition> | undefined;
}

function stripMapping<T extends Mapping>(record: T): T {
  if (!CONSTRAINT_KEYS.some((k) => k in record)) return record;
  const out = { ...record };
  for (const key of CONSTRAINT_KEYS) delete out[key];
  copyPositions(record, out);
  return out;
}

const mappingKind = <T extends Mapping>(code: string, noun: string, key: string): Kind<T> => ({
  code,
  noun,
  keyOf: (r) => (typeof r[key] === 'string' ? (r[key] as string) : undefined),
  constraints: (r) => ({ os: r['os-version'], fuel: r['fuel-version'] }),
  strip: stripMapping,
  where: (r) => positionAt(r, ['os-version']) ?? positionAt(r, ['fuel-version']),
});

// Tasks stored before `osVersion`/`fuelVersion` were Task fields carry the constraints in `extra`.
const TASKS: Kind<Task> = {
  code: 'task',
  noun: 'task',
  keyOf: (t) => t.id,
  constraints: (t) => ({ os: t.osVersion ?? t.extra?.['os-version'], fuel: t.fuelVersion ?? t.extra?.['fuel-version'] }),
  strip(t) {
    const constrained = t.osVersion !== undefined || t.fuelVersion !== undefined || (t.extra && CONSTRAINT_KEYS.some((k) => k in t.extra!));
    if (!constrained) return t;
    const { osVersion: _os, fuelVersion: _fuel, ...rest } = t;
    const out: Task = { ...rest };
    if (t.extra) {
      const extra = { ...t.extra };
      for (const key of CONSTRAINT_KEYS) delete extra[key];
      if (Object.keys(extra).length) out.extra = extra;
      else delete out.extra;
    }
    return out;
  },
  where: (t) => (t.origin.file ? { file: t.origin.file, line: t.origin.line, column: t.origin.column } : undefined),
};

// node_roles.yaml is a mapping, so a role name is there once: its group is the one record, kept
// or left out. A role that differs between releases comes from per-release files (variants 2, 3).
const ROLES: Kind<[string, RoleMetadata]> = {
  code: 'role',
  noun: 'node role',
  keyOf: ([key]) => key,
  constraints: ([, r]) => ({ os: r['os-version'], fuel: r['fuel-version'] }),
  strip: (entry) => entry,
  where: ([, r]) => positionAt(r, ['os-version']) ?? positionAt(r, ['fuel-version']),
};
const COMPONENTS = mappingKind<PluginContribution['components'][number]>('component', 'component', 'name');
const NETWORK_ROLES = mappingKind<Mapping>('network-role', 'network role', 'id');
const ALLOCATIONS = mappingKind<VolumeAllocation>('volume', 'volume allocation', 'id');

const isVersioned = (c: { os?: unknown; fuel?: unknown }) => (c.os !== undefined && c.os !== null) || (c.fuel !== undefined && c.fuel !== null);

/** Best fit per group; records without any constraint anywhere come back as they were. */
function choose<T>(kind: Kind<T>, records: readonly T[], target: ReleaseTarget, context: string, findings: Finding[]): T[] {
  if (!records.some((r) => isVersioned(kind.constraints(r)))) return [...records];
  const wrapped = records.map((record) => {
    const c = kind.constraints(record);
    return { record, 'os-version': c.os, 'fuel-version': c.fuel };
  });
  const fit = selectBestFit(wrapped, (w) => kind.keyOf(w.record), target);
  for (const key of fit.unsatisfied) {
    const member = records.find((r) => kind.keyOf(r) === key);
    findings.push(
      finding(
        `${kind.code}/no-fit-for-release`,
        'info',
        `${context}: no version of ${kind.noun} '${key}' fits ${describeTarget(target)}; the ${kind.noun} is left out`,
        member === undefined ? undefined : kind.where(member),
        'nothing to do if the plugin does not mean it for this release; otherwise widen its os-version/fuel-version',
      ),
    );
  }
  for (const problem of fit.problems) {
    const record = records[problem.index];
    findings.push(
      finding(
        `${kind.code}/bad-version-constraint`,
        'error',
        `${context}: ${kind.noun} '${kind.keyOf(record) ?? '?'}' has a ${problem.key} that does not parse: ${problem.message}`,
        kind.where(record),
        'write clauses such as ">=9.0,<10.0" or "==2014.2,==2015.1" (== clauses are alternatives)',
      ),
    );
  }
  return fit.selected.map((w) => kind.strip(w.record));
}

function describeTarget(target: ReleaseTarget): string {
  if (target.release) return `release ${target.release}`;
  return [target.os ? `OpenStack ${target.os}` : '', target.fuel ? `Fuel ${target.fuel}` : ''].filter(Boolean).join(' with ');
}

export interface ReleaseContribution {
  contribution: PluginContribution;
  findings: Finding[];
}

/** The plugin as this release sees it: its record's own files, then one record per group. */
export function contributionForRelease(plugin: PluginContribution, entry: PluginReleaseSupport | undefined, target: ReleaseTarget): ReleaseContribution {
  const findings: Finding[] = [];
  const base: PluginContribution = entry?.parts ? { ...plugin, ...entry.parts, files: { ...plugin.files, ...entry.parts.files } } : plugin;
  const context = `plugin ${pluginLabel(plugin)}`;

  const roles: Record<string, RoleMetadata> = {};
  const dropped = new Set<string>();
  const keptRoles = new Set(choose(ROLES, Object.entries(base.roles), target, context, findings).map(([key]) => key));
  for (const [key, role] of Object.entries(base.roles)) {
    if (keptRoles.has(key)) roles[key] = stripMapping(role);
    else dropped.add(key);
  }

  const volumesRolesMapping: Record<string, VolumeAllocation[]> = {};
  for (const [role, allocations] of Object.entries(base.volumesRolesMapping)) {
    if (dropped.has(role)) continue; // the layout of a role this release does not get
    if (!Array.isArray(allocations)) {
      volumesRolesMapping[role] = allocations; // composition reports the shape
      continue;
    }
    const kept = choose(ALLOCATIONS, allocations.filter(isMapping) as VolumeAllocation[], target, `${context}, disk layout of role '${role}'`, findings);
    if (kept.length === allocations.length && kept.every((a, i) => a === allocations[i])) volumesRolesMapping[role] = allocations;
    else if (kept.length) {
      copyPositions(allocations, kept);
      volumesRolesMapping[role] = kept;
    }
  }
  copyPositions(base.volumesRolesMapping, volumesRolesMapping);

  const graphs: Record<string, PluginGraph> = {};
  for (const [type, graph] of Object.entries(base.graphs)) {
    // A dropped role's group task (from its node_roles `tasks:` list) goes with it.
    const tasks = graph.tasks.filter((t) => !(t.type === 'group' && dropped.has(t.id)));
    graphs[type] = { ...graph, tasks: choose(TASKS, tasks, target, `${context}, graph '${type}'`, findings) };
  }

  const contribution: PluginContribution = {
    ...base,
    roles,
    volumesRolesMapping,
    networkRoles: choose(NETWORK_ROLES, base.networkRoles, target, context, findings),
    components: choose(COMPONENTS, base.components, target, context, findings),
    graphs,
  };
  copyPositions(base.roles, roles);
  return { contribution, findings };
}
