/**
 * Roles added through the API (issue 28 item 12): Nailgun's role API (`POST /releases/{id}/roles`,
 * `PUT/DELETE /releases/{id}/roles/{name}`, and the same on an environment). A role is Nailgun's
 * `{name, meta, volumes_roles_mapping}`; once added it is a role like the release's own: nodes take
 * it, its disk layout comes from its volumes mapping, and tasks naming it run on its nodes. Stored
 * apart from the release (store/custom-roles.ts), merged in where the release is read.
 */
import type { Release, RoleMetadata } from '../../core/release/model.js';
import * as store from '../../store/index.js';
import { HttpError } from '../errors.js';

/** The body, as Nailgun's role schema has it (validators/json_schema/role.py). */
export interface RoleBody {
  name: string;
  meta: Record<string, unknown> & { name: string; description: string; tags: string[] };
  volumes_roles_mapping: Array<{ id: string; allocate_size: 'all' | 'min' | 'full-disk' }>;
}

/** The release with these roles added: roles, their tags (own-name tags made), their disk layouts. */
export function withCustomRoles(release: Release, roles: readonly store.CustomRoleRecord[]): Release {
  if (!roles.length) return release;
  const roles_metadata = { ...release.roles_metadata };
  const tags_metadata = { ...release.tags_metadata };
  const mapping = { ...release.volumes_metadata.volumes_roles_mapping };
  for (const r of roles) {
    roles_metadata[r.name] = r.meta as unknown as RoleMetadata;
    for (const tag of (r.meta.tags as string[] | undefined) ?? []) if (!Object.hasOwn(tags_metadata, tag)) tags_metadata[tag] = { has_primary: r.meta.has_primary === true };
    mapping[r.name] = r.volumes.map((v) => ({ ...v }));
  }
  return { ...release, roles_metadata, tags_metadata, volumes_metadata: { ...release.volumes_metadata, volumes_roles_mapping: mapping } };
}

/** Nailgun's checks beyond the schema: tags the release knows (or the role's own name), volumes it defines. */
export function checkRole(body: RoleBody, release: Pick<Release, 'tags_metadata' | 'volumes_metadata'>): void {
  const unknownTags = body.meta.tags.filter((t) => t !== body.name && !Object.hasOwn(release.tags_metadata, t));
  if (unknownTags.length) {
    throw new HttpError(400, 'role/unknown-tag', `role ${body.name}: meta.tags names tags the release does not define: ${unknownTags.join(', ')}`, { hint: `use the release's tags (${Object.keys(release.tags_metadata).join(', ')}) or the role's own name` });
  }
  const allowed = release.volumes_metadata.volumes.map((v) => v.id);
  const missing = body.volumes_roles_mapping.map((v) => v.id).filter((id) => !allowed.includes(id));
  if (missing.length) {
    throw new HttpError(400, 'role/unknown-volume', `role ${body.name}: volumes_roles_mapping names volumes the release does not define: ${missing.join(', ')}`, { hint: `volumes it defines: ${allowed.join(', ')}` });
  }
}

export const recordOf = (body: RoleBody): store.CustomRoleRecord => ({ name: body.name, meta: body.meta, volumes: body.volumes_roles_mapping });

/** Nailgun's answer for a role. */
export const roleAnswer = (r: store.CustomRoleRecord) => ({ name: r.name, meta: r.meta, volumes_roles_mapping: r.volumes });

/** A role of this owner added through the API, or 404 / 409 (a role the release or a plugin defines is changed in its files). */
export async function customRoleOr404(q: store.Queryable, owner: store.RoleOwner, name: string, known: Record<string, unknown>, where: string): Promise<store.CustomRoleRecord> {
  const own = (await store.customRoles(q, owner)).find((r) => r.name === name);
  if (own) return own;
  if (Object.hasOwn(known, name)) throw new HttpError(409, 'role/not-custom', `role ${name} of ${where} comes from its release or a plugin, not from this API`, { hint: "change it in the release's or plugin's files, then sync or install them" });
  throw new HttpError(404, 'role/not-found', `${where} has no role '${name}' added through the API`, { hint: 'GET its roles to list them' });
}

/** Deleting a role a node holds is refused, naming the nodes (Nailgun: "Can't delete role ... assigned to node"). */
export async function refuseIfHeld(q: store.Queryable, owner: store.RoleOwner, name: string): Promise<void> {
  const holders = await store.nodesHoldingRole(q, owner, name);
  if (!holders.length) return;
  const names = holders.slice(0, 10).map((n) => `${n.name} (${n.cluster})`).join(', ');
  throw new HttpError(409, 'role/in-use', `role ${name} is held by node${holders.length === 1 ? '' : 's'} ${names}${holders.length > 10 ? ` and ${holders.length - 10} more` : ''}`, { nodes: holders, hint: 'take the role off those nodes first' });
}
