/**
 * The worker of graph-build.ts: builds one environment's graph with core and posts it back as the
 * text of the answer (JSON, DOT or Mermaid), so the request thread only sends it; or a deployment's
 * graph, its conditions under a time limit (deployGraphOf).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Finding } from '../../core/findings.js';
import { deployGraphOf, graphAnswerText, type GraphFormat } from './graph-build.js';

try {
  const { input, format, findings, deployLimitMs } = workerData as { input: Parameters<typeof graphAnswerText>[0]; format: GraphFormat; findings: Finding[]; deployLimitMs?: number };
  // A deployment's graph comes back as the graph itself (its typed arrays cloned), not as text.
  parentPort!.postMessage({ result: deployLimitMs !== undefined ? deployGraphOf(input, deployLimitMs) : graphAnswerText(input, format, findings) });
} catch (err) {
  parentPort!.postMessage({ crash: (err as Error)?.stack ?? String(err) });
}
