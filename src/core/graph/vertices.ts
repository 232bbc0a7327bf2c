/** Turning vertex ids back into words: `(node, task)` pairs, barriers, and each pair's dependencies. */
import type { DeploymentGraph, TaskPair } from './model.js';

/** The node index a vertex belongs to (binary search over node bases). */
export function nodeOfVertex(graph: DeploymentGraph, v: number): number {
  let lo = 0;
  let hi = graph.nodes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (graph.nodes[mid].base <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A barrier's words: who waits for what. */
export function barrierLabel(graph: DeploymentGraph, index: number): string {
  const b = graph.barriers[index];
  const where = b.role === '*' ? 'every node' : `nodes of ${b.role}`;
  return b.kind === 'after' ? `${b.policy === 'any' ? 'one of' : 'all of'} '${b.name}' on ${where}` : `before '${b.name}' on ${where}`;
}

/** The `(node, task)` a vertex stands for; a barrier names its rule. */
export function describeVertex(graph: DeploymentGraph, v: number): TaskPair {
  if (v >= graph.barrierBase) return { node: '(barrier)', task: barrierLabel(graph, v - graph.barrierBase) };
  const node = graph.nodes[nodeOfVertex(graph, v)];
  return { node: node.id, task: graph.classes[node.classIndex].slots[v - node.base].id };
}

export function isTaskVertex(graph: DeploymentGraph, v: number): boolean {
  return v < graph.barrierBase;
}

/** Predecessor lists of every vertex (compressed), built on demand for output. */
export function predecessors(graph: DeploymentGraph): { offsets: Int32Array; sources: Int32Array } {
  const n = graph.vertexCount;
  const offsets = new Int32Array(n + 1);
  const { edgeFrom: from, edgeTo: to } = graph;
  for (let i = 0; i < to.length; i++) offsets[to[i] + 1]++;
  for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
  const cursor = offsets.slice(0, n);
  const sources = new Int32Array(to.length);
  for (let i = 0; i < to.length; i++) sources[cursor[to[i]]++] = from[i];
  return { offsets, sources };
}

/**
 * What `(node, task)` pairs a vertex waits for, looking through barriers so the
 * answer is in the user's terms. Sizes can be large (a barrier stands for a whole role), so callers
 * that print many nodes should prefer the compact form.
 */
export function dependenciesOf(graph: DeploymentGraph, v: number, preds = predecessors(graph)): TaskPair[] {
  const out = new Map<number, TaskPair>();
  const seen = new Set<number>();
  const stack = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    for (let e = preds.offsets[x]; e < preds.offsets[x + 1]; e++) {
      const u = preds.sources[e];
      if (seen.has(u)) continue;
      seen.add(u);
      if (isTaskVertex(graph, u)) out.set(u, describeVertex(graph, u));
      else stack.push(u);
    }
  }
  return [...out.keys()].sort((a, b) => a - b).map((u) => out.get(u)!);
}
