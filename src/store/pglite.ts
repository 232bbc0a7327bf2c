/**
 * Embedded PostgreSQL (PGlite) in a data folder. PGlite is one process's database: a second
 * server on the same folder would corrupt it, so a lock file with the owner's pid guards it, and a
 * lock left by a killed process (its pid is gone) is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { conflictsAsErrors } from './conflicts.js';
import { type Database, type Presence, type Queryable, StoreError, newPresenceId, quoteIdentifier } from './database.js';

const LOCK_FILE = 'hearth-server.lock';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function takeLock(dataDir: string): string {
  const lockPath = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return lockPath;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StoreError('store/data-dir-unwritable', `cannot write to the data folder ${dataDir}: ${(err as Error).message}`, 'Choose a writable folder with --data-dir.');
      }
      const owner = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(owner) && (owner === process.pid || processAlive(owner))) {
        throw new StoreError(
          'store/data-dir-in-use',
          `another Hearth server (pid ${owner}) is using the data folder ${dataDir}`,
          'Stop that server, or start this one with another --data-dir; to share one database between servers, use PostgreSQL (DATABASE_URL).',
        );
      }
      rmSync(lockPath, { force: true }); // stale: its owner is gone
    }
  }
  throw new StoreError('store/data-dir-in-use', `could not lock the data folder ${dataDir}`);
}

class PgliteDatabase implements Database {
  readonly engine = 'pglite' as const;
  private closed = false;
  constructor(
    private readonly pg: PGlite,
    readonly location: string,
    private readonly lockPath: string | undefined,
    private readonly ownsInstance: boolean,
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
    const id = newPresenceId();
    this.me ??= { id, alive: async (other) => other === id };
    return this.me;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsInstance) await this.pg.close();
    if (this.lockPath) rmSync(this.lockPath, { force: true });
  }
}

export interface PgliteOptions {
  /** A folder, or undefined for an in-memory database (tests). */
  dataDir?: string;
  /** Use an already open PGlite (tests share one per file, with a schema each). */
  instance?: PGlite;
  schema?: string;
}

export async function openPglite(options: PgliteOptions): Promise<Database> {
  let lockPath: string | undefined;
  let pg = options.instance;
  const location = options.dataDir ?? 'memory';
  if (!pg) {
    if (options.dataDir) {
      try {
        mkdirSync(options.dataDir, { recursive: true });
      } catch (err) {
        throw new StoreError('store/data-dir-unwritable', `cannot create the data folder ${options.dataDir}: ${(err as Error).message}`, 'Choose a writable folder with --data-dir.');
      }
      lockPath = takeLock(options.dataDir);
    }
    try {
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
  return new PgliteDatabase(pg, options.schema ? `${location} (schema ${options.schema})` : location, lockPath, !options.instance);
}
