/**
 * Multi-release records (plugins-v5 "variant 1"): tasks, network roles and components may carry
 * `os-version` / `fuel-version` constraints, and records sharing an id or name form one group of
 * which the best fit is used per release. Here: constraints must parse, each constrained record
 * must fit at least one release the plugin declares, and a repeated id without constraints is
 * named (the later silently replaced the earlier in Fuel).
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { parseConstraint, parseReleaseVersion, satisfies, type VersionConstraint } from '../../core/versions/index.js';
import { collectTaskSources } from './tasks.js';
import { isMapping, type ValidationContext } from './context.js';

interface RecordList {
  label: string;
  key: 'id' | 'name';
  records: Record<string, unknown>[];
}

function lists(ctx: ValidationContext): RecordList[] {
  const out: RecordList[] = [];
  for (const source of collectTaskSources(ctx)) out.push({ label: source.label, key: 'id', records: source.tasks });
  const networkRoles = ctx.plugin.files.network_roles;
  if (ctx.major >= 3 && Array.isArray(networkRoles)) out.push({ label: ctx.plugin.filePaths.network_roles, key: 'id', records: networkRoles.filter(isMapping) });
  const components = ctx.plugin.files.components;
  if (ctx.major >= 4 && Array.isArray(components)) out.push({ label: ctx.plugin.filePaths.components, key: 'name', records: components.filter(isMapping) });
  return out;
}

export function checkMultiRelease(ctx: ValidationContext): void {
  const declared = ctx.plugin.releases
    .map((r) => (typeof r.raw.version === 'string' ? parseReleaseVersion(r.raw.version) : undefined))
    .filter((v) => v !== undefined);
  const fuelVersions = (Array.isArray(ctx.plugin.metadata.fuel_version) ? ctx.plugin.metadata.fuel_version : [])
    .map((v) => parseReleaseVersion(String(v), 'fuel'))
    .filter((v) => v !== undefined);
  for (const list of lists(ctx)) {
    const unconstrained = new Map<string, Record<string, unknown>>();
    for (const record of list.records) {
      const name = typeof record[list.key] === 'string' ? (record[list.key] as string) : undefined;
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
        if (name !== undefined && list.key === 'id') {
          const earlier = unconstrained.get(name);
          if (earlier) {
            const at = positionOf(earlier);
            ctx.findings.push(
              finding('task/duplicate-id', 'warning', `${list.label} defines '${name}' twice${at ? ` (first at line ${at.line})` : ''}; only the later one is used`, keyPositionOf(record, 'id'), 'remove one, or give each an os-version/fuel-version constraint'),
            );
          }
          unconstrained.set(name, record);
        }
        continue;
      }
      const targets = declared.length ? declared : fuelVersions;
      if (targets.length === 0) continue;
      const fits = targets.some((target) => constraints.every(({ constraint }) => satisfies(target, constraint)));
      if (!fits) {
        ctx.findings.push(
          finding(
            'version/fits-no-release',
            'warning',
            `${name ?? 'a record'} in ${list.label} is limited to ${constraints.map((c) => `${c.key} ${c.constraint.text}`).join(' and ')}, which none of the plugin's releases (${declared.map((d) => d.text).join(', ') || 'none'}) meets`,
            positionOf(record, constraints[0].key),
            'widen the constraint, or add the release it was written for',
          ),
        );
      }
    }
  }
}
