/** Small server-wide facts kept in the database: the admin token, whether the bundled release was removed. */
import { type Queryable, json } from './database.js';

export const META_ADMIN_TOKEN = 'admin_token';
/** Set when the operator uninstalled the bundled default release, so it is not reinstalled at the next start. */
export const META_BUNDLED_RELEASE_REMOVED = 'bundled_release_removed';
/** Set once the first-start work (bundled release) has been done. */
export const META_INITIALISED = 'initialised';

export async function getMeta<T>(q: Queryable, key: string): Promise<T | undefined> {
  const rows = await q.query<{ value: T }>('SELECT value FROM hearth_meta WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function setMeta(q: Queryable, key: string, value: unknown): Promise<void> {
  await q.query('INSERT INTO hearth_meta (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [key, json(value)]);
}

/** Insert only when absent; returns the value that is stored afterwards (ours, or a racing server's). */
export async function setMetaIfAbsent<T>(q: Queryable, key: string, value: T): Promise<T> {
  await q.query('INSERT INTO hearth_meta (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [key, json(value)]);
  return (await getMeta<T>(q, key)) as T;
}

/**
 * Bumped in every transaction that changes plugins or releases, so servers can cache what they
 * compose from them (several servers on one PostgreSQL see each other's bumps).
 */
export const META_CATALOG_VERSION = 'catalog_version';

export async function bumpCatalogVersion(q: Queryable): Promise<void> {
  await q.query(
    `INSERT INTO hearth_meta (key, value) VALUES ($1, '1'::jsonb) ON CONFLICT (key) DO UPDATE SET value = to_jsonb((hearth_meta.value)::text::bigint + 1)`,
    [META_CATALOG_VERSION],
  );
}

export async function catalogVersion(q: Queryable): Promise<number> {
  return Number((await getMeta<number>(q, META_CATALOG_VERSION)) ?? 0);
}

/**
 * Bumped whenever a release is added, replaced or removed (store/releases.ts), so what was computed
 * against the installed releases (a plugin's release checks) knows when it is out of date.
 */
export const META_RELEASE_REVISION = 'release_revision';

export async function bumpReleaseRevision(q: Queryable): Promise<void> {
  await q.query(
    `INSERT INTO hearth_meta (key, value) VALUES ($1, '1'::jsonb) ON CONFLICT (key) DO UPDATE SET value = to_jsonb((hearth_meta.value)::text::bigint + 1)`,
    [META_RELEASE_REVISION],
  );
}

export async function releaseRevision(q: Queryable): Promise<number> {
  return Number((await getMeta<number>(q, META_RELEASE_REVISION)) ?? 0);
}
