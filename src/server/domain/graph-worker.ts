/**
 * The worker of graph-build.ts: builds one environment's graph with core and posts it back as the
 * text of the answer (JSON, DOT or Mermaid), so the request thread only sends it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { graphForCluster } from '../../core/graph/index.js';
import { graphToDot, graphToJson, graphToMermaid } from '../../core/graph/format.js';
import type { Finding } from '../../core/findings.js';

try {
  const { input, format, findings } = workerData as { input: Parameters<typeof graphForCluster>[0]; format: 'json' | 'dot' | 'mermaid'; findings: Finding[] };
  const graph = graphForCluster(input);
  const text =
    format === 'dot'
      ? graphToDot(graph)
      : format === 'mermaid'
        ? graphToMermaid(graph)
        : JSON.stringify({ ...graphToJson(graph), critical_path: graph.criticalPath, makespan_s: graph.makespan, cycle: graph.cycle ?? null, findings: [...findings, ...graph.findings] });
  parentPort!.postMessage({ text });
} catch (err) {
  parentPort!.postMessage({ crash: (err as Error)?.stack ?? String(err) });
}
