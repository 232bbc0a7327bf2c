/**
 * Node roles and volumes: misspelt role keys (`concflicts`), volumes mapped to roles that exist
 * nowhere, roles without a volumes mapping, volume ids and size generators Fuel does not know,
 * and the restriction expressions of roles and settings.
 */
import { FUEL_GENERATORS } from '../../core/disks/index.js';
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { checkKnownKeys } from './keys.js';
import { closestNames, closestSuffix } from './spelling.js';
import { reportExpression } from './tasks.js';
import { CORE_ROLES, isMapping, type ValidationContext } from './context.js';
import { checkVolumeSizes } from './volume-sizes.js';

const ROLE_KEYS = [
  'name', 'description', 'conflicts', 'limits', 'restrictions', 'has_primary', 'public_ip_required', 'public_for_dvr_required',
  'update_required', 'update_once', 'weight', 'tags', 'fault_tolerance', 'group', 'tasks', 'roles_metadata',
];

/** Nailgun's volume size generators (volume_manager.call_generator), the ones core/disks computes. */
export const SIZE_GENERATORS: ReadonlySet<string> = new Set(FUEL_GENERATORS);
/** Volume ids of Fuel's core release (openstack.yaml), known when no release is given. */
const CORE_VOLUMES = ['os', 'logs', 'mongo', 'ceph', 'cephjournal', 'mysql', 'vm', 'image', 'horizon', 'cinder', 'cinder-block-device'];

export function checkRolesAndVolumes(ctx: ValidationContext): void {
  const { plugin, findings } = ctx;
  const nodeRoles = isMapping(plugin.files.node_roles) && ctx.major >= 3 ? plugin.files.node_roles : {};
  const rolesFile = plugin.filePaths.node_roles ?? 'node_roles.yaml';
  for (const [name, meta] of Object.entries(nodeRoles)) {
    if (!isMapping(meta)) continue;
    checkKnownKeys(ctx, meta, ROLE_KEYS, `role '${name}' in ${rolesFile}`);
    checkRestrictions(ctx, meta.restrictions, `role '${name}'`);
    checkConflicts(ctx, name, meta, nodeRoles);
    if (isMapping(meta.limits)) {
      for (const key of ['min', 'max', 'recommended']) {
        if (typeof meta.limits[key] === 'string') reportExpression(findings, meta.limits[key] as string, positionOf(meta.limits, key), `role '${name}': limits.${key}`);
      }
      if (typeof meta.limits.condition === 'string') reportExpression(findings, meta.limits.condition, positionOf(meta.limits, 'condition'), `role '${name}': limits.condition`);
      if (Array.isArray(meta.limits.overrides)) {
        for (const o of meta.limits.overrides) if (isMapping(o) && typeof o.condition === 'string') reportExpression(findings, o.condition, positionOf(o, 'condition'), `role '${name}': limits override condition`);
      }
    }
  }
  const volumes = ctx.major >= 3 ? plugin.files.volumes : undefined;
  const records = recordRoleFiles(ctx);
  const releaseRoles = ctx.release ? Object.keys(ctx.release.roles_metadata ?? {}) : CORE_ROLES;
  // A role a release record defines in its own node_roles file is a role of the plugin there
  // (issue 28 item 18): the top-level volumes.yaml may map it, and its layout may be in the record's.
  const recordRoles = records.flatMap((r) => Object.keys(r.roles ?? {}));
  for (const r of records) {
    if (!r.volumes) continue;
    const roles = new Set([...Object.keys(r.roles ?? nodeRoles), ...releaseRoles]);
    reportUnknownMapped(ctx, r.volumes.mapping, roles, r.volumes.file);
  }
  if (!isMapping(volumes)) return;
  const volumesFile = plugin.filePaths.volumes ?? 'volumes.yaml';
  const mapping = isMapping(volumes.volumes_roles_mapping) ? volumes.volumes_roles_mapping : {};
  const known = new Set([...Object.keys(nodeRoles), ...recordRoles, ...releaseRoles]);
  reportUnknownMapped(ctx, mapping, known, volumesFile, Object.keys(nodeRoles));
  const mappedElsewhere = new Set(records.flatMap((r) => Object.keys(r.volumes?.mapping ?? {})));
  for (const role of Object.keys(nodeRoles)) {
    if (role in mapping || mappedElsewhere.has(role)) continue;
    findings.push(
      finding('volumes/role-without-mapping', 'warning', `role '${role}' has no entry in ${volumesFile}'s volumes_roles_mapping, so a node with only this role gets the release's 'other' layout (Fuel 9.0)`, keyPositionOf(nodeRoles, role), `add '${role}: [{id: os, allocate_size: min}]' (and its own volumes) to volumes_roles_mapping`),
    );
  }
  const pluginVolumes = Array.isArray(volumes.volumes) ? volumes.volumes.filter(isMapping) : [];
  const volumeIds = new Set<string>([
    ...pluginVolumes.map((v) => String(v.id)),
    ...(ctx.release ? (ctx.release.volumes_metadata?.volumes ?? []).map((v) => v.id) : CORE_VOLUMES),
  ]);
  for (const [role, list] of Object.entries(mapping)) {
    if (!Array.isArray(list)) continue;
    list.forEach((entry, i) => {
      if (!isMapping(entry) || typeof entry.id !== 'string' || volumeIds.has(entry.id)) return;
      findings.push(finding('volumes/unknown-volume', 'warning', `role '${role}' is given volume '${entry.id}', which is defined neither in ${volumesFile} nor in the release`, positionOf(list, i), 'define the volume under volumes:, or fix its id'));
    });
  }
  for (const volume of pluginVolumes) checkGenerators(ctx, volume, `volume '${String(volume.id)}'`);
  checkVolumeSizes(ctx, pluginVolumes, mapping, volumesFile);
}

interface RecordRoleFiles {
  /** The record's own node_roles (undefined: it reads the top-level file). */
  roles?: Record<string, unknown>;
  volumes?: { mapping: Record<string, unknown>; file: string };
}

/** Package 5.0.0 release records with their own node_roles or volumes file (`*_path`, `conf_path`). */
function recordRoleFiles(ctx: ValidationContext): RecordRoleFiles[] {
  if (ctx.major < 5) return [];
  const out: RecordRoleFiles[] = [];
  for (const record of ctx.plugin.releases) {
    if (record.isRelease) continue;
    const roles = record.resolved.node_roles;
    const volumes = record.resolved.volumes;
    const entry: RecordRoleFiles = {};
    if (isMapping(roles)) entry.roles = roles;
    if (isMapping(volumes) && isMapping(volumes.volumes_roles_mapping)) {
      entry.volumes = { mapping: volumes.volumes_roles_mapping, file: positionOf(volumes)?.file ?? `releases[${record.index}].volumes` };
    }
    if (entry.roles || entry.volumes) out.push(entry);
  }
  return out;
}

function reportUnknownMapped(ctx: ValidationContext, mapping: Record<string, unknown>, known: Set<string>, volumesFile: string, pluginRoles: string[] = []): void {
  for (const role of Object.keys(mapping)) {
    if (known.has(role)) continue;
    ctx.findings.push(
      finding(
        'volumes/unknown-role',
        'warning',
        `${volumesFile} maps volumes for '${role}', a role that neither the plugin nor ${ctx.release ? `release ${ctx.release.name}` : "Fuel's core roles"} define${closestSuffix(role, known)}`,
        keyPositionOf(mapping, role),
        pluginRoles.length ? `did you mean one of: ${pluginRoles.join(', ')}?` : 'fix the role name',
      ),
    );
  }
}

function checkGenerators(ctx: ValidationContext, node: unknown, label: string, depth = 0): void {
  if (depth > 20) return;
  if (Array.isArray(node)) {
    for (const item of node) checkGenerators(ctx, item, label, depth + 1);
    return;
  }
  if (!isMapping(node)) return;
  if (typeof node.generator === 'string' && !SIZE_GENERATORS.has(node.generator)) {
    ctx.findings.push(
      finding('volumes/unknown-generator', 'warning', `${label} uses the size generator '${node.generator}', which Fuel does not have`, positionOf(node, 'generator'), `use one of: ${[...SIZE_GENERATORS].slice(0, 8).join(', ')}, ...`),
    );
  }
  for (const value of Object.values(node)) checkGenerators(ctx, value, label, depth + 1);
}

/** Restrictions: a string, `{condition, message, action}`, or the short `{condition: message}`. */
export function checkRestrictions(ctx: ValidationContext, restrictions: unknown, label: string): void {
  if (!Array.isArray(restrictions)) return;
  restrictions.forEach((r, i) => {
    if (typeof r === 'string') reportExpression(ctx.findings, r, positionOf(restrictions, i), `${label}: restriction`);
    else if (isMapping(r)) {
      if (typeof r.condition === 'string') reportExpression(ctx.findings, r.condition, positionOf(r, 'condition'), `${label}: restriction`);
      else if (r.condition === undefined && Object.keys(r).length === 1) {
        const key = Object.keys(r)[0];
        reportExpression(ctx.findings, key, keyPositionOf(r, key), `${label}: restriction`);
      }
    }
  });
}

/** Restrictions in environment_config.yaml and the node/NIC/bond attribute files. */
export function checkSettingsRestrictions(ctx: ValidationContext): void {
  const env = ctx.plugin.files.environment_config;
  if (isMapping(env) && isMapping(env.attributes)) {
    for (const [name, attr] of Object.entries(env.attributes)) {
      if (!isMapping(attr)) continue;
      checkRestrictions(ctx, attr.restrictions, `setting '${name}'`);
      if (Array.isArray(attr.values)) {
        for (const v of attr.values) if (isMapping(v)) checkRestrictions(ctx, v.restrictions, `setting '${name}' value '${String(v.data)}'`);
      }
    }
  }
  if (ctx.major < 5) return;
  for (const key of ['node_config', 'nic_config', 'bond_config']) {
    const data = ctx.plugin.files[key];
    if (!isMapping(data)) continue;
    const visit = (node: Record<string, unknown>, label: string, depth: number) => {
      checkRestrictions(ctx, node.restrictions, label);
      if (depth > 1) return;
      for (const [name, child] of Object.entries(node)) if (isMapping(child)) visit(child, `${label}.${name}`, depth + 1);
    };
    visit(data, key, 0);
  }
}

/** `conflicts` naming a role that exists nowhere protects against nothing (often a typo). */
function checkConflicts(ctx: ValidationContext, name: string, meta: Record<string, unknown>, nodeRoles: Record<string, unknown>): void {
  const conflicts = meta.conflicts;
  if (!Array.isArray(conflicts)) return;
  const known = new Set([...Object.keys(nodeRoles), ...(ctx.release ? Object.keys(ctx.release.roles_metadata ?? {}) : CORE_ROLES)]);
  conflicts.forEach((other, i) => {
    if (typeof other !== 'string' || known.has(other)) return;
    ctx.findings.push(
      finding(
        'role/unknown-conflict',
        'warning',
        `role '${name}' conflicts with '${other}', a role that neither the plugin nor ${ctx.release ? `release ${ctx.release.name}` : "Fuel's core roles"} define${closestSuffix(other, known)}`,
        positionOf(conflicts, i),
        closestNames(other, known).length ? `did you mean ${closestNames(other, known).map((n) => `'${n}'`).join(' or ')}? (a role of another plugin counts only when that plugin is installed)` : 'fix the role name (a role of another plugin counts only when that plugin is installed)',
      ),
    );
  });
}
