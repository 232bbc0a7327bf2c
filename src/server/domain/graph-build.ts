/**
 * Building a graph answer off the request thread. A graph grows with the nodes (a 1,000-node
 * environment's takes a noticeable part of a second to build and serialise); in a worker it no
 * longer stops the server answering everyone else meanwhile (worker-run.ts: one worker a build,
 * with a capped heap and a time limit, as plugin reads run).
 */
import { graphForCluster } from '../../core/graph/index.js';
import { graphToDot, graphToJson, graphToMermaid } from '../../core/graph/format.js';
import type { Finding } from '../../core/findings.js';
import { HttpError } from '../errors.js';
import { runInWorker, workerScript } from './worker-run.js';

export type GraphFormat = 'json' | 'dot' | 'mermaid';

/** A build that takes longer than this is given up. */
export const GRAPH_BUILD_TIMEOUT_MS = 60_000;
const GRAPH_BUILD_HEAP_MB = 1024;

/** The text of a graph answer in one format: what the worker posts back (and what is built here without one). */
export function graphAnswerText(input: Parameters<typeof graphForCluster>[0], format: GraphFormat, findings: Finding[]): string {
  const graph = graphForCluster(input);
  if (format === 'dot') return graphToDot(graph);
  if (format === 'mermaid') return graphToMermaid(graph);
  return JSON.stringify({ ...graphToJson(graph), critical_path: graph.criticalPath, makespan_s: graph.makespan, cycle: graph.cycle ?? null, findings: [...findings, ...graph.findings] });
}

/** The text of a graph answer, built in a worker thread. */
export function buildGraphText(input: Parameters<typeof graphForCluster>[0], format: GraphFormat, findings: Finding[]): Promise<string> {
  const script = workerScript('graph-worker');
  if (!script) return Promise.resolve(graphAnswerText(input, format, findings));
  return runInWorker<string>(script, {
    data: { input, format, findings },
    heapMb: GRAPH_BUILD_HEAP_MB,
    timeoutMs: GRAPH_BUILD_TIMEOUT_MS,
    tooSlow: () => new HttpError(503, 'graph/too-slow', `building the graph took more than ${GRAPH_BUILD_TIMEOUT_MS / 1000} s; it was given up`, { hint: 'fewer nodes per environment (--max-environment-nodes) keep graphs quick' }),
    what: 'building the graph',
    who: 'the graph builder',
  });
}
