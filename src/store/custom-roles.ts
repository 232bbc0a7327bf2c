/** Roles added through the API to a release or an environment (issue 28 item 12; migration 15). */
import { json, type Queryable } from './database.js';

/** Whose role it is: a release's (every environment on it) or one environment's. */
export type RoleOwner = { releaseId: string } | { clusterId: number };

export interface CustomRoleRecord {
  name: string;
  /** Nailgun's role meta (name, description, tags, limits, restrictions, ...). */
  meta: Record<string, unknown>;
  /** The role's disk layout: volumes_roles_mapping. */
  volumes: Array<{ id: string; allocate_size: string }>;
}

const where = (owner: RoleOwner) => ('releaseId' in owner ? { column: 'release_id', value: owner.releaseId as string | number } : { column: 'cluster_id', value: owner.clusterId });

export async function customRoles(q: Queryable, owner: RoleOwner): Promise<CustomRoleRecord[]> {
  const w = where(owner);
  return q.query<CustomRoleRecord>(`SELECT name, meta, volumes FROM custom_roles WHERE ${w.column} = $1 ORDER BY id`, [w.value]);
}

/** The names of the roles added to each release, by release id (GET /releases lists them with the release's own). */
export async function releaseCustomRoleNames(q: Queryable): Promise<Map<string, string[]>> {
  const rows = await q.query<{ release_id: string; name: string }>('SELECT release_id, name FROM custom_roles WHERE release_id IS NOT NULL ORDER BY id');
  const names = new Map<string, string[]>();
  for (const r of rows) names.set(r.release_id, [...(names.get(r.release_id) ?? []), r.name]);
  return names;
}

export async function saveCustomRole(q: Queryable, owner: RoleOwner, role: CustomRoleRecord): Promise<void> {
  const w = where(owner);
  const updated = await q.query(`UPDATE custom_roles SET meta = $3::jsonb, volumes = $4::jsonb WHERE ${w.column} = $1 AND name = $2 RETURNING id`, [w.value, role.name, json(role.meta), json(role.volumes)]);
  if (!updated.length) await q.query(`INSERT INTO custom_roles (${w.column}, name, meta, volumes) VALUES ($1, $2, $3::jsonb, $4::jsonb)`, [w.value, role.name, json(role.meta), json(role.volumes)]);
}

export async function deleteCustomRole(q: Queryable, owner: RoleOwner, name: string): Promise<void> {
  const w = where(owner);
  await q.query(`DELETE FROM custom_roles WHERE ${w.column} = $1 AND name = $2`, [w.value, name]);
}

/** Nodes holding `role` (deployed or pending): of one environment, or of every environment on a release. */
export async function nodesHoldingRole(q: Queryable, owner: RoleOwner, role: string): Promise<Array<{ id: number; name: string; cluster: string }>> {
  const w = 'releaseId' in owner ? 'c.release_id = $1' : 'c.id = $1';
  return q.query(
    `SELECT n.id, n.name, c.name AS cluster FROM nodes n JOIN clusters c ON c.id = n.cluster_id WHERE ${w} AND (n.roles @> jsonb_build_array($2::text) OR n.pending_roles @> jsonb_build_array($2::text)) ORDER BY n.id`,
    ['releaseId' in owner ? owner.releaseId : owner.clusterId, role],
  );
}
