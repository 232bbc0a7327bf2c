/**
 * The end of a deletion run started to remove nodes (or a whole environment), decided in the
 * run's end transaction (real-deploy.ts) once each node's state after the run is known. A node
 * leaves its environment only when the deletion graph succeeded on it (docs/lifecycle.md:
 * `removing` → `discovered`); otherwise it stays, in `error` when one of its tasks broke (the
 * run's task output says why), or back in its state before when the run ended first (a stop).
 */
import * as store from '../../../store/index.js';

/** What a deletion run was started to remove: these nodes, and the environment itself when `environment`. */
export interface Removal {
  nodes: readonly number[];
  environment?: boolean;
}

/** `cleaned`: the nodes whose own tasks in the deletion run all ran through (core's ranThrough). */
export async function endRemoval(tx: store.Queryable, clusterId: number, removal: Removal, cleanedNodes: ReadonlySet<number>): Promise<void> {
  const cleaned = removal.nodes.filter((id) => cleanedNodes.has(id));
  if (cleaned.length) await store.unassignNodes(tx, cleaned);
  if (!removal.environment) return;
  if (cleaned.length === removal.nodes.length) {
    // Every deployed node is clean: the rest (never deployed) return to the pool, the environment goes.
    const rest = await store.listNodes(tx, { clusterId });
    if (rest.length) await store.unassignNodes(tx, rest.map((n) => n.id));
    await store.deleteCluster(tx, clusterId);
  } else await store.updateCluster(tx, clusterId, { status: 'error' });
}
