/**
 * A database that is still opening. A server listens before its database is open (PGlite takes
 * most of a second to start, and many seconds to create a new data folder), so the app is built
 * over this stand-in: every call waits for the real database and then goes to it.
 */
import type { Database, Engine, Presence, Queryable } from './database.js';

export class DeferredDatabase implements Database {
  private opened: Database | undefined;
  constructor(
    readonly engine: Engine,
    private readonly provisionalLocation: string,
    private readonly opening: Promise<Database>,
  ) {
    // Nobody may be waiting yet; a failure is reported by whoever awaits `ready()`.
    opening.then((db) => (this.opened = db)).catch(() => undefined);
  }

  /** The open database (or the reason it could not be opened). */
  ready(): Promise<Database> {
    return this.opening;
  }

  get location(): string {
    return this.opened?.location ?? this.provisionalLocation;
  }

  async query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return (this.opened ?? (await this.opening)).query<T>(sql, params);
  }

  async exec(sql: string): Promise<void> {
    return (this.opened ?? (await this.opening)).exec(sql);
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return (this.opened ?? (await this.opening)).transaction(work);
  }

  async presence(): Promise<Presence> {
    return (this.opened ?? (await this.opening)).presence();
  }

  async close(): Promise<void> {
    const db = await this.opening.catch(() => undefined);
    await db?.close();
  }
}
