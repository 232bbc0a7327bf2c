/**
 * The worker of graph-build.ts: builds environments' graphs with core and posts it back as the
 * text of the answer (JSON, DOT or Mermaid), so the request thread only sends it; or a deployment's
 * graph, its conditions under a time limit (deployGraphOf).
 */
import { parentPort } from 'node:worker_threads';
import type { Finding } from '../../core/findings.js';
import { deployGraphOf, graphAnswerText, type GraphFormat } from './graph-build.js';

type GraphJob = { input: Parameters<typeof graphAnswerText>[0]; format: GraphFormat; findings: Finding[]; deployLimitMs?: number };

// A warm worker (worker-pool.ts): one build at a time, for as long as the server keeps it.
parentPort!.on('message', ({ id, data }: { id: number; data: GraphJob }) => {
  try {
    const { input, format, findings, deployLimitMs } = data;
    // A deployment's graph comes back as the graph itself (its typed arrays cloned), not as text.
    parentPort!.postMessage({ id, result: deployLimitMs !== undefined ? deployGraphOf(input, deployLimitMs) : graphAnswerText(input, format, findings) });
  } catch (err) {
    parentPort!.postMessage({ id, crash: (err as Error)?.stack ?? String(err) });
  }
});
