/**
 * Package files of plugins installed from a package, in the database (migration 5), in chunks.
 * Each server unpacks them into its own data folder when it needs them (server/domain/plugin-files.ts).
 */
import { createHash } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from './database.js';

/** 1 MiB: a chunk is one row, read and written one at a time. */
export const PACKAGE_CHUNK_BYTES = 1024 * 1024;

export interface PluginPackageDigest {
  pluginId: string;
  sha256: string;
  size: number;
}

/*
 * Bytes travel as base64 text decoded by the database: PGlite took 1.2 s a MiB for a bytea
 * parameter, 0.26 s as base64 (issue 24, item 13).
 */
const INSERT_CHUNK = `INSERT INTO plugin_package_chunks (plugin_id, seq, bytes) VALUES ($1, $2, decode($3, 'base64'))`;

export async function insertPluginPackage(q: Queryable, pluginId: string, bytes: Buffer): Promise<PluginPackageDigest> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await q.query('INSERT INTO plugin_packages (plugin_id, sha256, size) VALUES ($1, $2, $3)', [pluginId, sha256, bytes.length]);
  for (let seq = 0, at = 0; at < bytes.length; seq++, at += PACKAGE_CHUNK_BYTES) {
    await q.query(INSERT_CHUNK, [pluginId, seq, bytes.subarray(at, at + PACKAGE_CHUNK_BYTES).toString('base64')]);
  }
  return { pluginId, sha256, size: bytes.length };
}


/** A package's bytes on their way into the database, written by `store` inside the install's transaction. */
export interface StagedPackage {
  store(tx: Queryable, pluginId: string): Promise<PluginPackageDigest>;
  /** Forgets what was staged and not stored (call in every case, after the install). */
  discard(): Promise<void>;
}

/**
 * Stages a package before the install's transaction. The embedded database has one session: a
 * transaction writing 62 MB held every other query for 26 s. There the bytes are written first,
 * chunk by chunk, each a statement of its own (other queries come between them), to a temporary table of the session (no other server sees it, and it dies with
 * the session), and the transaction only copies them inside the database (about 15 ms a MiB).
 * PostgreSQL readers do not wait for a writing transaction: its bytes are written in it.
 */
export async function stagePluginPackage(db: Database, bytes: Buffer): Promise<StagedPackage> {
  if (db.engine !== 'pglite') return { store: (tx, pluginId) => insertPluginPackage(tx, pluginId, bytes), discard: async () => undefined };
  // A table per stage: dropping it is cheap, deleting its rows was not (0.3 s for 60 MB).
  const table = `staged_package_${randomUUID().replace(/-/g, '')}`;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db.query(`CREATE TEMP TABLE ${table} (seq integer NOT NULL, bytes bytea NOT NULL)`);
  const drop = () => db.query(`DROP TABLE IF EXISTS ${table}`).then(() => undefined);
  try {
    for (let seq = 0, at = 0; at < bytes.length; seq++, at += PACKAGE_CHUNK_BYTES) {
      await db.query(`INSERT INTO ${table} (seq, bytes) VALUES ($1, decode($2, 'base64'))`, [seq, bytes.subarray(at, at + PACKAGE_CHUNK_BYTES).toString('base64')]);
    }
  } catch (err) {
    await drop().catch(() => undefined);
    throw err;
  }
  return {
    async store(tx, pluginId) {
      await tx.query('INSERT INTO plugin_packages (plugin_id, sha256, size) VALUES ($1, $2, $3)', [pluginId, sha256, bytes.length]);
      await tx.query(`INSERT INTO plugin_package_chunks (plugin_id, seq, bytes) SELECT $1, seq, bytes FROM ${table}`, [pluginId]);
      return { pluginId, sha256, size: bytes.length };
    },
    discard: drop,
  };
}

export async function pluginPackageDigest(q: Queryable, pluginId: string): Promise<PluginPackageDigest | undefined> {
  const [row] = await q.query<{ sha256: string; size: string | number }>('SELECT sha256, size FROM plugin_packages WHERE plugin_id = $1', [pluginId]);
  return row && { pluginId, sha256: row.sha256, size: Number(row.size) };
}

export async function pluginPackageDigests(q: Queryable): Promise<PluginPackageDigest[]> {
  const rows = await q.query<{ plugin_id: string; sha256: string; size: string | number }>('SELECT plugin_id, sha256, size FROM plugin_packages');
  return rows.map((r) => ({ pluginId: r.plugin_id, sha256: r.sha256, size: Number(r.size) }));
}

/** Hands the package's chunks to `write` in order, one row in memory at a time. */
export async function readPluginPackage(q: Queryable, pluginId: string, write: (chunk: Buffer) => Promise<void>): Promise<number> {
  let total = 0;
  for (let seq = 0; ; seq++) {
    const [row] = await q.query<{ bytes: Uint8Array }>('SELECT bytes FROM plugin_package_chunks WHERE plugin_id = $1 AND seq = $2', [pluginId, seq]);
    if (!row) return total;
    const chunk = Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
    total += chunk.length;
    await write(chunk);
  }
}
