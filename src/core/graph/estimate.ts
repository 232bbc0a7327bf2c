/**
 * How long a run of a graph takes, and in which order its tasks start, played the way the runner
 * (deploy/run.ts) walks it: a vertex is ready when everything before it has finished; markers
 * (barriers, stages, groups, skipped tasks) pass at once; each node runs one task at a time, its
 * ready tasks lowest vertex first; nodes that have work start in the order they got it; at most
 * `maxParallel` tasks run at once. With each task's duration (measured in past runs, or its
 * timeout) this gives the run's length, its order and its critical path.
 *
 * buildDeploymentGraph's own schedule (schedule.ts) answers a different question, the graph's
 * shape with every task at its timeout; this one follows the runner's choices, so the Graph tab
 * shows the order a run takes.
 */
import type { DeploymentGraph, TaskPair } from './model.js';
import { describeVertex, nodeOfVertex } from './vertices.js';

export interface RunEstimate {
  /** Seconds from the first task's start to the last one's end. */
  makespan: number;
  /** Task vertices (not markers) in the order they start. */
  order: number[];
  start: Float64Array;
  finish: Float64Array;
  /** The chain of tasks that set the length: each started when the one before it ended. */
  criticalPath: TaskPair[];
}

export interface EstimateOptions {
  /** Seconds vertex `v` takes (a task vertex that is not a marker). */
  duration: (v: number) => number;
  /** True for a task vertex the runner passes without running (a stage, a group, a skipped task). */
  marker: (v: number) => boolean;
  /** The runner's limit of tasks at once (its default: 50). */
  maxParallel?: number;
}

/** A min-heap of running vertices by finish time, ties by vertex id (deterministic). */
class Finishing {
  private items: Array<[number, number]> = [];
  get size() {
    return this.items.length;
  }
  push(time: number, v: number) {
    const a = this.items;
    a.push([time, v]);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (a[p][0] < a[i][0] || (a[p][0] === a[i][0] && a[p][1] < a[i][1])) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): [number, number] {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        const less = (x: number, y: number) => a[x][0] < a[y][0] || (a[x][0] === a[y][0] && a[x][1] < a[y][1]);
        if (l < a.length && less(l, m)) m = l;
        if (r < a.length && less(r, m)) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}

export function estimateRun(graph: DeploymentGraph, options: EstimateOptions): RunEstimate {
  const n = graph.vertexCount;
  const maxParallel = Math.max(1, options.maxParallel ?? 50);
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < graph.edgeFrom.length; i++) offsets[graph.edgeFrom[i] + 1]++;
  for (let v = 0; v < n; v++) offsets[v + 1] += offsets[v];
  const succ = new Int32Array(graph.edgeFrom.length);
  const cursor = offsets.slice(0, n);
  const waiting = new Int32Array(n);
  for (let i = 0; i < graph.edgeFrom.length; i++) {
    succ[cursor[graph.edgeFrom[i]]++] = graph.edgeTo[i];
    waiting[graph.edgeTo[i]]++;
  }
  const isMarker = (v: number) => v >= graph.barrierBase || graph.skipped[v] === 1 || options.marker(v);
  const start = new Float64Array(n);
  const finish = new Float64Array(n);
  // What decided each vertex's start: the vertex whose end made it ready or freed its node or a slot.
  const decidedBy = new Int32Array(n).fill(-1);
  const readyBy = new Int32Array(n).fill(-1);
  const readyAt = new Float64Array(n);
  const queues = new Map<number, number[]>();
  const busy = new Set<number>();
  const idleWithWork: number[] = [];
  const instant: number[] = [];
  const running = new Finishing();
  const order: number[] = [];
  let now = 0;
  let last = -1;

  const becomeReady = (v: number, by: number) => {
    readyAt[v] = now;
    readyBy[v] = by;
    if (isMarker(v)) {
      instant.push(v);
      return;
    }
    const node = nodeOfVertex(graph, v);
    let q = queues.get(node);
    if (!q) queues.set(node, (q = []));
    let i = q.length;
    while (i > 0 && q[i - 1] > v) i--;
    q.splice(i, 0, v);
    if (!busy.has(node) && q.length === 1) idleWithWork.push(node);
  };
  const release = (v: number) => {
    for (let e = offsets[v]; e < offsets[v + 1]; e++) if (--waiting[succ[e]] === 0) becomeReady(succ[e], v);
  };
  for (let v = 0; v < n; v++) if (waiting[v] === 0) becomeReady(v, -1);
  let freedBy = -1;
  for (;;) {
    while (instant.length) {
      const v = instant.pop()!;
      start[v] = finish[v] = now;
      decidedBy[v] = readyBy[v];
      release(v);
    }
    while (running.size < maxParallel && idleWithWork.length) {
      const node = idleWithWork.shift()!;
      const q = queues.get(node);
      if (busy.has(node) || !q?.length) continue;
      const v = q.shift()!;
      busy.add(node);
      start[v] = now;
      finish[v] = now + Math.max(0, options.duration(v));
      decidedBy[v] = readyAt[v] < now ? freedBy : readyBy[v];
      order.push(v);
      running.push(finish[v], v);
    }
    if (!running.size) break;
    const [time, v] = running.pop();
    now = time;
    freedBy = v;
    if (last < 0 || finish[v] >= finish[last]) last = v;
    const node = nodeOfVertex(graph, v);
    busy.delete(node);
    release(v);
    if (queues.get(node)?.length) idleWithWork.push(node);
  }
  const path: number[] = [];
  for (let v = last; v >= 0; v = decidedBy[v]) if (v < graph.barrierBase && !isMarker(v)) path.push(v);
  return { makespan: last < 0 ? 0 : finish[last], order, start, finish, criticalPath: path.reverse().map((v) => describeVertex(graph, v)) };
}
