/**
 * The one small database interface Hearth's repositories use, over both engines (embedded PGlite
 * and PostgreSQL). SQL is plain PostgreSQL; JSON values are passed as text and cast with `::jsonb`
 * so both drivers treat them the same way.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type Engine = 'pglite' | 'postgres';

export interface Database extends Queryable {
  readonly engine: Engine;
  /** Where the data lives, for messages: a folder, or a URL without its password. */
  readonly location: string;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * This server's presence: an id other servers sharing the database can check for liveness
   * (PostgreSQL: a session advisory lock held for the server's lifetime, freed when it dies).
   */
  presence(): Promise<Presence>;
  /** Changes announced by every server sharing the database (PostgreSQL only; see ChangeFeed). */
  readonly changes?: ChangeFeed;
  /**
   * Gives back memory the start-up left behind where the database keeps its own (PGlite's
   * thread: pglite-thread.ts); called once the server is ready. Absent where there is none.
   */
  settle?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What lets a server cache rows other servers may change (PostgreSQL LISTEN/NOTIFY): a change
 * announces its topic in its own transaction, and every server hears it when it commits.
 */
export interface ChangeFeed {
  /** Calls `onChange` for every announcement of `topic`, and whenever announcements may have been missed (the connection dropped). */
  subscribe(topic: string, onChange: () => void): void;
  /**
   * Resolves true once every announcement committed before the call has been handed to the
   * subscribers (one round trip on the listening connection, shared by every caller waiting for
   * it); false when the feed cannot promise that (its connection is down or not yet up).
   */
  caughtUp(): Promise<boolean>;
  /** Announces a change of `topic`, delivered when `q`'s transaction commits. */
  announce(q: Queryable, topic: string): Promise<void>;
}

export interface Presence {
  readonly id: number;
  /** Whether the server with this id is still running. */
  alive(id: number): Promise<boolean>;
}

/** The advisory-lock namespace of server presence locks (the first key of the two-key form). */
export const PRESENCE_LOCK_SPACE = 74603;

export const newPresenceId = (): number => 1 + Math.floor(Math.random() * 2_000_000_000);

/**
 * The presence of an embedded database's only process (one process per data folder, held by its
 * lock): any other owner recorded in it is a server that is gone.
 */
export function soleProcessPresence(): Presence {
  const id = newPresenceId();
  return { id, alive: async (other) => other === id };
}

/** A database problem the operator must fix (a locked data folder, an unreachable server). */
export class StoreError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

/** Quote an SQL identifier (a schema name chosen by tests or the operator). */
export function quoteIdentifier(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new StoreError('store/bad-schema-name', `"${name}" is not a usable schema name`, 'Use letters, digits and underscores, starting with a letter.');
  }
  return `"${name}"`;
}

/** JSON for a `$n::jsonb` parameter. */
export const json = (value: unknown): string => JSON.stringify(value ?? null);
