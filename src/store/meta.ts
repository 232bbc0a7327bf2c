/** Small server-wide facts kept in the database: the admin token, whether the bundled release was removed. */
import { type Database, type Queryable, json } from './database.js';

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

/**
 * Bumps this process has made, to any database. An embedded database (PGlite) has one process
 * writing to it (its folder is locked), so the catalog version read from it stays true until this
 * process bumps it again: the version is remembered with this count and read again once the count
 * moved. (A read that starts while a bumping transaction is open waits for it: PGlite runs a query
 * only between transactions.) PostgreSQL may be written by other servers: it is always asked.
 */
let bumps = 0;
const remembered = new WeakMap<Queryable, { version: number; bumps: number }>();

/** Forget remembered catalog versions (after writing the meta table other than by a bump: an import). */
export function forgetCatalogVersions(): void {
  bumps++;
}

export async function bumpCatalogVersion(q: Queryable): Promise<void> {
  bumps++;
  await q.query(
    `INSERT INTO hearth_meta (key, value) VALUES ($1, '1'::jsonb) ON CONFLICT (key) DO UPDATE SET value = to_jsonb((hearth_meta.value)::text::bigint + 1)`,
    [META_CATALOG_VERSION],
  );
}

export async function catalogVersion(q: Queryable): Promise<number> {
  // Only a whole PGlite database is remembered, never a transaction (which may have bumped it itself).
  const sole = (q as Partial<Database>).engine === 'pglite';
  const known = sole ? remembered.get(q) : undefined;
  if (known && known.bumps === bumps) return known.version;
  const at = bumps;
  const version = Number((await getMeta<number>(q, META_CATALOG_VERSION)) ?? 0);
  if (sole) remembered.set(q, { version, bumps: at });
  return version;
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
