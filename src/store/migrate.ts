/**
 * Applies pending migrations at start. Two servers starting at once on one PostgreSQL serialise on
 * an advisory lock held for the migration transaction, so each migration runs exactly once.
 */
import type { Database } from './database.js';
import { MIGRATIONS, type Migration } from './migrations.js';

// Any constant works; it only has to be the same for every Hearth server.
const MIGRATION_LOCK = 7_460_342_118;

export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS hearth_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ version: number }>('SELECT version FROM hearth_migrations')).map((r) => r.version));
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO hearth_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
