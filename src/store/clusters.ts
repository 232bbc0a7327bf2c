/**
 * Environments (Fuel's clusters): the chosen release and components, the settings tree, which
 * version of each plugin is enabled, and what was last deployed (lifecycle conditions compare
 * against it).
 */
import type { EnvironmentState } from '../core/lifecycle/index.js';
import { type Queryable, json } from './database.js';

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

/**
 * A new environment with its enabled plugins, in one statement (so one round trip, and atomic
 * without a transaction); undefined when the name is taken. Two requests racing for one name on
 * PostgreSQL can both pass the check: the unique constraint then refuses one (conflicts.ts).
 */
export async function createCluster(q: Queryable, c: { name: string; releaseId: string; components: string[]; attributes: Record<string, unknown>; plugins: Record<string, string> }): Promise<ClusterRecord | undefined> {
  // Only what the database decides comes back: reading the settings back costs as much as writing them.
  const rows = await q.query<Pick<Row, 'id' | 'status' | 'created_at'>>(
    `WITH c AS (
       INSERT INTO clusters (name, release_id, components, attributes)
       SELECT $1, $2, $3::jsonb, $4::jsonb WHERE NOT EXISTS (SELECT 1 FROM clusters WHERE name = $1)
       RETURNING id, status, created_at),
     p AS (
       INSERT INTO cluster_plugins (cluster_id, plugin_name, plugin_id)
       SELECT c.id, e.key, e.value FROM c, jsonb_each_text($5::jsonb) e)
     SELECT id, status, created_at FROM c`,
    [c.name, c.releaseId, json(c.components), json(c.attributes), json(c.plugins)],
  );
  const row = rows[0];
  return row && toRecord({ ...row, name: c.name, release_id: c.releaseId, components: c.components, attributes: c.attributes, deployed: null, plugins: c.plugins });
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
