/**
 * Building a graph answer off the request thread. A graph grows with the nodes (a 1,000-node
 * environment's takes a noticeable part of a second to build and serialise); in a worker it no
 * longer stops the server answering everyone else meanwhile: warm workers (worker-pool.ts, as
 * template queries run), each build with a capped heap and a time limit. Warm, because a
 * deployment builds its graph in one too (buildDeployGraph), and starting a worker cost it more
 * than the build (seconds under tsx, 0.2 s from dist/).
 */
import { performance } from 'node:perf_hooks';
import { graphForCluster, type DeploymentGraph } from '../../core/graph/index.js';
import { graphToDot, graphToJson, graphToMermaid } from '../../core/graph/format.js';
import type { Finding } from '../../core/findings.js';
import { HttpError } from '../errors.js';
import { WorkerPool } from './worker-pool.js';
import { workerScript } from './worker-run.js';

export type GraphFormat = 'json' | 'dot' | 'mermaid';

/** A build that takes longer than this is given up. */
export const GRAPH_BUILD_TIMEOUT_MS = 60_000;
const GRAPH_BUILD_HEAP_MB = 1024;
/** Graph builds at once (each its own worker), and how many more may wait. */
const GRAPH_WORKERS = 2;
const GRAPH_QUEUE = 32;

let pool: WorkerPool | undefined;

/** The graph workers' pool, or undefined without a worker script (a partial install: the caller builds itself). */
function graphPool(): WorkerPool | undefined {
  const script = workerScript('graph-worker');
  if (!script) return undefined;
  pool ??= new WorkerPool({
    script,
    size: GRAPH_WORKERS,
    heapMb: GRAPH_BUILD_HEAP_MB,
    queue: GRAPH_QUEUE,
    busy: () => new HttpError(503, 'graph/busy', `${GRAPH_WORKERS + GRAPH_QUEUE} graph builds are under way or waiting; try again shortly`, { hint: 'ask again in a few seconds' }),
    what: 'building the graph',
    who: 'the graph builder',
  });
  return pool;
}

/** The text of a graph answer in one format: what the worker posts back (and what is built here without one). */
export function graphAnswerText(input: Parameters<typeof graphForCluster>[0], format: GraphFormat, findings: Finding[]): string {
  const graph = graphForCluster(input);
  if (format === 'dot') return graphToDot(graph);
  if (format === 'mermaid') return graphToMermaid(graph);
  return JSON.stringify({ ...graphToJson(graph), critical_path: graph.criticalPath, makespan_s: graph.makespan, cycle: graph.cycle ?? null, findings: [...findings, ...graph.findings] });
}

/** The text of a graph answer, built in a worker thread. */
export function buildGraphText(input: Parameters<typeof graphForCluster>[0], format: GraphFormat, findings: Finding[]): Promise<string> {
  const workers = graphPool();
  if (!workers) return Promise.resolve(graphAnswerText(input, format, findings));
  return workers.run<string>({
    data: { input, format, findings },
    timeoutMs: GRAPH_BUILD_TIMEOUT_MS,
    tooSlow: () => new HttpError(503, 'graph/too-slow', `building the graph took more than ${GRAPH_BUILD_TIMEOUT_MS / 1000} s; it was given up`, { hint: 'fewer nodes per environment (--max-environment-nodes) keep graphs quick' }),
  });
}

/**
 * The time a deployment's graph may take to build, its task conditions evaluated on every node
 * (HEARTH_GRAPH_SECONDS, default the graph answers' limit). Each evaluation is bounded by YAQL's
 * work budget; this bounds their sum, which grows with the nodes.
 */
export function deployGraphLimitMs(): number {
  const seconds = Number(process.env.HEARTH_GRAPH_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : GRAPH_BUILD_TIMEOUT_MS;
}

/** A deployment's graph, or the condition being evaluated when its time ran out. */
export type DeployGraph = { graph: DeploymentGraph } | { tooComplex: { task: string; node?: string; limitMs: number } };

class OutOfTime {
  constructor(
    readonly task: string,
    readonly node: string | undefined,
  ) {}
}

/** A deployment's graph, built here with the clock checked before each condition (the worker's body). */
export function deployGraphOf(input: Parameters<typeof graphForCluster>[0], limitMs: number): DeployGraph {
  const deadline = performance.now() + limitMs;
  try {
    return {
      graph: graphForCluster(input, (task, node) => {
        if (performance.now() > deadline) throw new OutOfTime(task, node);
      }),
    };
  } catch (err) {
    if (err instanceof OutOfTime) return { tooComplex: { task: err.task, ...(err.node !== undefined ? { node: err.node } : {}), limitMs } };
    throw err;
  }
}

/**
 * A deployment's graph, built in a worker thread before the deployment's transaction (deploy.ts):
 * per-node conditions cost up to YAQL's budget each, and at 200 nodes held the request thread and
 * the database for 16.7 s (issue 24, item 10). The worker's own limit is a little later than the
 * conditions', so a slow condition is named rather than cut off unnamed.
 */
export async function buildDeployGraph(input: Parameters<typeof graphForCluster>[0]): Promise<DeploymentGraph> {
  const limitMs = deployGraphLimitMs();
  const workers = graphPool();
  const built = workers
    ? await workers.run<DeployGraph>({
        data: { input, deployLimitMs: limitMs },
        timeoutMs: limitMs + 10_000,
        tooSlow: () => new HttpError(503, 'graph/too-slow', `building the graph took more than ${Math.round(limitMs / 1000) + 10} s; it was given up`, { hint: 'fewer nodes per environment (--max-environment-nodes) keep graphs quick' }),
      })
    : deployGraphOf(input, limitMs);
  if ('graph' in built) return built.graph;
  const { task, node, limitMs: limit } = built.tooComplex;
  return Promise.reject(
    new HttpError(400, 'graph/too-complex', `the task conditions of this deployment took more than ${limit / 1000} s to evaluate; it was given up at task '${task}'${node !== undefined ? ` on node ${node}` : ''}`, {
      task,
      ...(node !== undefined ? { node } : {}),
      hint: `simplify the condition of task '${task}' (it is evaluated on every node), or deploy fewer nodes at a time`,
    }),
  );
}
