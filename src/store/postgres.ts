/** PostgreSQL through `pg`, for several Hearth servers sharing one database (DATABASE_URL). */
import pg from 'pg';
import { conflictFrom, conflictsAsErrors } from './conflicts.js';
import { PRESENCE_LOCK_SPACE, type Database, type Presence, type Queryable, StoreError, newPresenceId, quoteIdentifier } from './database.js';

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;
  constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
    private readonly url: string,
  ) {}

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return conflictsAsErrors(async () => (await this.pool.query(sql, params as unknown[])).rows as T[]);
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({
        query: async <R>(sql: string, params: readonly unknown[] = []) => (await client.query(sql, params as unknown[])).rows as R[],
        exec: async (sql: string) => void (await client.query(sql)),
      });
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      // A write that lost a race with another server or request (see conflicts.ts).
      throw conflictFrom(err) ?? err;
    } finally {
      client.release();
    }
  }

  private presenceClient: pg.Client | undefined;
  private me: Presence | undefined;

  /** A dedicated session holds this server's presence lock; PostgreSQL frees it when the server dies. */
  async presence(): Promise<Presence> {
    if (this.me) return this.me;
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => undefined);
    await client.connect();
    const id = newPresenceId();
    await client.query('SELECT pg_advisory_lock($1, $2)', [PRESENCE_LOCK_SPACE, id]);
    this.presenceClient = client;
    this.me = {
      id,
      alive: async (other) => {
        if (other === id) return true;
        const [row] = (await client.query<{ free: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS free', [PRESENCE_LOCK_SPACE, other])).rows;
        if (row?.free) await client.query('SELECT pg_advisory_unlock($1, $2)', [PRESENCE_LOCK_SPACE, other]);
        return !row?.free;
      },
    };
    return this.me;
  }

  async close(): Promise<void> {
    await this.presenceClient?.end().catch(() => undefined);
    await this.pool.end();
  }
}

export interface PostgresOptions {
  url: string;
  schema?: string;
  poolSize?: number;
}

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const schema = options.schema ? quoteIdentifier(options.schema) : undefined;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Each connection works in the chosen schema, so tests (and tenants) can share a database.
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  // An idle client's network error must not crash the server; the next query reports it.
  pool.on('error', () => undefined);
  try {
    // Two servers creating the schema at once may collide on the catalog; the loser sees it exists.
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch(() => pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`));
    else await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw new StoreError('store/open-failed', `cannot reach PostgreSQL at ${redact(options.url)}: ${(err as Error).message}`, 'Check DATABASE_URL and that the server is running.');
  }
  return new PostgresDatabase(pool, redact(options.url) + (options.schema ? ` (schema ${options.schema})` : ''), options.url);
}
