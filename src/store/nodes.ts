/** Nodes: registered machines (real or simulated), their environment, and deployed and pending roles. */
import { StoreConflict } from './conflicts.js';
import { type Queryable, json } from './database.js';
import { releaseNodeNetworks } from './networks.js';

export interface NodeHardware {
  cpus?: number;
  memory_gb?: number;
  disks_gb?: number[];
  [key: string]: unknown;
}

export interface NodeRecord {
  id: number;
  name: string;
  hardware: NodeHardware;
  clusterId?: number;
  /** Roles as deployed. */
  roles: string[];
  /** Roles assigned and not yet deployed. */
  pendingRoles: string[];
  status: string;
}

interface Row {
  id: number;
  name: string;
  hardware: NodeHardware;
  cluster_id: number | null;
  roles: string[];
  pending_roles: string[];
  status: string;
}

function toRecord(r: Row): NodeRecord {
  const rec: NodeRecord = { id: r.id, name: r.name, hardware: r.hardware, roles: r.roles, pendingRoles: r.pending_roles, status: r.status };
  if (r.cluster_id !== null) rec.clusterId = r.cluster_id;
  return rec;
}

export async function insertNodes(q: Queryable, nodes: Array<{ name: string; hardware: NodeHardware }>): Promise<number[]> {
  if (!nodes.length) return [];
  // One statement for any number of nodes: a 1,000-node environment registers in one round trip.
  const rows = await q.query<{ id: number }>(
    `INSERT INTO nodes (name, hardware) SELECT n->>'name', n->'hardware' FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(n, i) ORDER BY i RETURNING id`,
    [json(nodes)],
  );
  return rows.map((r) => r.id);
}

export async function listNodes(q: Queryable, filter: { clusterId?: number; unassigned?: boolean } = {}): Promise<NodeRecord[]> {
  if (filter.clusterId !== undefined) return (await q.query<Row>('SELECT * FROM nodes WHERE cluster_id = $1 ORDER BY id', [filter.clusterId])).map(toRecord);
  if (filter.unassigned) return (await q.query<Row>('SELECT * FROM nodes WHERE cluster_id IS NULL ORDER BY id')).map(toRecord);
  return (await q.query<Row>('SELECT * FROM nodes ORDER BY id')).map(toRecord);
}

/**
 * One page of listNodes, read by the primary key: the nodes after node `after` (which must be in
 * the list: `undefined` when it is not), at most `limit`. The work is the page's, not the list's.
 */
export async function pageOfNodes(q: Queryable, filter: { clusterId?: number; unassigned?: boolean }, page: { after?: number; limit?: number }): Promise<NodeRecord[] | undefined> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.clusterId !== undefined) where.push(`cluster_id = $${params.push(filter.clusterId)}`);
  else if (filter.unassigned) where.push('cluster_id IS NULL');
  if (page.after !== undefined) {
    const marker = await q.query(`SELECT 1 FROM nodes WHERE ${[...where, `id = $${params.length + 1}`].join(' AND ')}`, [...params, page.after]);
    if (!marker.length) return undefined;
    where.push(`id > $${params.push(page.after)}`);
  }
  const limit = page.limit !== undefined ? ` LIMIT $${params.push(page.limit)}` : '';
  return (await q.query<Row>(`SELECT * FROM nodes${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id${limit}`, params)).map(toRecord);
}

export async function getNodes(q: Queryable, ids: number[]): Promise<NodeRecord[]> {
  if (!ids.length) return [];
  return (await q.query<Row>('SELECT * FROM nodes WHERE id = ANY($1::int[]) ORDER BY id', [ids])).map(toRecord);
}

/**
 * Put nodes in an environment with the roles they will get at the next deploy. Only nodes that are
 * free or already in this environment are changed, in the statement itself: another request (or
 * server) may have given a node to another environment, or deleted it, since the caller read it.
 * Row locks make the second writer wait and then see the first one's change, so the loser of such
 * a race gets a conflict and nothing of its assignment is written (the caller's transaction rolls back).
 */
export async function assignNodes(q: Queryable, clusterId: number, assignments: Array<{ id: number; pendingRoles: string[] }>): Promise<void> {
  const rows = await q.query<{ id: number }>(
    // `id = ANY` lets the planner find the rows by key: joined with the JSON list alone, whose size
    // it cannot guess, it scanned the whole table (6 ms a role assignment at 20,000 nodes, inside
    // the environment's lock).
    `UPDATE nodes SET cluster_id = $1, pending_roles = a.roles FROM (SELECT (x->>'id')::int AS id, x->'roles' AS roles FROM jsonb_array_elements($2::jsonb) x) a
     WHERE nodes.id = ANY($3::int[]) AND nodes.id = a.id AND (nodes.cluster_id IS NULL OR nodes.cluster_id = $1) RETURNING nodes.id`,
    [clusterId, json(assignments.map((a) => ({ id: a.id, roles: a.pendingRoles }))), assignments.map((a) => a.id)],
  );
  if (rows.length !== assignments.length) {
    const done = new Set(rows.map((r) => r.id));
    const lost = assignments.filter((a) => !done.has(a.id)).map((a) => a.id);
    throw new StoreConflict('node/taken-meanwhile', `node ${lost.join(', ')} was given to another environment or removed meanwhile; nothing was assigned`, 'Read the nodes again and choose free ones.');
  }
}

/**
 * The status of a node nothing is deployed on: Nailgun's `discover` for a simulated node, and
 * `discovered` for a real one (as registering it says), so a real node taken out of an environment
 * or reset does not change its word.
 */
export const UNDEPLOYED = "CASE WHEN address IS NULL THEN 'discover' ELSE 'discovered' END";

export async function unassignNodes(q: Queryable, ids: number[]): Promise<void> {
  // A layout was saved for the node's roles in that environment: it starts again from its defaults, as in Fuel.
  if (ids.length) await q.query('DELETE FROM node_disk_layouts WHERE node_id = ANY($1::int[])', [ids]);
  // Its addresses go back to the environment's ranges (a node leaves after its deletion graph).
  await releaseNodeNetworks(q, ids);
  await q.query(`UPDATE nodes SET cluster_id = NULL, roles = '[]', pending_roles = '[]', status = ${UNDEPLOYED} WHERE id = ANY($1::int[])`, [ids]);
}

/** A node's deployed and pending roles, set as given (roles a new release no longer has are left behind). */
export async function setNodeRoles(q: Queryable, id: number, roles: readonly string[], pendingRoles: readonly string[]): Promise<void> {
  await q.query('UPDATE nodes SET roles = $2::jsonb, pending_roles = $3::jsonb WHERE id = $1', [id, json(roles), json(pendingRoles)]);
}

/** After a successful deploy: what was pending is now deployed, merged with what was there. */
export async function commitPendingRoles(q: Queryable, clusterId: number, only?: readonly number[]): Promise<void> {
  // `only`: the nodes the run deployed; a node it left out (offline) keeps its roles pending and its state.
  await q.query(
    `UPDATE nodes SET roles = (SELECT coalesce(jsonb_agg(DISTINCT r), '[]') FROM jsonb_array_elements_text(roles || pending_roles) r), pending_roles = '[]', status = 'ready' WHERE cluster_id = $1${only ? ' AND id = ANY($2::int[])' : ''}`,
    only ? [clusterId, only] : [clusterId],
  );
}

/** Delete nodes that are in no environment; a node assigned (or deleted) meanwhile is a conflict, and nothing is deleted. */
export async function deleteNodes(q: Queryable, ids: number[]): Promise<number> {
  const rows = await q.query('DELETE FROM nodes WHERE id = ANY($1::int[]) AND cluster_id IS NULL RETURNING id', [ids]);
  if (rows.length !== new Set(ids).size) throw new StoreConflict('node/assigned', 'the node was put in an environment or removed meanwhile; it was not deleted', 'Unassign it first, then delete it.');
  return rows.length;
}
