/**
 * Order, timing and cycles. One pass of list scheduling gives all three: a vertex becomes ready when
 * everything before it has finished; ready vertices start in order of readiness (ties by vertex id,
 * so the result is deterministic); a node runs one task at a time, as Astute did; stage, group
 * bound and barrier vertices take no time and no node. The order vertices start in is a valid
 * topological order; vertices never reached are on or behind a cycle.
 */
import { adjacency, type Adjacency } from './edges.js';

export interface Schedule {
  order: Int32Array;
  /** How many vertices were ordered; fewer than the vertex count means a cycle. */
  ordered: number;
  start: Float64Array;
  finish: Float64Array;
  /** The vertex that decided each vertex's start (a predecessor, or the node's previous task); -1 if none. */
  decidedBy: Int32Array;
  adjacency: Adjacency;
}

/** A binary min-heap of vertex ids keyed by ready time, ties broken by id. */
class ReadyQueue {
  private keys: Float64Array;
  private ids: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(1, capacity));
    this.ids = new Int32Array(Math.max(1, capacity));
  }

  private less(a: number, b: number): boolean {
    return this.keys[a] < this.keys[b] || (this.keys[a] === this.keys[b] && this.ids[a] < this.ids[b]);
  }

  private swap(a: number, b: number): void {
    const k = this.keys[a];
    this.keys[a] = this.keys[b];
    this.keys[b] = k;
    const i = this.ids[a];
    this.ids[a] = this.ids[b];
    this.ids[b] = i;
  }

  push(id: number, key: number): void {
    let i = this.size++;
    this.keys[i] = key;
    this.ids[i] = id;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): number {
    const top = this.ids[0];
    this.size--;
    if (this.size > 0) {
      this.keys[0] = this.keys[this.size];
      this.ids[0] = this.ids[this.size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.size && this.less(l, m)) m = l;
        if (r < this.size && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}

/**
 * `worker[v]` is the node that runs v (-1 for none); `workerCount` bounds those ids.
 */
export function schedule(vertexCount: number, from: Int32Array, to: Int32Array, duration: Float64Array, worker: Int32Array, workerCount: number): Schedule {
  const adj = adjacency(vertexCount, from, to);
  const indegree = new Int32Array(vertexCount);
  for (let i = 0; i < to.length; i++) indegree[to[i]]++;
  const ready = new Float64Array(vertexCount);
  const readyBy = new Int32Array(vertexCount).fill(-1);
  const start = new Float64Array(vertexCount);
  const finish = new Float64Array(vertexCount);
  const decidedBy = new Int32Array(vertexCount).fill(-1);
  const nodeFree = new Float64Array(workerCount);
  const nodeLast = new Int32Array(workerCount).fill(-1);
  const order = new Int32Array(vertexCount);
  const queue = new ReadyQueue(vertexCount);
  for (let v = 0; v < vertexCount; v++) if (indegree[v] === 0) queue.push(v, 0);
  let ordered = 0;
  while (queue.size > 0) {
    const v = queue.pop();
    order[ordered++] = v;
    const w = worker[v];
    let begin = ready[v];
    let by = readyBy[v];
    if (w >= 0 && duration[v] > 0) {
      if (nodeFree[w] > begin) {
        begin = nodeFree[w];
        by = nodeLast[w];
      }
      nodeFree[w] = begin + duration[v];
      nodeLast[w] = v;
    }
    start[v] = begin;
    finish[v] = begin + duration[v];
    decidedBy[v] = by;
    const end = adj.offsets[v + 1];
    for (let e = adj.offsets[v]; e < end; e++) {
      const u = adj.targets[e];
      if (readyBy[u] < 0 || finish[v] > ready[u]) {
        ready[u] = finish[v];
        readyBy[u] = v;
      }
      if (--indegree[u] === 0) queue.push(u, ready[u]);
    }
  }
  return { order, ordered, start, finish, decidedBy, adjacency: adj };
}

/**
 * A cycle among the vertices the schedule could not order, as a list of vertex ids with the first
 * repeated at the end. Iterative, so a long cycle cannot overflow the stack.
 */
export function findCycle(vertexCount: number, adj: Adjacency, orderedMask: Uint8Array): number[] | undefined {
  const state = new Uint8Array(vertexCount); // 0 new, 1 on the path, 2 done
  const parent = new Int32Array(vertexCount).fill(-1);
  const cursor = new Int32Array(vertexCount);
  for (let root = 0; root < vertexCount; root++) {
    if (orderedMask[root] || state[root]) continue;
    const stack = [root];
    state[root] = 1;
    cursor[root] = adj.offsets[root];
    while (stack.length > 0) {
      const v = stack[stack.length - 1];
      if (cursor[v] < adj.offsets[v + 1]) {
        const u = adj.targets[cursor[v]++];
        if (orderedMask[u]) continue;
        if (state[u] === 1) {
          const cycle = [u];
          for (let x = v; x !== u; x = parent[x]) cycle.push(x);
          cycle.push(u);
          return cycle.reverse();
        }
        if (state[u] === 0) {
          state[u] = 1;
          parent[u] = v;
          cursor[u] = adj.offsets[u];
          stack.push(u);
        }
      } else {
        state[v] = 2;
        stack.pop();
      }
    }
  }
  return undefined;
}
