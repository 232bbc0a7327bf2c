/** The worker of plan-build.ts: builds an environment's graph and its plan with core, and posts the plan back. */
import { parentPort, workerData } from 'node:worker_threads';
import { planOfJob, type PlanJob } from './plan-build.js';

try {
  parentPort!.postMessage({ result: planOfJob(workerData as PlanJob) });
} catch (err) {
  parentPort!.postMessage({ crash: (err as Error)?.stack ?? String(err) });
}
