/**
 * A whole database as one versioned JSON document, and back: `hearth db export` / `hearth db
 * import`. It moves an embedded database to PostgreSQL (or back), and carries data across an
 * upgrade of PGlite whose files the new version cannot open.
 *
 * Tables are found in the database itself, so tables added by later migrations are carried
 * without this file knowing them, and written parents before children (foreign keys).
 */
import type { Database, Queryable } from './database.js';
import { StoreError } from './database.js';
import { schemaState } from './schema-version.js';
import { META_ADMIN_TOKEN, forgetCatalogVersions } from './meta.js';
import { adminTokenProblem } from '../core/access/admin-token.js';
import { CREDENTIALS_TOPIC } from './credentials.js';

export const DUMP_FORMAT = 'hearth-dump';
export const DUMP_VERSION = 1;

export interface Dump {
  format: typeof DUMP_FORMAT;
  version: number;
  /** The schema (newest migration) the rows were written under. */
  schema: number;
  exported_at: string;
  /** Table → rows, as PostgreSQL's to_jsonb gives them; parents before children. */
  tables: Record<string, Record<string, unknown>[]>;
}

/** The schema's own bookkeeping: the target has its own, made by migrating. */
const NOT_CARRIED = new Set(['hearth_migrations']);

/** The tables of the current schema, parents before children. */
async function tablesInOrder(q: Queryable): Promise<string[]> {
  const tables = (await q.query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`))
    .map((t) => t.name)
    .filter((t) => !NOT_CARRIED.has(t));
  const edges = await q.query<{ child: string; parent: string }>(`
    SELECT DISTINCT tc.table_name AS child, ccu.table_name AS parent
    FROM information_schema.table_constraints tc
    JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.constraint_schema = tc.constraint_schema
    WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`);
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && [...(parents.get(t) ?? [])].every((p) => placed.has(p) || !parents.has(p)));
    if (next === undefined) throw new StoreError('store/dump-cycle', `the tables' foreign keys form a loop: ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    ordered.push(next);
    placed.add(next);
  }
  return ordered;
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Told as each table is begun (the CLI's progress line), `index` from 0. */
export type TableProgress = (table: string, index: number, total: number) => void;

export async function exportDatabase(db: Database, onTable?: TableProgress): Promise<Dump> {
  return db.transaction(async (tx) => {
    const schema = (await schemaState(tx)).applied;
    const tables: Dump['tables'] = {};
    const names = await tablesInOrder(tx);
    for (const [index, table] of names.entries()) {
      onTable?.(table, index, names.length);
      const rows = await tx.query<{ row: Record<string, unknown> }>(`SELECT to_jsonb(t) AS row FROM ${quoted(table)} t ORDER BY to_jsonb(t)::text`);
      tables[table] = rows.map((r) => (typeof r.row === 'string' ? (JSON.parse(r.row) as Record<string, unknown>) : r.row));
    }
    return { format: DUMP_FORMAT, version: DUMP_VERSION, schema, exported_at: new Date().toISOString(), tables };
  });
}

/** Checks a parsed document is a dump this Hearth can load; says what is wrong otherwise. */
export function checkDump(value: unknown): Dump {
  const d = value as Partial<Dump> | null;
  if (!d || typeof d !== 'object' || d.format !== DUMP_FORMAT) throw new StoreError('store/not-a-dump', 'this file is not a Hearth database export', 'make one with `hearth db export`');
  if (d.version !== DUMP_VERSION) throw new StoreError('store/dump-version', `this export is of format version ${String(d.version)}; this Hearth reads version ${DUMP_VERSION}`, 'import it with the Hearth that made it, or a newer one');
  if (typeof d.schema !== 'number' || !d.tables || typeof d.tables !== 'object') throw new StoreError('store/not-a-dump', 'this export has no schema version or no tables', 'make a new one with `hearth db export`');
  for (const [table, rows] of Object.entries(d.tables)) {
    if (!Array.isArray(rows)) throw new StoreError('store/not-a-dump', `the rows of '${table}' are not a list of objects`);
    const bad = rows.findIndex((r) => !r || typeof r !== 'object' || Array.isArray(r));
    if (bad >= 0) throw badRow(table, bad, rows[bad], 'it is not an object of column values', 'store/not-a-dump');
  }
  // The token the import would install: the same rules as HEARTH_ADMIN_TOKEN, or anyone could guess it.
  const token = (d.tables.hearth_meta ?? []).findIndex((r) => (r as { key?: unknown }).key === META_ADMIN_TOKEN);
  if (token >= 0) {
    const problem = adminTokenProblem((d.tables.hearth_meta![token] as { value?: unknown }).value);
    if (problem) {
      throw new StoreError('store/import-bad-token', `row ${token + 1} of 'hearth_meta' holds an admin token Hearth does not accept: ${problem}`, 'give it a token of 16 to 512 characters without spaces (e.g. `openssl rand -hex 24`), or remove that row: the next start then makes one');
    }
  }
  return d as Dump;
}

/** A row the import cannot take: which (1-based, as an editor counts), why, and what it holds, shortened. */
function badRow(table: string, index: number, row: unknown, reason: string, code = 'store/import-bad-row'): StoreError {
  let shown = JSON.stringify(row) ?? String(row);
  if (shown.length > 300) shown = `${shown.slice(0, 300)}…`;
  return new StoreError(code, `row ${index + 1} of '${table}' cannot be imported: ${reason}\n  row: ${shown}`, 'fix or remove that row in the export (or export again from the source database), then import again into a new, empty database');
}

/** Which row of a table's batch PostgreSQL refused, and why: each is tried alone, kept when it goes in. */
async function findBadRow(tx: Queryable, table: string, rows: Record<string, unknown>[], insert: string): Promise<StoreError | undefined> {
  for (const [i, row] of rows.entries()) {
    await tx.query('SAVEPOINT hearth_import_row');
    try {
      await tx.query(insert, [JSON.stringify([row])]);
      await tx.query('RELEASE SAVEPOINT hearth_import_row');
    } catch (err) {
      await tx.query('ROLLBACK TO SAVEPOINT hearth_import_row');
      const e = err as { message?: string; detail?: string };
      return badRow(table, i, row, `${e.message ?? String(err)}${e.detail ? ` (${e.detail})` : ''}`);
    }
  }
  return undefined;
}

/**
 * Loads a dump into an empty database, in one transaction: all of it or nothing. Columns a newer
 * schema added take their defaults; a dump from a newer schema than this database's is refused.
 */
export async function importDatabase(db: Database, dump: Dump, onTable?: TableProgress): Promise<Record<string, number>> {
  // The catalog version is replaced without a bump: what was remembered of it is no longer true.
  forgetCatalogVersions();
  try {
    return await importTables(db, dump, onTable);
  } finally {
    forgetCatalogVersions();
  }
}

function importTables(db: Database, dump: Dump, onTable?: TableProgress): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const schema = await schemaState(tx);
    if (dump.schema > schema.applied) {
      throw new StoreError('store/dump-newer', `the export was made under schema ${dump.schema}; this database is at ${schema.applied}`, 'import it with a Hearth at least as new as the one that exported it');
    }
    const tables = await tablesInOrder(tx);
    const unknown = Object.keys(dump.tables).filter((t) => !tables.includes(t));
    if (unknown.length) throw new StoreError('store/dump-unknown-table', `the export holds tables this database does not have: ${unknown.join(', ')}`);
    for (const table of tables) {
      if (table === 'hearth_meta') continue;
      const [{ n }] = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoted(table)}`);
      if (n > 0) throw new StoreError('store/import-not-empty', `the database already holds data ('${table}' has ${n} rows)`, 'import into a new, empty database (a fresh --data-dir or an empty PostgreSQL schema)');
    }
    const counts: Record<string, number> = {};
    for (const [index, table] of tables.entries()) {
      onTable?.(table, index, tables.length);
      const rows = dump.tables[table] ?? [];
      counts[table] = rows.length;
      // The target's own meta (a token made at its first open) gives way to the exported one.
      if (table === 'hearth_meta') await tx.query('DELETE FROM hearth_meta');
      if (!rows.length) continue;
      const insert = `INSERT INTO ${quoted(table)} OVERRIDING SYSTEM VALUE SELECT * FROM jsonb_populate_recordset(NULL::${quoted(table)}, $1::jsonb)`;
      // One statement for the whole table; when PostgreSQL refuses it, the row it refused is found
      // and named (the transaction is given up either way: all or nothing).
      await tx.query('SAVEPOINT hearth_import_table');
      try {
        await tx.query(insert, [JSON.stringify(rows)]);
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT hearth_import_table');
        throw (await findBadRow(tx, table, rows, insert)) ?? err;
      }
      await tx.query('RELEASE SAVEPOINT hearth_import_table');
    }
    // Identity columns go on after the highest id carried over.
    const identities = await tx.query<{ table_name: string; column_name: string }>(`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'`);
    for (const { table_name: table, column_name: column } of identities) {
      await tx.query(`SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quoted(column)}) FROM ${quoted(table)}), 0) + 1, false)`, [quoted(table), column]);
    }
    // A server already running on this database (PostgreSQL) may have cached that a token or a
    // session is unknown; the imported ones must be honoured there at once, as after any change.
    await db.changes?.announce(tx, CREDENTIALS_TOPIC);
    return counts;
  });
}
