/** The worker of template-queries.ts (a warm one, worker-pool.ts): answers template queries, one at a time. */
import { parentPort } from 'node:worker_threads';
import { answerTemplateQuery, type TemplateQuery } from './template-queries.js';

parentPort!.on('message', ({ id, data }: { id: number; data: TemplateQuery }) => {
  try {
    parentPort!.postMessage({ id, result: answerTemplateQuery(data) });
  } catch (err) {
    parentPort!.postMessage({ id, crash: (err as Error)?.stack ?? String(err) });
  }
});
