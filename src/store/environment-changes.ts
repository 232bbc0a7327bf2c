/**
 * What an environment's event stream compares from one look to the next (GET /clusters/:id/events):
 * one statement reading the environment's status, its nodes' statuses and roles, and its running
 * and latest deployments, small enough to run every half second for every environment followed.
 * Whatever changed is then read in full, as the API shows it, by the stream's caller.
 */
import type { Queryable } from './database.js';

export interface EnvironmentLook {
  /** The environment's status and what else its view shows that can change (name, plugins, deployed at). */
  environment: { status: string; signature: string };
  nodes: Array<{ id: number; status: string; signature: string }>;
  /** The running deployments and the latest one. */
  deployments: Array<{ id: number; status: string; signature: string }>;
}

interface Row {
  status: string;
  signature: string;
  nodes: Array<[number, string, string]>;
  deployments: Array<[number, string, string]>;
}

/** The environment's look now, or undefined when it is gone. */
export async function lookAtEnvironment(q: Queryable, clusterId: number): Promise<EnvironmentLook | undefined> {
  const rows = await q.query<Row>(
    `SELECT c.status,
       concat_ws(E'\\x1f', c.status, c.name, c.deployed->>'at', (SELECT string_agg(p.plugin_id, ',' ORDER BY p.plugin_id) FROM cluster_plugins p WHERE p.cluster_id = c.id)) AS signature,
       (SELECT coalesce(json_agg(json_build_array(n.id, n.status, concat_ws(E'\\x1f', n.status, n.name, n.roles::text, n.pending_roles::text)) ORDER BY n.id), '[]'::json)
          FROM nodes n WHERE n.cluster_id = c.id) AS nodes,
       (SELECT coalesce(json_agg(json_build_array(d.id, d.status, concat_ws(E'\\x1f', d.status, d.done, d.stop_requested, d.message)) ORDER BY d.id), '[]'::json)
          FROM deployments d WHERE d.cluster_id = c.id AND (d.status = 'running' OR d.id = (SELECT max(l.id) FROM deployments l WHERE l.cluster_id = c.id))) AS deployments
     FROM clusters c WHERE c.id = $1`,
    [clusterId],
  );
  const r = rows[0];
  if (!r) return undefined;
  // PGlite and node-postgres both parse json columns; a driver that does not hands text.
  const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  return {
    environment: { status: r.status, signature: r.signature },
    nodes: parse(r.nodes).map(([id, status, signature]) => ({ id, status, signature })),
    deployments: parse(r.deployments).map(([id, status, signature]) => ({ id, status, signature })),
  };
}
