/**
 * The storage engines a server test runs on: embedded PGlite always, PostgreSQL when
 * HEARTH_TEST_DATABASE_URL is set (CI sets it). Each test gets its own schema, so test files can
 * run in parallel against one PostgreSQL; on PGlite a test file shares one in-memory instance
 * (starting PGlite costs seconds) and its tests, which run one after another, get a schema each.
 */
import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { openStore, type Database } from '../../../src/store/index.js';

export interface EngineUnderTest {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated database in its own schema. */
  open(): Promise<Database>;
  /** Drop every schema this engine created and close shared resources. */
  dispose(): Promise<void>;
}

export const testDatabaseUrl = process.env.HEARTH_TEST_DATABASE_URL || undefined;

const schemaName = () => `hearth_t_${randomBytes(6).toString('hex')}`;

function pgliteEngine(): EngineUnderTest {
  let shared: Promise<PGlite> | undefined;
  return {
    name: 'pglite',
    async open() {
      shared ??= import('@electric-sql/pglite').then(({ PGlite }) => PGlite.create('memory://'));
      return openStore({ pgliteInstance: await shared, schema: schemaName() });
    },
    async dispose() {
      if (shared) await (await shared).close();
    },
  };
}

function postgresEngine(url: string): EngineUnderTest {
  const schemas: string[] = [];
  return {
    name: 'postgres',
    async open() {
      const schema = schemaName();
      schemas.push(schema);
      return openStore({ databaseUrl: url, schema });
    },
    async dispose() {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      await client.end();
    },
  };
}

/** The engines to run on here. */
export function engines(): EngineUnderTest[] {
  return testDatabaseUrl ? [pgliteEngine(), postgresEngine(testDatabaseUrl)] : [pgliteEngine()];
}
