/** Installed plugins: several versions of one name side by side, each row the loaded plugin as JSON. */
import type { LoadedPlugin } from '../package/plugin/model.js';
import { type Queryable, json } from './database.js';
import { bumpReleaseRevision } from './meta.js';

export type PluginSourceKind = 'package' | 'folder' | 'bundled';

export interface PluginRecord {
  id: string;
  name: string;
  version: string;
  packageVersion: string;
  title?: string;
  description?: string;
  isRelease: boolean;
  sourceKind: PluginSourceKind;
  /** The registered folder (kind `folder`) or the bundled folder; absent for uploaded packages. */
  sourcePath?: string;
  loaded: LoadedPlugin;
  installedAt: string;
  syncedAt: string;
}

interface Row {
  id: string;
  name: string;
  version: string;
  package_version: string;
  title: string | null;
  description: string | null;
  is_release: boolean;
  source_kind: PluginSourceKind;
  source_path: string | null;
  loaded: LoadedPlugin;
  installed_at: Date | string;
  synced_at: Date | string;
}

const iso = (v: Date | string): string => (v instanceof Date ? v.toISOString() : new Date(v).toISOString());

function toRecord(r: Row): PluginRecord {
  const rec: PluginRecord = {
    id: r.id,
    name: r.name,
    version: r.version,
    packageVersion: r.package_version,
    isRelease: r.is_release,
    sourceKind: r.source_kind,
    loaded: r.loaded,
    installedAt: iso(r.installed_at),
    syncedAt: iso(r.synced_at),
  };
  if (r.title !== null) rec.title = r.title;
  if (r.description !== null) rec.description = r.description;
  if (r.source_path !== null) rec.sourcePath = r.source_path;
  return rec;
}

export const pluginId = (name: string, version: string): string => `${name}@${version}`;

/** Extension plugins only (not release plugins), which is what composition needs. */
export async function listExtensionPlugins(q: Queryable): Promise<PluginRecord[]> {
  return (await q.query<Row>('SELECT * FROM plugins WHERE NOT is_release ORDER BY name, version')).map(toRecord);
}

export async function listPlugins(q: Queryable, name?: string): Promise<PluginRecord[]> {
  const rows = name
    ? await q.query<Row>('SELECT * FROM plugins WHERE name = $1 ORDER BY name, version', [name])
    : await q.query<Row>('SELECT * FROM plugins ORDER BY name, version');
  return rows.map(toRecord);
}

/**
 * One page of listPlugins, in its order (name, version) read from the key: the plugins after
 * plugin `after` (which must be in the list: `undefined` when it is not), at most `limit`.
 */
export async function pageOfPlugins(q: Queryable, name: string | undefined, page: { after?: string; limit?: number }): Promise<PluginRecord[] | undefined> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (name !== undefined) where.push(`name = $${params.push(name)}`);
  if (page.after !== undefined) {
    const marker = await q.query<{ name: string; version: string }>(`SELECT name, version FROM plugins WHERE ${[...where, `id = $${params.length + 1}`].join(' AND ')}`, [...params, page.after]);
    if (!marker.length) return undefined;
    where.push(`(name, version) > ($${params.push(marker[0].name)}, $${params.push(marker[0].version)})`);
  }
  const limit = page.limit !== undefined ? ` LIMIT $${params.push(page.limit)}` : '';
  return (await q.query<Row>(`SELECT * FROM plugins${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY name, version${limit}`, params)).map(toRecord);
}

export async function getPlugin(q: Queryable, id: string): Promise<PluginRecord | undefined> {
  const rows = await q.query<Row>('SELECT * FROM plugins WHERE id = $1', [id]);
  return rows[0] && toRecord(rows[0]);
}

export async function insertPlugin(q: Queryable, p: Omit<PluginRecord, 'installedAt' | 'syncedAt'>): Promise<void> {
  await q.query(
    `INSERT INTO plugins (id, name, version, package_version, title, description, is_release, source_kind, source_path, loaded)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb)`,
    [p.id, p.name, p.version, p.packageVersion, p.title ?? null, p.description ?? null, p.isRelease, p.sourceKind, p.sourcePath ?? null, json(p.loaded)],
  );
}

export async function updatePluginLoaded(q: Queryable, id: string, loaded: LoadedPlugin, fields: { title?: string; description?: string; isRelease: boolean; packageVersion: string }): Promise<void> {
  await q.query('UPDATE plugins SET loaded = $2::jsonb, title = $3, description = $4, is_release = $5, package_version = $6, synced_at = now() WHERE id = $1', [
    id,
    json(loaded),
    fields.title ?? null,
    fields.description ?? null,
    fields.isRelease,
    fields.packageVersion,
  ]);
}

export async function deletePlugin(q: Queryable, id: string): Promise<boolean> {
  const definesReleases = (await q.query('SELECT 1 FROM releases WHERE plugin_id = $1 LIMIT 1', [id])).length > 0;
  const rows = await q.query<{ id: string }>('DELETE FROM plugins WHERE id = $1 RETURNING id', [id]);
  // Its releases went with it (ON DELETE CASCADE): what was computed against them is out of date.
  if (rows.length > 0 && definesReleases) await bumpReleaseRevision(q);
  return rows.length > 0;
}
