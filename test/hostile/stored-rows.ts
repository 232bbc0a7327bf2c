/**
 * Every stored row, for the hostile tests' "a refusal changed nothing": one query reading every
 * row of every table in a stable order, as one JSON row, to compare before and after.
 */
import assert from 'node:assert/strict';
import type { Database } from '../../src/store/index.js';

/**
 * The query, built from the tables the database has now. Left out: the audit log, which records
 * every refusal (issue 29: that is its purpose, not a change the refusal made), and the last use of
 * a token or session, written as it is used (at most once a minute), refused or not.
 */
export async function everyRowQuery(db: Database): Promise<string> {
  const tables = await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'audit_log' ORDER BY table_name`);
  assert.ok(tables.length >= 5, `only ${tables.length} tables found`);
  return `SELECT ${tables.map((t) => `(SELECT coalesce(jsonb_agg(to_jsonb(r) - 'last_used_at' - 'last_seen_at' ORDER BY r::text), '[]'::jsonb) FROM "${t.table_name}" r) AS "${t.table_name}"`).join(', ')}`;
}
