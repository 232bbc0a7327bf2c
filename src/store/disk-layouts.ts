/**
 * The disk layouts operators saved (issue 26). Only what the operator chose is kept: a node's disks
 * come from its facts and its default layout is computed when read (core/disks), so a node without
 * a saved layout follows its roles, and a saved one is kept as the operator wrote it.
 */
import { type Queryable, json } from './database.js';

export interface SavedDiskLayout {
  nodeId: number;
  /** The operator's disks as saved: each disk's id, the size of each volume on it, `exclude`. */
  disks: unknown;
  savedAt: string;
}

interface Row {
  node_id: number;
  disks: unknown;
  saved_at: Date | string;
}

const toRecord = (r: Row): SavedDiskLayout => ({ nodeId: r.node_id, disks: r.disks, savedAt: new Date(r.saved_at).toISOString() });

/** The saved layouts of these nodes (nodes following their defaults are absent). */
export async function savedDiskLayouts(q: Queryable, ids: readonly number[]): Promise<Map<number, SavedDiskLayout>> {
  if (!ids.length) return new Map();
  const rows = await q.query<Row>('SELECT node_id, disks, saved_at FROM node_disk_layouts WHERE node_id = ANY($1::int[])', [ids]);
  return new Map(rows.map((r) => [r.node_id, toRecord(r)]));
}

export async function saveDiskLayout(q: Queryable, nodeId: number, disks: unknown): Promise<void> {
  await q.query(
    `INSERT INTO node_disk_layouts (node_id, disks, saved_at) VALUES ($1, $2::jsonb, now())
     ON CONFLICT (node_id) DO UPDATE SET disks = EXCLUDED.disks, saved_at = EXCLUDED.saved_at`,
    [nodeId, json(disks)],
  );
}

/** Back to the defaults (`--defaults`, or the node left its environment). */
export async function forgetDiskLayouts(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length) await q.query('DELETE FROM node_disk_layouts WHERE node_id = ANY($1::int[])', [ids]);
}
