/**
 * Environments (Fuel's clusters): the chosen release and components, the settings tree, which
 * version of each plugin is enabled, and what was last deployed (lifecycle conditions compare
 * against it).
 */
import type { EnvironmentState } from '../core/lifecycle/index.js';
import { type Database, type Queryable, json } from './database.js';
import { WriteBatches } from './write-batches.js';
import { conflictFrom } from './conflicts.js';
import { auditRow, type AuditEntry } from './audit.js';

/** The lifecycle's environment states (docs/lifecycle.md). */
export type ClusterStatus = EnvironmentState;

export interface DeployedState {
  at: string;
  deploymentId: number;
  /** Settings, components and enabled plugins as they were deployed. */
  attributes: Record<string, unknown>;
  components: string[];
  plugins: Record<string, string>;
  /** Node id → roles as deployed. */
  nodes: Record<string, string[]>;
  /**
   * The release it was deployed with, kept only when the environment was moved to another release
   * since (release upgrades): absent, it is the environment's own. A deployment writes the deployed
   * state afresh, without it, so it reads "deployed with the release it has" again.
   */
  releaseId?: string;
}

export interface ClusterRecord {
  id: number;
  name: string;
  releaseId: string;
  components: string[];
  attributes: Record<string, unknown>;
  status: ClusterStatus;
  deployed?: DeployedState;
  /** Plugin name → the id (`name@version`) of the enabled version. */
  plugins: Record<string, string>;
  createdAt: string;
}

interface Row {
  id: number;
  name: string;
  release_id: string;
  components: string[];
  attributes: Record<string, unknown>;
  status: ClusterStatus;
  deployed: DeployedState | null;
  created_at: Date | string;
  plugins: Record<string, string> | null;
}

const SELECT = `SELECT c.*, (SELECT jsonb_object_agg(cp.plugin_name, cp.plugin_id) FROM cluster_plugins cp WHERE cp.cluster_id = c.id) AS plugins FROM clusters c`;

function toRecord(r: Row): ClusterRecord {
  const rec: ClusterRecord = {
    id: r.id,
    name: r.name,
    releaseId: r.release_id,
    components: r.components,
    attributes: r.attributes,
    status: r.status,
    plugins: r.plugins ?? {},
    createdAt: new Date(r.created_at).toISOString(),
  };
  if (r.deployed) rec.deployed = r.deployed;
  return rec;
}

export async function listClusters(q: Queryable): Promise<ClusterRecord[]> {
  return (await q.query<Row>(`${SELECT} ORDER BY c.id`)).map(toRecord);
}

/** One page of listClusters, read by the key: the environments after `after` (undefined when there is none such), at most `limit`. */
export async function pageOfClusters(q: Queryable, page: { after?: number; limit?: number }): Promise<ClusterRecord[] | undefined> {
  const params: unknown[] = [];
  if (page.after !== undefined && !(await q.query('SELECT 1 FROM clusters WHERE id = $1', [page.after])).length) return undefined;
  const where = page.after !== undefined ? ` WHERE c.id > $${params.push(page.after)}` : '';
  const limit = page.limit !== undefined ? ` LIMIT $${params.push(page.limit)}` : '';
  return (await q.query<Row>(`${SELECT}${where} ORDER BY c.id${limit}`, params)).map(toRecord);
}

/** `lock` takes the row lock for the rest of the transaction: changes to one environment queue up. */
export async function getCluster(q: Queryable, id: number, options: { lock?: boolean } = {}): Promise<ClusterRecord | undefined> {
  if (options.lock) await q.query('SELECT id FROM clusters WHERE id = $1 FOR UPDATE', [id]);
  const rows = await q.query<Row>(`${SELECT} WHERE c.id = $1`, [id]);
  return rows[0] && toRecord(rows[0]);
}

export async function clusterByName(q: Queryable, name: string): Promise<ClusterRecord | undefined> {
  const rows = await q.query<Row>(`${SELECT} WHERE c.name = $1`, [name]);
  return rows[0] && toRecord(rows[0]);
}

export async function insertCluster(q: Queryable, c: { name: string; releaseId: string; components: string[]; attributes: Record<string, unknown> }): Promise<number> {
  const rows = await q.query<{ id: number }>('INSERT INTO clusters (name, release_id, components, attributes) VALUES ($1, $2, $3::jsonb, $4::jsonb) RETURNING id', [
    c.name,
    c.releaseId,
    json(c.components),
    json(c.attributes),
  ]);
  return rows[0].id;
}

/** An environment to create, with its enabled plugins and, when given, its audit entry. */
export interface NewCluster {
  name: string;
  releaseId: string;
  components: string[];
  attributes: Record<string, unknown>;
  plugins: Record<string, string>;
  /** Written with the environment (so in its transaction); its object without an id names the new environment. */
  audit?: AuditEntry;
}

/**
 * A new environment with its enabled plugins (and its audit entry), in one statement (so one
 * round trip, and atomic without a transaction); undefined when the name is taken.
 */
export async function createCluster(q: Queryable, c: NewCluster): Promise<ClusterRecord | undefined> {
  return (await createClusters(q, [c]))[0];
}

/**
 * Environments made in one statement, each as createCluster makes it, in the order given (ids
 * ascending): one statement a batch of creations (createClusterBatched) instead of one each. Names must
 * differ: a name already taken leaves its environment out (undefined at its place). Two such
 * statements racing for one name on PostgreSQL (two servers) go in turn, the later told it is taken
 * (migration 16's name locks); a rename racing with one can still make the unique constraint refuse
 * the statement (conflicts.ts).
 */
export async function createClusters(q: Queryable, list: readonly NewCluster[]): Promise<Array<ClusterRecord | undefined>> {
  if (new Set(list.map((c) => c.name)).size !== list.length) throw new Error('createClusters: two environments with one name in one statement');
  // A settings tree given for several (the same object: routes keep the tree a choice starts with)
  // is sent and parsed once, and stored in each.
  const trees: Array<Record<string, unknown>> = [];
  const treeIndex = new Map<Record<string, unknown>, number>();
  const input = list.map((c, ord) => {
    let tree = treeIndex.get(c.attributes);
    if (tree === undefined) treeIndex.set(c.attributes, (tree = trees.push(c.attributes) - 1));
    return { ord, name: c.name, release_id: c.releaseId, components: c.components, tree, plugins: c.plugins, audit: c.audit ? auditRow(c.audit) : null };
  });
  // One statement, through the function migration 16 made, whose plan the session keeps (planning
  // the statement anew was about 3 ms of each on the embedded database); it writes the environments,
  // their plugins and audit entries, and answers only what the database decides (reading the
  // settings back costs as much as writing them).
  const rows = await q.query<Pick<Row, 'id' | 'name' | 'status' | 'created_at'>>(
    'SELECT made_id AS id, made_name AS name, made_status AS status, made_at AS created_at FROM hearth_create_clusters($1::jsonb, $2::jsonb)',
    [json(input), json(trees)],
  );
  const made = new Map(rows.map((r) => [r.name, r]));
  return list.map((c) => {
    const row = made.get(c.name);
    return row && toRecord({ ...row, release_id: c.releaseId, components: c.components, attributes: c.attributes, deployed: null, plugins: c.plugins });
  });
}

/**
 * Whether the database refused a statement, so it wrote nothing: a lost race as conflicts.ts
 * knows them (a duplicate name, a row gone, a deadlock with another server's batch, a
 * serialization failure; the drivers' query has usually turned it into StoreConflict already),
 * or another SQLSTATE of class 22 (data) or 23 (a constraint). Connection and server failures
 * are not: their statement may have committed.
 */
const statementRefused = (err: unknown): boolean => {
  if (conflictFrom(err)) return true;
  const code = err !== null && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(22|23)[0-9A-Z]{3}$/.test(code);
};

const batches = new WeakMap<Database, WriteBatches<NewCluster, ClusterRecord | undefined>>();

/**
 * createCluster in the next statement creating environments: while one is in flight, creations
 * asked meanwhile wait and go together in the next (group commit). PGlite serves one statement at
 * a time, and a statement's own cost (planning, the commit, the round trip) was most of each
 * creation's (issue 30). A creation alone is written at once; two with one name go in turn.
 */
export function createClusterBatched(db: Database, c: NewCluster): Promise<ClusterRecord | undefined> {
  let batch = batches.get(db);
  if (!batch) batches.set(db, (batch = new WriteBatches((list) => createClusters(db, list), (item) => item.name, statementRefused)));
  return batch.add(c);
}

export async function updateCluster(q: Queryable, id: number, fields: { name?: string; attributes?: Record<string, unknown>; status?: ClusterStatus; deployed?: DeployedState }): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  const add = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (fields.name !== undefined) add('name', fields.name);
  if (fields.attributes !== undefined) add('attributes', json(fields.attributes), '::jsonb');
  if (fields.status !== undefined) add('status', fields.status);
  if (fields.deployed !== undefined) add('deployed', json(fields.deployed), '::jsonb');
  if (sets.length) await q.query(`UPDATE clusters SET ${sets.join(', ')} WHERE id = $1`, params);
}

/** Move an environment to another release (release upgrades): its release, components and settings together. */
export async function moveClusterToRelease(q: Queryable, id: number, fields: { releaseId: string; components: string[]; attributes: Record<string, unknown>; deployed?: DeployedState }): Promise<void> {
  await q.query(
    `UPDATE clusters SET release_id = $2, components = $3::jsonb, attributes = $4::jsonb${fields.deployed ? ', deployed = $5::jsonb' : ''} WHERE id = $1`,
    [id, fields.releaseId, json(fields.components), json(fields.attributes), ...(fields.deployed ? [json(fields.deployed)] : [])],
  );
}

/** Replace the set of enabled plugin versions (name → id). */
export async function setClusterPlugins(q: Queryable, id: number, plugins: Record<string, string>): Promise<void> {
  await q.query('DELETE FROM cluster_plugins WHERE cluster_id = $1', [id]);
  for (const [name, pluginId] of Object.entries(plugins)) {
    await q.query('INSERT INTO cluster_plugins (cluster_id, plugin_name, plugin_id) VALUES ($1, $2, $3)', [id, name, pluginId]);
  }
}

export async function deleteCluster(q: Queryable, id: number): Promise<boolean> {
  return (await q.query('DELETE FROM clusters WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** Environments where a plugin version is enabled (it cannot be uninstalled while any is). */
export async function clustersEnablingPlugin(q: Queryable, pluginId: string): Promise<Array<{ id: number; name: string }>> {
  return q.query('SELECT c.id, c.name FROM clusters c JOIN cluster_plugins cp ON cp.cluster_id = c.id WHERE cp.plugin_id = $1 ORDER BY c.id', [pluginId]);
}
