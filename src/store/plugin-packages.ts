/**
 * Package files of plugins installed from a package, in the database (migration 5), in chunks.
 * Each server unpacks them into its own data folder when it needs them (server/domain/plugin-files.ts).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from './database.js';

/** 1 MiB: a chunk is one row, read and written one at a time. */
export const PACKAGE_CHUNK_BYTES = 1024 * 1024;

export interface PluginPackageDigest {
  pluginId: string;
  sha256: string;
  size: number;
}

export async function insertPluginPackage(q: Queryable, pluginId: string, bytes: Buffer): Promise<PluginPackageDigest> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await q.query('INSERT INTO plugin_packages (plugin_id, sha256, size) VALUES ($1, $2, $3)', [pluginId, sha256, bytes.length]);
  for (let seq = 0, at = 0; at < bytes.length; seq++, at += PACKAGE_CHUNK_BYTES) {
    await q.query('INSERT INTO plugin_package_chunks (plugin_id, seq, bytes) VALUES ($1, $2, $3)', [pluginId, seq, bytes.subarray(at, at + PACKAGE_CHUNK_BYTES)]);
  }
  return { pluginId, sha256, size: bytes.length };
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
