/**
 * Roles of a release plus the roles of its plugins. A role name belongs to exactly one source:
 * two sources defining it is an error naming both (Fuel refused such a plugin outright). Plugin
 * roles without tags get a tag of their own name, as Nailgun did on install.
 */
import { finding, type Finding } from '../findings.js';
import { positionAt } from '../positions.js';
import type { RoleMetadata } from '../release/model.js';
import { pluginLabel, type PluginContribution } from '../release/plugin.js';

export interface MergedRoles {
  roles: Record<string, RoleMetadata>;
  tags: Record<string, Record<string, unknown>>;
  /** `release` or the plugin name, per role. */
  sources: Record<string, string>;
  findings: Finding[];
}

/** Field shapes that role rules rely on; anything else is a finding, not a crash later. */
export function checkRoleShape(name: string, role: RoleMetadata, owner: string, file: string | undefined): Finding[] {
  const out: Finding[] = [];
  const at = (...path: string[]) => positionAt(role, path) ?? (file ? { file } : undefined);
  if (role.conflicts !== undefined && role.conflicts !== '*' && !(Array.isArray(role.conflicts) && role.conflicts.every((c) => typeof c === 'string'))) {
    out.push(finding('role/bad-conflicts', 'error', `role '${name}' (${owner}): 'conflicts' must be a list of role names or "*"`, at('conflicts'), 'write conflicts: [other-role] or conflicts: "*"'));
  }
  if (role.tags !== undefined && !(Array.isArray(role.tags) && role.tags.every((t) => typeof t === 'string'))) {
    out.push(finding('role/bad-tags', 'error', `role '${name}' (${owner}): 'tags' must be a list of tag names`, at('tags')));
  }
  if (role.restrictions !== undefined && !Array.isArray(role.restrictions)) {
    out.push(finding('role/bad-restrictions', 'error', `role '${name}' (${owner}): 'restrictions' must be a list`, at('restrictions')));
  }
  const limits = role.limits as unknown;
  if (limits !== undefined) {
    if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) {
      out.push(finding('role/bad-limits', 'error', `role '${name}' (${owner}): 'limits' must be a mapping of min, max, recommended and overrides`, at('limits')));
    } else {
      for (const key of ['min', 'max', 'recommended'] as const) {
        const v = (limits as Record<string, unknown>)[key];
        if (v !== undefined && typeof v !== 'number' && typeof v !== 'string') {
          out.push(finding('role/bad-limits', 'error', `role '${name}' (${owner}): limits.${key} must be a number or an expression`, at('limits', key)));
        }
      }
      const overrides = (limits as Record<string, unknown>).overrides;
      if (overrides !== undefined && !Array.isArray(overrides)) {
        out.push(finding('role/bad-limits', 'error', `role '${name}' (${owner}): limits.overrides must be a list`, at('limits', 'overrides')));
      }
    }
  }
  return out;
}

export function mergeRoles(
  releaseRoles: Record<string, RoleMetadata>,
  releaseTags: Record<string, Record<string, unknown>>,
  releaseLabel: string,
  plugins: readonly PluginContribution[],
): MergedRoles {
  const findings: Finding[] = [];
  const roles: Record<string, RoleMetadata> = {};
  const sources: Record<string, string> = {};
  const tags: Record<string, Record<string, unknown>> = { ...releaseTags };
  const tagSources: Record<string, string> = Object.fromEntries(Object.keys(releaseTags).map((t) => [t, 'release']));
  for (const [name, role] of Object.entries(releaseRoles)) {
    findings.push(...checkRoleShape(name, role, `release ${releaseLabel}`, undefined));
    roles[name] = role;
    sources[name] = 'release';
  }
  for (const plugin of plugins) {
    const file = plugin.files?.roles;
    for (const [name, role] of Object.entries(plugin.roles)) {
      const where = positionAt(plugin.roles, [name]) ?? (file ? { file } : undefined);
      const owner = sources[name];
      if (owner !== undefined) {
        const other = owner === 'release' ? `the release ${releaseLabel}` : `plugin ${owner}`;
        findings.push(finding('role/defined-twice', 'error', `role '${name}' is defined by both ${other} and plugin ${pluginLabel(plugin)}`, where, `rename the role in ${pluginLabel(plugin)}, or do not enable it together with ${owner === 'release' ? 'this release' : owner}`));
        continue;
      }
      findings.push(...checkRoleShape(name, role, `plugin ${pluginLabel(plugin)}`, file));
      const restrictions = Array.isArray(role.restrictions) ? role.restrictions : [];
      const merged: RoleMetadata = {
        ...role,
        name: typeof role.name === 'string' ? role.name : name,
        // Nailgun's normalisation: a plugin's roles disappear when the plugin is switched off.
        restrictions: [{ condition: `settings:${plugin.name}.metadata.enabled == false`, message: `enable the plugin ${plugin.title ?? plugin.name} to use this role` }, ...restrictions],
      };
      if (role.tags === undefined) {
        merged.tags = [name];
        if (!(name in tags) && !(name in plugin.tags)) tags[name] = { has_primary: role.has_primary === true };
      }
      roles[name] = merged;
      sources[name] = pluginLabel(plugin);
    }
    for (const [tag, meta] of Object.entries(plugin.tags)) {
      const owner = tagSources[tag];
      if (owner !== undefined && JSON.stringify(tags[tag]) !== JSON.stringify(meta)) {
        findings.push(finding('role/tag-redefined', 'warning', `tag '${tag}' is described by ${owner === 'release' ? 'the release' : `plugin ${owner}`} and differently by plugin ${pluginLabel(plugin)}; the plugin's wins`, file ? { file } : undefined));
      }
      tags[tag] = meta;
      tagSources[tag] = pluginLabel(plugin);
    }
  }
  return { roles, tags, sources, findings };
}
