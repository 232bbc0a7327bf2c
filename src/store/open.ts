/** Opens the configured engine and brings its schema up to date. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './database.js';
import { migrate } from './migrate.js';

export interface StoreOptions {
  /** PostgreSQL URL (DATABASE_URL); when absent, embedded PGlite. */
  databaseUrl?: string;
  /** PGlite's folder; `memory` or undefined with `inMemory` for a throwaway database. */
  dataDir?: string;
  inMemory?: boolean;
  /** Work in this schema (tests give each their own). */
  schema?: string;
  /** Share an open PGlite (tests). */
  pgliteInstance?: PGlite;
}

/** `$XDG_DATA_HOME/hearth`, else `~/.local/share/hearth`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'hearth');
}

export async function openStore(options: StoreOptions): Promise<Database> {
  let db: Database;
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    db = await openPostgres({ url: options.databaseUrl, schema: options.schema });
  } else {
    const { openPglite } = await import('./pglite.js');
    db = await openPglite({
      dataDir: options.inMemory || options.pgliteInstance ? undefined : (options.dataDir ?? defaultDataDir()),
      instance: options.pgliteInstance,
      schema: options.schema,
    });
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  return db;
}
