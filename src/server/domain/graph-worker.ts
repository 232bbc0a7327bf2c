/**
 * The worker of graph-build.ts: builds environments' graphs with core and posts it back as the
 * text of the answer (JSON, DOT or Mermaid), so the request thread only sends it; or a deployment's
 * graph, its conditions under a time limit (deployGraphOf).
 */
import { parentPort } from 'node:worker_threads';
import type { Finding } from '../../core/findings.js';
import type { DeploymentGraph } from '../../core/graph/index.js';
import { deployGraphOf, graphAnswerText, type GraphFormat } from './graph-build.js';

/** The distinct buffers under a graph's typed arrays (a buffer may be listed only once). */
function buffersOf(graph: DeploymentGraph): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const value of Object.values(graph)) if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
  return [...buffers];
}

type GraphJob = { input: Parameters<typeof graphAnswerText>[0]; format: GraphFormat; findings: Finding[]; deployLimitMs?: number };

// A warm worker (worker-pool.ts): one build at a time, for as long as the server keeps it.
parentPort!.on('message', ({ id, data }: { id: number; data: GraphJob }) => {
  try {
    const { input, format, findings, deployLimitMs } = data;
    if (deployLimitMs === undefined) {
      parentPort!.postMessage({ id, result: graphAnswerText(input, format, findings) });
      return;
    }
    // A deployment's graph comes back as the graph itself, not as text, its typed arrays (most of
    // its bytes: edges, order, times) handed over rather than copied: this worker is done with them.
    const result = deployGraphOf(input, deployLimitMs);
    try {
      parentPort!.postMessage({ id, result }, 'graph' in result ? buffersOf(result.graph) : []);
    } catch {
      // A buffer that cannot be handed over (none today) is copied, as before.
      parentPort!.postMessage({ id, result });
    }
  } catch (err) {
    parentPort!.postMessage({ id, crash: (err as Error)?.stack ?? String(err) });
  }
});
