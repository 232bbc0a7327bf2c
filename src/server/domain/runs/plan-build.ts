/**
 * Planning a deployment off the request thread (deploy-plan.ts says what a plan is): the graph and
 * its plan are built in a worker, as graph answers are (graph-build.ts: one worker a plan, its heap
 * capped, given up after a minute). This module imports only core and the runner's marker types,
 * so the worker loads little.
 */
import { planDeployment, type ClusterGraphInput, type DeploymentPlan } from '../../../core/graph/index.js';
import { MARKER_TYPES } from '../../../deploy/tasks.js';
import { HttpError } from '../../errors.js';
import { GRAPH_BUILD_TIMEOUT_MS } from '../graph-build.js';
import { runInWorker, workerScript } from '../worker-run.js';

/** What the worker is given: plain data, cloned into it. */
export interface PlanJob {
  input: ClusterGraphInput;
  resume?: { deploymentId: number; done: string[] };
  deployedBy?: number;
  names: Record<string, string>;
}

/** The plan, computed here (the worker's body, and the fallback without a worker script). */
export function planOfJob(job: PlanJob): DeploymentPlan {
  return planDeployment(job.input, {
    markers: MARKER_TYPES,
    ...(job.resume ? { resume: { deploymentId: job.resume.deploymentId, done: new Set(job.resume.done) } } : {}),
    ...(job.deployedBy !== undefined ? { deployedBy: job.deployedBy } : {}),
    nodeName: (id) => job.names[id],
  });
}

export function planInWorker(job: PlanJob): Promise<DeploymentPlan> {
  const script = workerScript('runs/plan-worker');
  if (!script) return Promise.resolve(planOfJob(job));
  return runInWorker<DeploymentPlan>(script, {
    data: job,
    heapMb: 1024,
    timeoutMs: GRAPH_BUILD_TIMEOUT_MS,
    tooSlow: () => new HttpError(503, 'graph/too-slow', `planning the deployment took more than ${GRAPH_BUILD_TIMEOUT_MS / 1000} s; it was given up`, { hint: 'fewer nodes per environment (--max-environment-nodes) keep graphs quick' }),
    what: 'planning the deployment',
    who: 'the deployment planner',
  });
}

