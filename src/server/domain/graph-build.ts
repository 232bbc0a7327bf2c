/**
 * Building a graph answer off the request thread. A graph grows with the nodes (a 1,000-node
 * environment's takes a noticeable part of a second to build and serialise); in a worker it no
 * longer stops the server answering everyone else meanwhile. The worker is made per build, with
 * a capped heap and a time limit, the way plugin-reader.ts reads plugins.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { graphForCluster } from '../../core/graph/index.js';
import { graphToDot, graphToJson, graphToMermaid } from '../../core/graph/format.js';
import type { Finding } from '../../core/findings.js';
import { packageRoot } from '../../package/root.js';
import { HttpError } from '../errors.js';

export type GraphFormat = 'json' | 'dot' | 'mermaid';

/** A build that takes longer than this is given up. */
export const GRAPH_BUILD_TIMEOUT_MS = 60_000;
const GRAPH_BUILD_HEAP_MB = 1024;

function workerScript(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'graph-worker.js'), join(here, 'graph-worker.ts'), join(packageRoot(), 'dist', 'server', 'domain', 'graph-worker.js')];
  return candidates.find((c) => existsSync(c));
}

/** The same answer built here, for an install without the worker's script. */
function buildHere(input: Parameters<typeof graphForCluster>[0], format: GraphFormat, findings: Finding[]): string {
  const graph = graphForCluster(input);
  if (format === 'dot') return graphToDot(graph);
  if (format === 'mermaid') return graphToMermaid(graph);
  return JSON.stringify({ ...graphToJson(graph), critical_path: graph.criticalPath, makespan_s: graph.makespan, cycle: graph.cycle ?? null, findings: [...findings, ...graph.findings] });
}

/** The text of a graph answer, built in a worker thread. */
export function buildGraphText(input: Parameters<typeof graphForCluster>[0], format: GraphFormat, findings: Finding[]): Promise<string> {
  const script = workerScript();
  if (!script) return Promise.resolve(buildHere(input, format, findings));
  return new Promise((resolve, reject) => {
    const options = { workerData: { input, format, findings }, resourceLimits: { maxOldGenerationSizeMb: GRAPH_BUILD_HEAP_MB } };
    // Under tsx (tests, development) the worker registers tsx's loader first to read TypeScript.
    const worker = script.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(script).href)}); });`, { ...options, eval: true })
      : new Worker(script, options);
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      f();
    };
    const timer = setTimeout(() => settle(() => reject(new HttpError(503, 'graph/too-slow', `building the graph took more than ${GRAPH_BUILD_TIMEOUT_MS / 1000} s; it was given up`, { hint: 'fewer nodes per environment (--max-environment-nodes) keep graphs quick' }))), GRAPH_BUILD_TIMEOUT_MS);
    worker.once('message', (m: { text?: string; crash?: string }) => settle(() => (m.text !== undefined ? resolve(m.text) : reject(new Error(`building the graph failed: ${m.crash}`)))));
    worker.once('error', (err) => settle(() => reject(err)));
    worker.once('exit', (code) => settle(() => reject(new Error(`the graph builder stopped (exit ${code}) before answering`))));
  });
}
