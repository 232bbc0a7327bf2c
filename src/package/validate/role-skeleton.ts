/**
 * The role-as-a-plugin design's node_roles.yaml skeleton wraps a role's fields in `metadata:` and
 * puts its disk layout beside them as `volumes_mapping:`. Fuel 9.0 never read that shape: its
 * loader took each role's mapping as the role's metadata (so `name` and `description` were
 * missing) and read the layout only from volumes.yaml's `volumes_roles_mapping`. The author is
 * told what to change at the role's `metadata:` line, instead of the schema's "missing 'name'".
 */
import { finding, type Finding } from '../../core/findings.js';
import { copyPositions, keyPositionOf } from '../../core/positions.js';
import { isMapping } from './context.js';

/** A role written as the design's skeleton: `metadata:` a mapping, and no `name` of its own. */
export const isWrappedRole = (meta: unknown): meta is Record<string, unknown> & { metadata: Record<string, unknown> } =>
  isMapping(meta) && isMapping(meta.metadata) && meta.name === undefined;

/**
 * One finding per wrapped role, and node_roles without those roles for the schema to check (the
 * roles written flat are still checked; positions are kept).
 */
export function wrappedRoles(nodeRoles: unknown, rolesFile: string, volumesFile: string): { findings: Finding[]; rest: unknown } {
  if (!isMapping(nodeRoles)) return { findings: [], rest: nodeRoles };
  const findings: Finding[] = [];
  const rest: Record<string, unknown> = {};
  for (const [name, meta] of Object.entries(nodeRoles)) {
    if (!isWrappedRole(meta)) {
      rest[name] = meta;
      continue;
    }
    const mapping = Array.isArray(meta.volumes_mapping);
    findings.push(
      finding(
        'role/metadata-wrapper',
        'error',
        `role '${name}' in ${rolesFile} wraps its fields in 'metadata:'${mapping ? " and carries 'volumes_mapping:'" : ''}, the role-as-a-plugin design's skeleton; Fuel 9.0 reads a role's fields directly under its name (so it finds no 'name' or 'description' here)${mapping ? ` and its disk layout only from ${volumesFile}` : ''}`,
        keyPositionOf(meta, 'metadata') ?? keyPositionOf(nodeRoles, name),
        `flatten the role: move the keys under 'metadata:' up to '${name}:' and delete 'metadata:'${mapping ? `; move the 'volumes_mapping:' list to ${volumesFile} as 'volumes_roles_mapping: {${name}: [...]}'` : ''}`,
      ),
    );
  }
  if (findings.length === 0) return { findings, rest: nodeRoles };
  copyPositions(nodeRoles, rest);
  return { findings, rest };
}
