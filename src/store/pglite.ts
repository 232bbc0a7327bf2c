/**
 * Embedded PostgreSQL (PGlite) in a data folder. PGlite is one process's database, so the folder
 * is locked while it is open (lock.ts says how).
 */
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { conflictsAsErrors } from './conflicts.js';
import { type Database, type Presence, type Queryable, StoreError, quoteIdentifier, soleProcessPresence } from './database.js';
import { claimDataFolder } from './lock.js';
import { keepNewFilesPrivate, securePrivateTree } from './private-files.js';

export { lockDataFolder } from './lock.js';

class PgliteDatabase implements Database {
  readonly engine = 'pglite' as const;
  private closed = false;
  constructor(
    private readonly pg: PGlite,
    readonly location: string,
    private readonly lockPath: string | undefined,
    private readonly ownsInstance: boolean,
    private readonly dataDir?: string,
  ) {}

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return conflictsAsErrors(async () => (await this.pg.query<T>(sql, params as unknown[])).rows);
  }

  async exec(sql: string): Promise<void> {
    await this.pg.exec(sql);
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return conflictsAsErrors(() =>
      this.pg.transaction((tx) =>
        work({
          query: async <R>(sql: string, params: readonly unknown[] = []) => (await tx.query<R>(sql, params as unknown[])).rows,
          exec: async (sql: string) => void (await tx.exec(sql)),
        }),
      ),
    );
  }

  private me: Presence | undefined;
  /** One process per data folder: any other owner is a server that is gone. */
  async presence(): Promise<Presence> {
    this.me ??= soleProcessPresence();
    return this.me;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsInstance) await this.pg.close();
    // What PGlite wrote is private already (keepNewFilesPrivate); this is the check of it.
    if (this.lockPath && this.dataDir) {
      try {
        securePrivateTree(this.dataDir);
      } catch {
        // found again, and refused or repaired, at the next start
      }
    }
    if (this.lockPath) rmSync(this.lockPath, { force: true });
  }
}

export interface PgliteOptions {
  /** A folder, or undefined for an in-memory database (tests). */
  dataDir?: string;
  /** Use an already open PGlite (tests share one per file, with a schema each). */
  instance?: PGlite;
  schema?: string;
  /** The data folder's lock, when the caller took it (claimDataFolder); it is released on close. */
  lockPath?: string;
}

export async function openPglite(options: PgliteOptions): Promise<Database> {
  let lockPath: string | undefined;
  let pg = options.instance;
  const location = options.dataDir ?? 'memory';
  if (!pg) {
    // A caller that listens before the database opens (start.ts) has taken the lock already.
    if (options.dataDir) lockPath = options.lockPath ?? claimDataFolder(options.dataDir);
    try {
      if (options.dataDir) {
        // Its files hold the admin token and the SSH private key (private-files.ts).
        const pgdata = join(options.dataDir, 'pgdata');
        mkdirSync(pgdata, { recursive: true, mode: 0o700 });
        chmodSync(pgdata, 0o700);
        keepNewFilesPrivate(pgdata);
      }
      pg = await PGlite.create(options.dataDir ? join(options.dataDir, 'pgdata') : 'memory://');
    } catch (err) {
      if (lockPath) rmSync(lockPath, { force: true });
      throw new StoreError('store/open-failed', `cannot open the embedded database in ${location}: ${(err as Error).message}`, 'Check the folder is writable and not damaged.');
    }
  }
  if (options.schema) {
    const schema = quoteIdentifier(options.schema);
    await pg.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}`);
  }
  return new PgliteDatabase(pg, options.schema ? `${location} (schema ${options.schema})` : location, lockPath, !options.instance, options.dataDir);
}
