import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { schedule } from './schedule.js';

/**
 * List scheduling as written first, with a plain priority queue: the ready vertex with the
 * smallest (ready time, id) starts next. The schedule's queue must pop exactly this order, ties
 * included: the graph's order, its JSON and its critical path all come from it.
 */
function reference(vertexCount: number, from: number[], to: number[], duration: number[], worker: number[], workerCount: number) {
  const succ: number[][] = Array.from({ length: vertexCount }, () => []);
  const indegree = new Array<number>(vertexCount).fill(0);
  from.forEach((a, i) => {
    succ[a].push(to[i]);
    indegree[to[i]]++;
  });
  const ready = new Array<number>(vertexCount).fill(0);
  const readyBy = new Array<number>(vertexCount).fill(-1);
  const start: number[] = [];
  const finish: number[] = [];
  const decidedBy: number[] = [];
  const nodeFree = new Array<number>(workerCount).fill(0);
  const nodeLast = new Array<number>(workerCount).fill(-1);
  const queue: Array<[number, number]> = [];
  for (let v = 0; v < vertexCount; v++) if (indegree[v] === 0) queue.push([0, v]);
  const order: number[] = [];
  while (queue.length > 0) {
    let best = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i][0] < queue[best][0] || (queue[i][0] === queue[best][0] && queue[i][1] < queue[best][1])) best = i;
    const [, v] = queue.splice(best, 1)[0];
    order.push(v);
    let begin = ready[v];
    let by = readyBy[v];
    const w = worker[v];
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
    for (const u of succ[v]) {
      if (readyBy[u] < 0 || finish[v] > ready[u]) {
        ready[u] = finish[v];
        readyBy[u] = v;
      }
      if (--indegree[u] === 0) queue.push([ready[u], u]);
    }
  }
  return { order, start, finish, decidedBy };
}

// Graphs as the build makes them: many zero-duration vertices (stages, groups, skipped tasks,
// barriers) and few distinct durations, so many vertices become ready at one time; and with ids
// far apart (the bitset's summary levels), edges to lower ids, and cycles now and then.
const graphs = fc
  .record({
    vertexCount: fc.integer({ min: 1, max: 3000 }),
    workerCount: fc.integer({ min: 1, max: 6 }),
    seed: fc.integer(),
    edgesPerVertex: fc.double({ min: 0, max: 3, noNaN: true }),
    backward: fc.boolean(),
    // Negative durations never come from tasks; they send a time below the current one to the queue.
    durations: fc.constantFrom([0, 300], [0, 0, 1, 2], [0, 0.5, 1.25, 3600], [0], [-1, 0, 2]),
  })
  .map(({ vertexCount, workerCount, seed, edgesPerVertex, backward, durations }) => {
    let x = seed >>> 0 || 1;
    const rand = (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const from: number[] = [];
    const to: number[] = [];
    for (let i = 0; i < Math.floor(vertexCount * edgesPerVertex); i++) {
      const a = rand(vertexCount);
      const b = rand(vertexCount);
      // Forward edges keep it acyclic; a few backward ones (when asked) make cycles.
      if (a < b || (backward && a !== b && rand(50) === 0)) {
        from.push(a);
        to.push(b);
      }
    }
    const duration = Array.from({ length: vertexCount }, () => durations[rand(durations.length)]);
    const worker = Array.from({ length: vertexCount }, () => rand(workerCount + 1) - 1);
    return { vertexCount, workerCount, from, to, duration, worker };
  });

test('property: the schedule starts vertices in (ready time, id) order, as a plain priority queue does', () => {
  fc.assert(
    fc.property(graphs, (g) => {
      const got = schedule(g.vertexCount, Int32Array.from(g.from), Int32Array.from(g.to), Float64Array.from(g.duration), Int32Array.from(g.worker), g.workerCount);
      const want = reference(g.vertexCount, g.from, g.to, g.duration, g.worker, g.workerCount);
      assert.deepEqual([...got.order.subarray(0, got.ordered)], want.order);
      for (const v of want.order) {
        assert.equal(got.start[v], want.start[v]);
        assert.equal(got.finish[v], want.finish[v]);
        assert.equal(got.decidedBy[v], want.decidedBy[v]);
      }
    }),
    { seed: 3030, numRuns: 300 },
  );
});
