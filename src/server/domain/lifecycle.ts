/**
 * Resetting an environment back to undeployed, as Fuel's reset did: its nodes keep the roles they
 * had, now pending (a deployment installs them again), the record of the last deployment goes (so
 * plugins it was deployed with may be disabled again), and the status is `new`. Refused while a
 * deployment runs. Past deployments and their logs stay in the history.
 */
import * as store from '../../store/index.js';
import { HttpError } from '../errors.js';
import { clusterOr404 } from './environment.js';

export async function resetEnvironment(q: store.Queryable, id: number): Promise<store.ClusterRecord> {
  const cluster = await clusterOr404(q, id, { lock: true });
  if (cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is being deployed; it can be reset when the deployment ends`);
  await q.query(
    `UPDATE nodes SET pending_roles = COALESCE((SELECT jsonb_agg(DISTINCT r ORDER BY r) FROM jsonb_array_elements_text(nodes.roles || nodes.pending_roles) AS r), '[]'::jsonb), roles = '[]'::jsonb, status = ${store.UNDEPLOYED} WHERE cluster_id = $1`,
    [cluster.id],
  );
  await q.query(`UPDATE clusters SET status = 'new', deployed = NULL WHERE id = $1`, [cluster.id]);
  return clusterOr404(q, cluster.id);
}
