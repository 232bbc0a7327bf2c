/**
 * Whether the server is ready to serve: its database answers and its schema is the one this
 * Hearth needs. One answer for `/readyz` (Hearth's, JSON) and `/healthcheck` (oslo.middleware's,
 * text), so the two probes can never disagree.
 */
import * as store from '../store/index.js';
import type { Database } from '../store/index.js';

export type Readiness = { ok: true; schema: number } | { ok: false; error: { code: string; message: string; details: Record<string, unknown> }; cause?: unknown };

export async function readiness(db: Database): Promise<Readiness> {
  try {
    const schema = await store.schemaState(db);
    if (schema.applied !== schema.known) {
      return { ok: false, error: { code: 'server/schema-not-current', message: `the database schema is at ${schema.applied}, this Hearth needs ${schema.known}`, details: { engine: db.engine, ...schema } } };
    }
    return { ok: true, schema: schema.applied };
  } catch (err) {
    return { ok: false, error: { code: 'server/database-unavailable', message: 'the database does not answer', details: { engine: db.engine } }, cause: err };
  }
}
