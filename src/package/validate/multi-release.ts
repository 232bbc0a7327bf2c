/**
 * Multi-release records (plugins-v5 "variant 1"): tasks, node roles, network roles, components and
 * volume allocations may carry `os-version` / `fuel-version` constraints, and records sharing an id
 * or name form one group of which the best fit is used per release (core/release/for-release).
 * Here: constraints must parse, each constrained record must fit at least one release the plugin
 * declares (a release record's own file: that release), and a repeated task id without
 * constraints is named (the later silently replaced the earlier in Fuel).
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { parseConstraint, parseReleaseVersion, satisfies, type ReleaseVersion, type VersionConstraint } from '../../core/versions/index.js';
import { collectTaskSources } from './tasks.js';
import { isMapping, type ValidationContext } from './context.js';

interface RecordList {
  label: string;
  key: 'id' | 'name';
  records: Record<string, unknown>[];
  /** The records' names when not a key inside them (node roles are named by their mapping key). */
  names?: string[];
  /** Task lists: an id twice without constraints is named (the later silently replaced the earlier). */
  tasks?: boolean;
  /** Only this release record reads the list (its own `*_path` file or `conf_path` copy). */
  release?: number;
}

/** node_roles.yaml is a mapping: each role, named by its key, is a record of its own. */
function roleList(roles: unknown, label: string): RecordList {
  const entries = isMapping(roles) ? Object.entries(roles).filter((e): e is [string, Record<string, unknown>] => isMapping(e[1])) : [];
  return { label, key: 'name', records: entries.map(([, meta]) => meta), names: entries.map(([key]) => key) };
}

/** Each role's disk layout is a list of allocations, grouped by volume id. */
function allocationLists(volumes: unknown, label: string, release?: number): RecordList[] {
  const mapping = isMapping(volumes) && isMapping(volumes.volumes_roles_mapping) ? volumes.volumes_roles_mapping : {};
  return Object.entries(mapping)
    .filter(([, list]) => Array.isArray(list))
    .map(([role, list]) => ({ label: `${label} (disk layout of ${role})`, key: 'id' as const, records: (list as unknown[]).filter(isMapping), ...(release === undefined ? {} : { release }) }));
}

function lists(ctx: ValidationContext): RecordList[] {
  const out: RecordList[] = [];
  for (const source of collectTaskSources(ctx)) {
    const own = /^releases\[(\d+)\]/.exec(source.label);
    out.push({ label: source.label, key: 'id', records: source.tasks, tasks: true, ...(own ? { release: Number(own[1]) } : {}) });
  }
  const add = (files: Record<string, unknown>, label: (name: string) => string, release?: number) => {
    const at = release === undefined ? {} : { release };
    if (ctx.major >= 3 && Array.isArray(files.network_roles)) out.push({ label: label('network_roles'), key: 'id', records: files.network_roles.filter(isMapping), ...at });
    if (ctx.major >= 4 && Array.isArray(files.components)) out.push({ label: label('components'), key: 'name', records: files.components.filter(isMapping), ...at });
    if (ctx.major >= 3 && files.node_roles !== undefined) out.push({ ...roleList(files.node_roles, label('node_roles')), ...at });
    if (ctx.major >= 3 && files.volumes !== undefined) out.push(...allocationLists(files.volumes, label('volumes'), release));
  };
  add(ctx.plugin.files, (name) => ctx.plugin.filePaths[name] ?? `${name}.yaml`);
  if (ctx.major >= 5) {
    for (const record of ctx.plugin.releases) {
      if (!record.isRelease) add(record.resolved, (name) => `releases[${record.index}].${name}`, record.index);
    }
  }
  return out;
}

export function checkMultiRelease(ctx: ValidationContext): void {
  const declaredAt = new Map<number, ReleaseVersion>();
  for (const r of ctx.plugin.releases) {
    const version = typeof r.raw.version === 'string' ? parseReleaseVersion(r.raw.version) : undefined;
    if (version && !r.isRelease) declaredAt.set(r.index, version);
  }
  const declared = [...declaredAt.values()];
  const fuelVersions = (Array.isArray(ctx.plugin.metadata.fuel_version) ? ctx.plugin.metadata.fuel_version : [])
    .map((v) => parseReleaseVersion(String(v), 'fuel'))
    .filter((v) => v !== undefined);
  for (const list of lists(ctx)) {
    const unconstrained = new Map<string, Record<string, unknown>>();
    list.records.forEach((record, index) => {
      const name = list.names ? list.names[index] : typeof record[list.key] === 'string' ? (record[list.key] as string) : undefined;
      const constraints: Array<{ key: string; constraint: VersionConstraint }> = [];
      for (const key of ['os-version', 'fuel-version'] as const) {
        if (record[key] === undefined) continue;
        const parsed = parseConstraint(record[key], key === 'fuel-version' ? 'fuel' : 'os');
        if (!parsed.ok) {
          ctx.findings.push(finding('version/bad-constraint', 'error', `${name ?? 'a record'} in ${list.label}: ${key} ${parsed.error}`, positionOf(record, key), 'write clauses such as ">=9.0,<10.0" or "==2014.2,==2015.1" (== clauses are alternatives)'));
          continue;
        }
        constraints.push({ key, constraint: parsed.constraint });
      }
      if (constraints.length === 0) {
        if (name !== undefined && list.tasks) {
          const earlier = unconstrained.get(name);
          if (earlier) {
            const at = positionOf(earlier);
            ctx.findings.push(
              finding('task/duplicate-id', 'warning', `${list.label} defines '${name}' twice${at ? ` (first at line ${at.line})` : ''}; only the later one is used`, keyPositionOf(record, 'id'), 'remove one, or give each an os-version/fuel-version constraint'),
            );
          }
          unconstrained.set(name, record);
        }
        return;
      }
      const own = list.release === undefined ? undefined : declaredAt.get(list.release);
      const targets = own ? [own] : declared.length ? declared : fuelVersions;
      if (targets.length === 0) return;
      const fits = targets.some((target) => constraints.every(({ constraint }) => satisfies(target, constraint)));
      if (!fits) {
        ctx.findings.push(
          finding(
            'version/fits-no-release',
            'warning',
            `${name ?? 'a record'} in ${list.label} is limited to ${constraints.map((c) => `${c.key} ${c.constraint.text}`).join(' and ')}, which ${own ? `the release that reads it (${own.text}) does not meet` : `none of the plugin's releases (${declared.map((d) => d.text).join(', ') || 'none'}) meets`}`,
            positionOf(record, constraints[0].key),
            'widen the constraint, or add the release it was written for',
          ),
        );
      }
    });
  }
}
