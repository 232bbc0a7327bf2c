/**
 * Which schema the database holds against the one this Hearth knows: a database migrated by a
 * newer Hearth must not be written by an older one (its tables may mean other things now).
 */
import type { Queryable } from './database.js';
import { MIGRATIONS } from './migrations.js';

export interface SchemaState {
  /** The newest migration applied to the database (0: none). */
  applied: number;
  /** The newest migration this Hearth has. */
  known: number;
}

export const KNOWN_SCHEMA = Math.max(0, ...MIGRATIONS.map((m) => m.version));

export async function schemaState(q: Queryable): Promise<SchemaState> {
  const [row] = await q.query<{ v: number | null }>('SELECT max(version) AS v FROM hearth_migrations');
  return { applied: Number(row?.v ?? 0), known: KNOWN_SCHEMA };
}
