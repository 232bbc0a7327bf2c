/**
 * What a deployment will run, before it runs (issue 25), like `terraform plan`: per node, each task
 * of the graph and whether it runs, with why. The verdicts are the graph's own (`skipped`, as the
 * runner reads it) and a resumed run's finished tasks (as the runner skips them); the reasons come
 * from explain.ts over the deployment data the conditions were evaluated on.
 */
import type { Finding } from '../findings.js';
import { clusterGraphWithData, type ClusterGraphInput, type ConditionData } from './cluster.js';
import { NODE_KEYS } from './deployment-info.js';
import { explainCache, explainCondition, type ExplainScope } from './explain.js';
import { MASTER_NODE, SYNC_NODE, type DeploymentGraph, type TaskPair } from './model.js';

/**
 * Why a task runs or not: it has no condition (runs every time); its condition holds or not; it is
 * a marker (stage, group, type skipped) that runs nothing; it succeeded in the run being resumed.
 */
export type PlanCause = 'no_condition' | 'condition_true' | 'condition_false' | 'marker' | 'resumed';

export interface PlannedTask {
  id: string;
  type: string;
  runs: boolean;
  cause: PlanCause;
  reason: string;
}

export interface PlannedNode {
  /** The graph's node id (the environment's node id as text, or `master`). */
  id: string;
  roles: string[];
  /** Absent from the last deployment (or nothing was deployed yet). */
  new: boolean;
  /** In the order the runner may start them. */
  tasks: PlannedTask[];
  counts: { run: number; skipped: number; markers: number };
}

export interface DeploymentPlan {
  graph_type: string;
  /** Nothing was deployed before: every lifecycle condition holds. */
  first_deployment: boolean;
  nodes: PlannedNode[];
  /** Tasks that run, on how many nodes; tasks that do not (markers apart). */
  counts: { run: number; nodes_run: number; skipped: number; markers: number; nodes: number };
  cycle?: TaskPair[];
  findings: Finding[];
}

export interface PlanOptions {
  /** Task types that run nothing (the runner's markers: stage, group, skipped). */
  markers: ReadonlySet<string>;
  /** A resumed run: the run it continues and the `node\0task` pairs that succeeded there. */
  resume?: { deploymentId: number; done: ReadonlySet<string> };
  /** The deployment whose state lifecycle conditions compare with, for "unchanged since …". */
  deployedBy?: number;
  /** A node's name by graph node id, for messages about the node list. */
  nodeName?: (id: string) => string | undefined;
}

export function planDeployment(input: ClusterGraphInput, options: PlanOptions): DeploymentPlan {
  const { graph, data } = clusterGraphWithData(input);
  return planOfGraph(graph, data, input.type ?? 'default', options);
}

/** The plan of a graph already built, with the data its conditions read (absent: they were not evaluated). */
export function planOfGraph(graph: DeploymentGraph, data: ConditionData | undefined, graphType: string, options: PlanOptions): DeploymentPlan {
  const cache = explainCache(NODE_KEYS);
  const since = options.deployedBy !== undefined ? `the last deployment (${options.deployedBy})` : 'the last deployment';
  // Fuel's network_metadata names nodes `node-<id>`: say which host that is.
  const label = (key: string) => {
    const m = /^node-(.+)$/.exec(key);
    const name = m ? options.nodeName?.(m[1]) : undefined;
    return name && name !== key ? `${key} '${name}'` : key;
  };
  const position = new Int32Array(graph.barrierBase);
  if (graph.order) graph.order.forEach((v, i) => (v < graph.barrierBase ? (position[v] = i) : undefined));
  else for (let v = 0; v < graph.barrierBase; v++) position[v] = v;

  const nodes: PlannedNode[] = [];
  for (const node of graph.nodes) {
    if (node.id === SYNC_NODE) continue;
    const slots = graph.classes[node.classIndex].slots;
    const isNew = !data?.previous || !data.previous.nodes.has(node.id);
    let scope: ExplainScope | undefined;
    const scopeOf = (): ExplainScope => {
      if (scope) return scope;
      const own = data ? data.nodeData(node) : {};
      const before = data?.previous?.nodes.get(node.id);
      scope = {
        data: { ...(data?.common ?? {}), ...own },
        ...(before && data?.previous ? { old: { ...data.previous.common, ...before.overlay } } : {}),
        whyNoOld: data?.previous ? 'new node' : 'first deployment',
        since,
        label,
      };
      return scope;
    };
    const order = slots.map((_, i) => i).sort((a, b) => position[node.base + a] - position[node.base + b]);
    const tasks: PlannedTask[] = [];
    const counts = { run: 0, skipped: 0, markers: 0 };
    for (const i of order) {
      const v = node.base + i;
      const { id, task } = slots[i];
      const base = { id, type: task.type };
      let planned: PlannedTask;
      if (options.markers.has(task.type)) planned = { ...base, runs: false, cause: 'marker', reason: task.type === 'skipped' ? 'type skipped: never runs' : `a ${task.type}: runs nothing itself` };
      else if (options.resume?.done.has(`${node.id}\u0000${id}`)) planned = { ...base, runs: false, cause: 'resumed', reason: `succeeded in deployment ${options.resume.deploymentId}, which this run resumes` };
      else if (task.condition === undefined) planned = { ...base, runs: true, cause: 'no_condition', reason: 'no condition: runs on every deployment' };
      else {
        const runs = graph.skipped[v] !== 1;
        // Without the data (conditions taken as true), say so rather than explain.
        const reason = data ? explainCondition(task.condition, runs, scopeOf(), cache) : 'conditions were not evaluated: taken as true';
        planned = { ...base, runs, cause: runs ? 'condition_true' : 'condition_false', reason };
      }
      if (planned.cause === 'marker') counts.markers++;
      else if (planned.runs) counts.run++;
      else counts.skipped++;
      tasks.push(planned);
    }
    // The master appears only where the graph gives it something to run.
    if (node.id === MASTER_NODE && counts.run + counts.skipped === 0) continue;
    nodes.push({ id: node.id, roles: node.roles, new: isNew, tasks, counts });
  }
  const sum = (k: 'run' | 'skipped' | 'markers') => nodes.reduce((n, x) => n + x.counts[k], 0);
  return {
    graph_type: graphType,
    first_deployment: !data?.previous,
    nodes,
    counts: { run: sum('run'), nodes_run: nodes.filter((n) => n.counts.run > 0).length, skipped: sum('skipped'), markers: sum('markers'), nodes: nodes.length },
    ...(graph.cycle ? { cycle: graph.cycle } : {}),
    findings: graph.findings,
  };
}
