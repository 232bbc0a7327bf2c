/**
 * Networks of environments: the configuration the operator edited, the addresses handed out to
 * nodes and VIPs, and each node's interface mapping. The plans themselves are core's
 * (src/core/networks); this file only keeps them. The UNIQUE constraint on (environment, network,
 * address) is the last word on "never two holders of one address" (migrations.ts, version 10).
 */
import type { AddressAssignment, NetworkConfiguration, NodeInterface, VipAssignment } from '../core/networks/model.js';
import { type Queryable, json } from './database.js';

export async function networkConfiguration(q: Queryable, clusterId: number): Promise<NetworkConfiguration | undefined> {
  const [row] = await q.query<{ body: NetworkConfiguration }>('SELECT body FROM network_configurations WHERE cluster_id = $1', [clusterId]);
  return row?.body;
}

export async function saveNetworkConfiguration(q: Queryable, clusterId: number, body: NetworkConfiguration): Promise<void> {
  await q.query(
    `INSERT INTO network_configurations (cluster_id, body) VALUES ($1, $2::jsonb)
     ON CONFLICT (cluster_id) DO UPDATE SET body = EXCLUDED.body, updated_at = now()`,
    [clusterId, json(body)],
  );
}

/** Node addresses of an environment, by node id then network (the order `network_data` lists them). */
export async function nodeAddresses(q: Queryable, filter: { clusterId: number } | { nodeIds: readonly number[] }): Promise<Array<AddressAssignment & { nodeId: number }>> {
  const rows =
    'clusterId' in filter
      ? await q.query<{ node_id: number; network: string; ip: string }>('SELECT node_id, network, ip FROM network_addresses WHERE cluster_id = $1 AND node_id IS NOT NULL ORDER BY node_id, network', [filter.clusterId])
      : await q.query<{ node_id: number; network: string; ip: string }>('SELECT node_id, network, ip FROM network_addresses WHERE node_id = ANY($1::int[]) ORDER BY node_id, network', [filter.nodeIds]);
  return rows.map((r) => ({ nodeId: r.node_id, node: String(r.node_id), network: r.network, ip: r.ip }));
}

export async function vips(q: Queryable, clusterId: number): Promise<VipAssignment[]> {
  const rows = await q.query<AddressRow>(
    'SELECT vip, network, ip, network_role, namespace, node_roles, is_user_defined FROM network_addresses WHERE cluster_id = $1 AND vip IS NOT NULL ORDER BY vip',
    [clusterId],
  );
  return rows.map(vipOf);
}

const vipOf = (r: AddressRow): VipAssignment => ({ name: r.vip!, network: r.network, ip: r.ip, network_role: r.network_role ?? '', namespace: r.namespace, node_roles: (r.node_roles as string[] | null) ?? [], ...(r.is_user_defined ? { is_user_defined: true } : {}) });

/** Every address row of an environment, read once: its nodes' addresses and its VIPs, and the rows as stored (for replaceAddresses). */
export interface StoredAddresses {
  nodes: Array<AddressAssignment & { nodeId: number }>;
  vips: VipAssignment[];
  rows: readonly AddressRow[];
}

export async function storedAddresses(q: Queryable, clusterId: number): Promise<StoredAddresses> {
  // Node rows by node then network, VIP rows (no node: last) by name: the orders nodeAddresses and
  // vips give, in the database's collation.
  const rows = await q.query<AddressRow>('SELECT network, ip, node_id, vip, network_role, namespace, node_roles, is_user_defined FROM network_addresses WHERE cluster_id = $1 ORDER BY node_id, vip, network', [clusterId]);
  return {
    nodes: rows.filter((r) => r.node_id !== null).map((r) => ({ nodeId: r.node_id!, node: String(r.node_id), network: r.network, ip: r.ip })),
    vips: rows.filter((r) => r.vip !== null).map(vipOf),
    rows,
  };
}

/**
 * Makes the environment's stored addresses the plan's: rows the plan no longer has go, new ones are
 * added, unchanged ones stay untouched (a node keeps its address across plans). Removals are made
 * first, so an address moving from one holder to another does not collide with itself. A holder
 * another server gave the same address meanwhile makes the insert fail on the constraint, which
 * the caller's transaction turns into a conflict (conflicts.ts).
 */
export async function replaceAddresses(
  q: Queryable,
  clusterId: number,
  addresses: ReadonlyArray<{ nodeId: number; network: string; ip: string }>,
  vipList: readonly VipAssignment[],
  /** The rows as storedAddresses read them in this transaction (read here when not given). */
  already?: StoredAddresses,
): Promise<void> {
  const wanted: AddressRow[] = [
    ...addresses.map((a) => ({ network: a.network, ip: a.ip, node_id: a.nodeId, vip: null, network_role: null, namespace: null, node_roles: null, is_user_defined: false })),
    ...vipList.map((v) => ({ network: v.network, ip: v.ip, node_id: null, vip: v.name, network_role: v.network_role, namespace: v.namespace, node_roles: v.node_roles, is_user_defined: v.is_user_defined === true })),
  ];
  // The difference is found here and only it is written: a role given to one node of 300 changes
  // a few rows. The SQL that compared every stored row with every wanted one (re-reading the wanted
  // list from JSON for each) made a role assignment cost O(nodes^2) in the database.
  const stored = (already ?? (await storedAddresses(q, clusterId))).rows;
  const wantedRows = new Set(wanted.map(rowKey));
  const gone: AddressRow[] = [];
  const kept = new Set<string>();
  for (const r of stored) {
    if (wantedRows.has(rowKey(r))) kept.add(placeKey(r));
    else gone.push(r);
  }
  if (gone.length) {
    await q.query('DELETE FROM network_addresses a USING unnest($2::text[], $3::text[]) AS g(network, ip) WHERE a.cluster_id = $1 AND a.network = g.network AND a.ip = g.ip', [clusterId, gone.map((r) => r.network), gone.map((r) => r.ip)]);
  }
  const fresh = wanted.filter((w) => !kept.has(placeKey(w)));
  if (!fresh.length) return;
  await q.query(
    `INSERT INTO network_addresses (cluster_id, network, ip, node_id, vip, network_role, namespace, node_roles, is_user_defined)
     SELECT $1, (r->>'network'), (r->>'ip'), (r->>'node_id')::int, (r->>'vip'), (r->>'network_role'), (r->>'namespace'), (r->'node_roles'), (r->>'is_user_defined')::boolean FROM jsonb_array_elements($2::jsonb) r`,
    [clusterId, json(fresh)],
  );
}

export interface AddressRow {
  network: string;
  ip: string;
  node_id: number | null;
  vip: string | null;
  network_role: string | null;
  namespace: string | null;
  node_roles: unknown;
  is_user_defined: boolean;
}

/** A row whole, as the old SQL compared it (jsonb node_roles by value). */
const rowKey = (r: AddressRow): string => JSON.stringify([r.network, r.ip, r.node_id ?? null, r.vip ?? null, r.network_role ?? null, r.namespace ?? null, r.node_roles ?? null, r.is_user_defined === true]);
/** Whose address it is where: a kept row with this key makes a wanted one already there. */
const placeKey = (r: AddressRow): string => JSON.stringify([r.network, r.ip, r.node_id ?? null, r.vip ?? null]);

/** The node's interfaces as the operator mapped them; undefined: never mapped by hand. */
export async function nodeInterfaces(q: Queryable, nodeIds: readonly number[]): Promise<Map<number, NodeInterface[]>> {
  if (!nodeIds.length) return new Map();
  const rows = await q.query<{ node_id: number; interfaces: NodeInterface[] }>('SELECT node_id, interfaces FROM node_interfaces WHERE node_id = ANY($1::int[])', [nodeIds]);
  return new Map(rows.map((r) => [r.node_id, r.interfaces]));
}

export async function saveNodeInterfaces(q: Queryable, nodeId: number, clusterId: number, interfaces: readonly NodeInterface[]): Promise<void> {
  await q.query(
    `INSERT INTO node_interfaces (node_id, cluster_id, interfaces) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (node_id) DO UPDATE SET cluster_id = EXCLUDED.cluster_id, interfaces = EXCLUDED.interfaces`,
    [nodeId, clusterId, json(interfaces)],
  );
}

/** A node leaving its environment gives back its addresses and forgets its mapping (they were the environment's). */
export async function releaseNodeNetworks(q: Queryable, nodeIds: readonly number[]): Promise<void> {
  if (!nodeIds.length) return;
  await q.query('DELETE FROM network_addresses WHERE node_id = ANY($1::int[])', [nodeIds]);
  await q.query('DELETE FROM node_interfaces WHERE node_id = ANY($1::int[])', [nodeIds]);
}

/** Forget an environment's addresses and VIPs on networks it no longer has (release upgrades). */
export async function forgetNetworkAddresses(q: Queryable, clusterId: number, networks: readonly string[]): Promise<void> {
  if (networks.length) await q.query('DELETE FROM network_addresses WHERE cluster_id = $1 AND network = ANY($2::text[])', [clusterId, networks]);
}
