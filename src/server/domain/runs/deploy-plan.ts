/**
 * What a deployment will run, before it runs (issue 25): core's plan (planDeployment) over the
 * environment's graph input, the last deployed state and, with resume, the run being resumed,
 * read here; the plan itself is made in a worker (plan-build.ts), so a large environment's plan
 * does not stop the server answering everyone else. Node ids become the environment's (integers)
 * with their names; the master's tasks, if the graph has any, are apart.
 */
import { MASTER_NODE, type PlannedNode } from '../../../core/graph/index.js';
import type * as store from '../../../store/index.js';
import * as runs from '../../../store/task-runs.js';
import { HttpError } from '../../errors.js';
import { clusterGraphInput } from './deploy.js';
import { clusterOr404 } from '../environment.js';
import { planInWorker, type PlanJob } from './plan-build.js';

export async function deployPlan(q: store.Queryable, clusterId: number, type: string, options: { resume?: boolean } = {}) {
  const cluster = await clusterOr404(q, clusterId);
  const { input, nodes, composition } = await clusterGraphInput(q, cluster, type);
  let resume: PlanJob['resume'];
  if (options.resume) {
    const r = await runs.resumable(q, cluster.id, type);
    if ('refusal' in r) throw new HttpError(409, 'deploy/nothing-to-resume', `cannot resume environment '${cluster.name}': ${r.refusal}`, { hint: 'plan without resume=true' });
    resume = { deploymentId: r.id, done: [...r.done] };
  }
  const deployedBy = cluster.deployed?.deploymentId;
  const names = Object.fromEntries(nodes.map((n) => [String(n.id), n.name]));
  const plan = await planInWorker({ input, ...(resume ? { resume } : {}), ...(deployedBy !== undefined ? { deployedBy } : {}), names });
  const tasksOf = (n: PlannedNode) => n.tasks.map((t) => ({ id: t.id, runs: t.runs, reason: t.reason, cause: t.cause, type: t.type }));
  const master = plan.nodes.find((n) => n.id === MASTER_NODE);
  return {
    graph_type: plan.graph_type,
    first_deployment: plan.first_deployment,
    deployed_by: deployedBy ?? null,
    resumes: resume?.deploymentId ?? null,
    counts: plan.counts,
    nodes: plan.nodes.filter((n) => n !== master).map((n) => ({ id: Number(n.id), name: names[n.id] ?? n.id, roles: n.roles, new: n.new, counts: n.counts, tasks: tasksOf(n) })),
    master: master ? { counts: master.counts, tasks: tasksOf(master) } : null,
    cycle: plan.cycle ?? null,
    findings: [...composition.findings, ...plan.findings],
  };
}
