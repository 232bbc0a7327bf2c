/** Opens the configured engine and brings its schema up to date. */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './database.js';
import { migrate } from './migrate.js';
import { claimDataFolder } from './lock.js';

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
  /** The data folder's lock, already taken by the caller (claimDataFolder). */
  lockPath?: string;
  /**
   * PGlite in a data folder runs in a thread of its own (pglite-thread.ts): a server's request
   * thread then never waits while PostgreSQL starts or runs a query.
   */
  thread?: boolean;
}

/** `$XDG_DATA_HOME/hearth`, else `~/.local/share/hearth`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/') ? env.XDG_DATA_HOME : join(homedir(), '.local', 'share');
  return join(base, 'hearth');
}

export async function openStore(options: StoreOptions): Promise<Database> {
  let db: Database;
  let script: string | undefined;
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    db = await openPostgres({ url: options.databaseUrl, schema: options.schema });
  } else if (options.thread && options.dataDir && !options.inMemory && !options.pgliteInstance && (script = (await import('./pglite-thread.js')).pgliteWorkerScript())) {
    const { openPgliteThread } = await import('./pglite-thread.js');
    db = await openPgliteThread(script, options.dataDir, options.lockPath ?? claimDataFolder(options.dataDir));
  } else {
    const { openPglite } = await import('./pglite.js');
    db = await openPglite({
      dataDir: options.inMemory || options.pgliteInstance ? undefined : (options.dataDir ?? defaultDataDir()),
      instance: options.pgliteInstance,
      schema: options.schema,
      ...(options.lockPath ? { lockPath: options.lockPath } : {}),
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
