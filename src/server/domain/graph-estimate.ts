/**
 * The Graph tab's estimate (issue 25): how long a run of an environment's graph takes, from how
 * long its tasks took before. Each task's median over this environment's past real runs of the
 * graph, else over this release's, else its timeout (an upper bound, said so), played the way the
 * runner walks the graph (core's estimateRun), which also gives the order the tasks start in.
 */
import { describeVertex, estimateRun, nodeOfVertex } from '../../core/graph/index.js';
import { MARKER_TYPES } from '../../deploy/index.js';
import type * as store from '../../store/index.js';
import { pastTaskDurations } from '../../store/task-durations.js';
import { HttpError } from '../errors.js';
import { clusterGraphInput } from './runs/deploy.js';
import { clusterOr404 } from './environment.js';
import { buildDeployGraph } from './graph-build.js';

export type DurationBasis = 'environment' | 'release' | 'timeout';

/** The most tasks an answer lists in run order (a graph of 1,000 nodes has 100,000). */
export const ORDER_LIMIT = 20_000;

export async function graphEstimate(q: store.Queryable, clusterId: number, type: string) {
  const cluster = await clusterOr404(q, clusterId);
  // Built as a deployment's is: in a graph worker, its conditions under the graph's time limit.
  const graph = await buildDeployGraph((await clusterGraphInput(q, cluster, type)).input);
  if (graph.cycle) throw new HttpError(409, 'graph/cycle', `the '${type}' graph of environment '${cluster.name}' has a cycle, so it cannot run`, { hint: 'see GET /clusters/{id}/graphs/{type} for the cycle' });
  const [here, release] = await Promise.all([pastTaskDurations(q, { clusterId: cluster.id }, type), pastTaskDurations(q, { releaseId: cluster.releaseId }, type)]);
  const slotOf = (v: number) => {
    const node = graph.nodes[nodeOfVertex(graph, v)];
    return graph.classes[node.classIndex].slots[v - node.base];
  };
  const basisOf = (taskId: string): DurationBasis => (here.byTask.has(taskId) ? 'environment' : release.byTask.has(taskId) ? 'release' : 'timeout');
  const seconds = (v: number) => {
    const slot = slotOf(v);
    return here.byTask.get(slot.id)?.seconds ?? release.byTask.get(slot.id)?.seconds ?? slot.duration;
  };
  const estimate = estimateRun(graph, { duration: seconds, marker: (v) => MARKER_TYPES.has(slotOf(v).task.type) });
  const bases: Record<DurationBasis, Set<string>> = { environment: new Set(), release: new Set(), timeout: new Set() };
  for (const v of estimate.order) bases[basisOf(slotOf(v).id)].add(slotOf(v).id);
  return {
    graph_type: type,
    makespan_s: Math.round(estimate.makespan * 10) / 10,
    past_runs: { environment: here.runs, release: release.runs },
    tasks: { environment: bases.environment.size, release: bases.release.size, timeout: bases.timeout.size },
    order_total: estimate.order.length,
    order: estimate.order.slice(0, ORDER_LIMIT).map((v) => {
      const { node, task } = describeVertex(graph, v);
      const basis = basisOf(task);
      return { node, task, start_s: round(estimate.start[v]), duration_s: round(estimate.finish[v] - estimate.start[v]), basis, ...(basis === 'timeout' ? {} : { runs: (basis === 'environment' ? here : release).byTask.get(task)!.runs }) };
    }),
    critical_path: estimate.criticalPath,
  };
}

const round = (s: number) => Math.round(s * 100) / 100;
