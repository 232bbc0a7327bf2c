/** Releases: each row is a composed-ready `Release`, created by a release plugin (or imported). */
import type { Release } from '../core/release/model.js';
import { type Queryable, json } from './database.js';
import { bumpReleaseRevision } from './meta.js';

export interface ReleaseRecord {
  id: string;
  /** The release plugin that created it; uninstalling the plugin removes the release. */
  pluginId?: string;
  release: Release;
  createdAt: string;
}

interface Row {
  id: string;
  plugin_id: string | null;
  body: Release;
  created_at: Date | string;
}

function toRecord(r: Row): ReleaseRecord {
  const rec: ReleaseRecord = { id: r.id, release: { ...r.body, id: r.id }, createdAt: new Date(r.created_at).toISOString() };
  if (r.plugin_id !== null) rec.pluginId = r.plugin_id;
  return rec;
}

export async function listReleases(q: Queryable): Promise<ReleaseRecord[]> {
  return (await q.query<Row>('SELECT id, plugin_id, body, created_at FROM releases ORDER BY name, version, id')).map(toRecord);
}

export async function getRelease(q: Queryable, id: string): Promise<ReleaseRecord | undefined> {
  const rows = await q.query<Row>('SELECT id, plugin_id, body, created_at FROM releases WHERE id = $1', [id]);
  return rows[0] && toRecord(rows[0]);
}

export async function insertRelease(q: Queryable, release: Release, pluginId?: string): Promise<void> {
  await q.query('INSERT INTO releases (id, name, version, operating_system, plugin_id, body) VALUES ($1, $2, $3, $4, $5, $6::jsonb)', [
    release.id,
    release.name,
    release.version,
    release.operating_system ?? '',
    pluginId ?? null,
    json(release),
  ]);
  await bumpReleaseRevision(q);
}

export async function replaceRelease(q: Queryable, release: Release): Promise<void> {
  await q.query('UPDATE releases SET name = $2, version = $3, operating_system = $4, body = $5::jsonb WHERE id = $1', [release.id, release.name, release.version, release.operating_system ?? '', json(release)]);
  await bumpReleaseRevision(q);
}

export async function releasesOfPlugin(q: Queryable, pluginId: string): Promise<ReleaseRecord[]> {
  return (await q.query<Row>('SELECT id, plugin_id, body, created_at FROM releases WHERE plugin_id = $1 ORDER BY id', [pluginId])).map(toRecord);
}

export async function deleteRelease(q: Queryable, id: string): Promise<boolean> {
  const deleted = (await q.query('DELETE FROM releases WHERE id = $1 RETURNING id', [id])).length > 0;
  if (deleted) await bumpReleaseRevision(q);
  return deleted;
}

/** Environments using a release (a release cannot be removed while any does). */
export async function clustersUsingRelease(q: Queryable, id: string): Promise<Array<{ id: number; name: string }>> {
  return q.query('SELECT id, name FROM clusters WHERE release_id = $1 ORDER BY id', [id]);
}
