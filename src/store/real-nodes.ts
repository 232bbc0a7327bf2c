/**
 * Real nodes: how Hearth reaches a node over SSH (address, user, port), the host key recorded when
 * it was registered, the facts it reported and its last SSH failure. A node without an address is
 * simulated: it exists for planning and dry runs only.
 */
import { type Queryable, json } from './database.js';

export interface NodeAccess {
  id: number;
  name: string;
  address: string;
  sshUser: string;
  sshPort: number;
  hostKey?: string;
}

export interface RealNodeRecord extends NodeAccess {
  facts?: unknown;
  factsAt?: string;
  reachError?: { code: string; message: string; at: string; host_key?: string };
  /** Who accepted a changed host key last (audit.ts's whoAsked), and when. */
  hostKeyAcceptedBy?: string;
  hostKeyAcceptedAt?: string;
}

interface Row {
  id: number;
  name: string;
  address: string | null;
  ssh_user: string | null;
  ssh_port: number | null;
  host_key: string | null;
  facts: unknown;
  facts_at: Date | string | null;
  reach_error: RealNodeRecord['reachError'] | null;
  host_key_accepted_by: string | null;
  host_key_accepted_at: Date | string | null;
}

function toRecord(r: Row): RealNodeRecord | undefined {
  if (r.address === null) return undefined;
  const rec: RealNodeRecord = { id: r.id, name: r.name, address: r.address, sshUser: r.ssh_user ?? 'root', sshPort: r.ssh_port ?? 22 };
  if (r.host_key !== null) rec.hostKey = r.host_key;
  if (r.facts !== null && r.facts !== undefined) rec.facts = r.facts;
  if (r.facts_at !== null) rec.factsAt = new Date(r.facts_at).toISOString();
  if (r.reach_error !== null) rec.reachError = r.reach_error;
  if (r.host_key_accepted_by !== null) rec.hostKeyAcceptedBy = r.host_key_accepted_by;
  if (r.host_key_accepted_at !== null) rec.hostKeyAcceptedAt = new Date(r.host_key_accepted_at).toISOString();
  return rec;
}

const COLUMNS = 'id, name, address, ssh_user, ssh_port, host_key, facts, facts_at, reach_error, host_key_accepted_by, host_key_accepted_at';

/** The real nodes among `ids` (simulated ones are absent from the map). */
export async function realNodes(q: Queryable, ids: number[]): Promise<Map<number, RealNodeRecord>> {
  const out = new Map<number, RealNodeRecord>();
  if (!ids.length) return out;
  for (const row of await q.query<Row>(`SELECT ${COLUMNS} FROM nodes WHERE id = ANY($1::int[]) AND address IS NOT NULL`, [ids])) {
    const rec = toRecord(row);
    if (rec) out.set(rec.id, rec);
  }
  return out;
}

/** Every real node (the periodic reachability check walks them). */
export async function allRealNodes(q: Queryable): Promise<RealNodeRecord[]> {
  return (await q.query<Row>(`SELECT ${COLUMNS} FROM nodes WHERE address IS NOT NULL ORDER BY id`)).map(toRecord).filter((r): r is RealNodeRecord => r !== undefined);
}

export async function nodeAtAddress(q: Queryable, address: string, port: number): Promise<{ id: number; name: string } | undefined> {
  return (await q.query<{ id: number; name: string }>('SELECT id, name FROM nodes WHERE address = $1 AND ssh_port = $2', [address, port]))[0];
}

export async function insertRealNode(
  q: Queryable,
  n: { name: string; address: string; sshUser: string; sshPort: number; hostKey: string; facts: unknown; hardware: Record<string, unknown>; clusterId?: number },
): Promise<number> {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO nodes (name, hardware, address, ssh_user, ssh_port, host_key, facts, facts_at, status, cluster_id)
     VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7::jsonb, now(), 'discovered', $8) RETURNING id`,
    [n.name, json(n.hardware), n.address, n.sshUser, n.sshPort, n.hostKey, json(n.facts), n.clusterId ?? null],
  );
  return rows[0].id;
}

/** New facts (and the key they were gathered under); the last SSH error is cleared. */
export async function updateFacts(q: Queryable, id: number, facts: unknown, hardware: Record<string, unknown>, hostKey: string): Promise<void> {
  await q.query(
    `UPDATE nodes SET facts = $2::jsonb, hardware = $3::jsonb, host_key = $4, facts_at = now(), reach_error = NULL,
       status = CASE WHEN status = 'offline' THEN coalesce(status_before, CASE WHEN jsonb_array_length(roles) > 0 THEN 'ready' ELSE 'discovered' END) ELSE status END,
       status_before = CASE WHEN status = 'offline' THEN NULL ELSE status_before END
     WHERE id = $1`,
    [id, json(facts), json(hardware), hostKey],
  );
}

/** An SSH failure, kept in words; `offline` when the node could not be reached at all. */
export async function recordReachError(q: Queryable, id: number, error: { code: string; message: string; host_key?: string }, offline: boolean): Promise<void> {
  // Going offline keeps the state it had, to go back to when it answers (docs/lifecycle.md).
  await q.query(`UPDATE nodes SET reach_error = $2::jsonb${offline ? `, status_before = CASE WHEN status IN ('deploying', 'provisioning', 'offline') THEN status_before ELSE status END, status = CASE WHEN status IN ('deploying', 'provisioning') THEN status ELSE 'offline' END` : ''} WHERE id = $1`, [
    id,
    json({ ...error, at: new Date().toISOString() }),
  ]);
}

/**
 * A run starts on these nodes (`provisioning` for the provisioning graph, else `deploying`): each
 * keeps the state it had, for when the run ends before its tasks do.
 */
export async function beginRunOnNodes(q: Queryable, ids: number[], during: 'deploying' | 'provisioning' = 'deploying'): Promise<void> {
  if (ids.length) await q.query(`UPDATE nodes SET status_before = CASE WHEN status IN ('deploying', 'provisioning', 'offline') THEN status_before ELSE status END, status = $2 WHERE id = ANY($1::int[])`, [ids, during]);
}

/** What each node of a run was before it (`beginRunOnNodes`); cleared once read back. */
export async function statesBeforeRun(q: Queryable, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await q.query<{ id: number; status_before: string | null }>('SELECT id, status_before FROM nodes WHERE id = ANY($1::int[])', [ids]);
  return new Map(rows.map((r) => [r.id, r.status_before ?? 'discovered']));
}

export async function setNodeStatus(q: Queryable, ids: number[], status: string): Promise<void> {
  if (ids.length) await q.query('UPDATE nodes SET status = $2 WHERE id = ANY($1::int[])', [ids, status]);
}

/** A node that answers again: its last error cleared, `offline` back to what it was before. */
export async function markReachable(q: Queryable, id: number): Promise<void> {
  await q.query(
    `UPDATE nodes SET reach_error = NULL, status = CASE WHEN status = 'offline' THEN coalesce(status_before, CASE WHEN jsonb_array_length(roles) > 0 THEN 'ready' ELSE 'discovered' END) ELSE status END, status_before = CASE WHEN status = 'offline' THEN NULL ELSE status_before END WHERE id = $1`,
    [id],
  );
}

/** Who accepted a node's changed host key, and when (the last acceptance stands). */
export async function recordHostKeyAcceptance(q: Queryable, id: number, by: string): Promise<void> {
  await q.query('UPDATE nodes SET host_key_accepted_by = $2, host_key_accepted_at = now() WHERE id = $1', [id, by]);
}
