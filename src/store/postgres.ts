/** PostgreSQL through `pg`, for several Hearth servers sharing one database (DATABASE_URL). */
import pg from 'pg';
import { conflictFrom, conflictsAsErrors } from './conflicts.js';
import { PRESENCE_LOCK_SPACE, type ChangeFeed, type Database, type Presence, type Queryable, StoreError, newPresenceId, quoteIdentifier } from './database.js';

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

/** The one channel of every Hearth announcement; its payload is `<schema>:<topic>`, so schemas sharing a database keep apart. */
const CHANNEL = 'hearth_changes';

/**
 * A dedicated connection LISTENing on the channel. PostgreSQL signals every listening session when
 * an announcing transaction commits, and a listening session sends what it was signalled before it
 * answers its next statement: so once a `SELECT 1` sent after a request arrived has been answered,
 * every change committed before that request has reached the subscribers (caughtUp). One such
 * round trip serves every request that arrived while the previous one was on the way.
 */
class PgChangeFeed implements ChangeFeed {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private lastAttempt = 0;
  private healthy = false;
  private closed = false;
  private readonly subscribers = new Map<string, Array<() => void>>();
  private waiting: { promise: Promise<boolean>; resolve: (ok: boolean) => void } | undefined;
  private inFlight = false;

  constructor(
    private readonly url: string,
    private readonly schema: string,
  ) {}

  subscribe(topic: string, onChange: () => void): void {
    this.subscribers.set(topic, [...(this.subscribers.get(topic) ?? []), onChange]);
    void this.connect();
  }

  private tellAll(): void {
    for (const list of this.subscribers.values()) for (const f of list) f();
  }

  private connect(): Promise<void> {
    // After a failure, try again at most once a second (callers meanwhile read the database).
    if (this.connecting || this.closed || Date.now() - this.lastAttempt < 1000) return this.connecting ?? Promise.resolve();
    this.lastAttempt = Date.now();
    // Named, so an operator (and a test) can tell it in pg_stat_activity.
    const client = new pg.Client({ connectionString: this.url, application_name: `hearth changes ${this.schema}`.slice(0, 63) });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.healthy = false;
      client.end().catch(() => undefined);
      // Announcements may have been missed: nothing cached can be trusted.
      this.tellAll();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      const payload = n.payload ?? '';
      const colon = payload.lastIndexOf(':');
      if (payload.slice(0, colon) !== this.schema) return;
      for (const f of this.subscribers.get(payload.slice(colon + 1)) ?? []) f();
    });
    this.connecting = (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
        if (this.closed) return void (await client.end());
        this.client = client;
        this.healthy = true;
        // What was cached before listening began may already be stale.
        this.tellAll();
      } catch {
        await client.end().catch(() => undefined);
      } finally {
        this.connecting = undefined;
      }
    })();
    return this.connecting;
  }

  caughtUp(): Promise<boolean> {
    if (!this.healthy || !this.client) {
      void this.connect();
      return Promise.resolve(false);
    }
    if (!this.waiting) {
      let resolve!: (ok: boolean) => void;
      const promise = new Promise<boolean>((r) => (resolve = r));
      this.waiting = { promise, resolve };
    }
    const { promise } = this.waiting;
    this.pump();
    return promise;
  }

  private pump(): void {
    const client = this.client;
    if (this.inFlight || !this.waiting || !client) return;
    const batch = this.waiting;
    this.waiting = undefined;
    this.inFlight = true;
    client.query('SELECT 1').then(
      () => batch.resolve(this.healthy && this.client === client),
      () => batch.resolve(false),
    ).finally(() => {
      this.inFlight = false;
      if (this.waiting && !this.client) {
        this.waiting.resolve(false);
        this.waiting = undefined;
      }
      this.pump();
    });
  }

  async announce(q: Queryable, topic: string): Promise<void> {
    await q.query('SELECT pg_notify($1, $2)', [CHANNEL, `${this.schema}:${topic}`]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.healthy = false;
    const client = this.client;
    this.client = undefined;
    await this.connecting;
    await client?.end().catch(() => undefined);
  }
}

class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;
  readonly changes: PgChangeFeed;
  constructor(
    private readonly pool: pg.Pool,
    readonly location: string,
    private readonly url: string,
    schema: string,
  ) {
    this.changes = new PgChangeFeed(url, schema);
  }

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
    await this.changes.close();
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
  return new PostgresDatabase(pool, redact(options.url) + (options.schema ? ` (schema ${options.schema})` : ''), options.url, options.schema ?? 'public');
}
