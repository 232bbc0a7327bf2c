/**
 * The Graph tab's estimate follows the runner (issue 25): core's estimateRun, given each task's
 * duration, starts the tasks in the order deploy/run.ts starts them and ends when it ends. Checked
 * against the real runner on random graphs, its tasks "running" on a virtual clock (each ends when
 * the clock reaches its duration), so the comparison is exact and takes no real time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { buildDeploymentGraph, estimateRun, nodeOfVertex, type DeploymentGraph, type NodeInput } from '../../src/core/graph/index.js';
import type { Task } from '../../src/core/tasks/model.js';
import { MARKER_TYPES, runGraph } from '../../src/deploy/index.js';

const task = (id: string, fields: Partial<Task> = {}): Task => ({ id, type: 'shell', version: '2.1.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'test' }, ...fields });
const taskOf = (g: DeploymentGraph, v: number) => {
  const node = g.nodes[nodeOfVertex(g, v)];
  return g.classes[node.classIndex].slots[v - node.base].task;
};

/** The runner's start order and length, its tasks ending on a virtual clock. */
async function runnerOn(graph: DeploymentGraph, seconds: (v: number) => number, maxParallel: number) {
  const started: number[] = [];
  const running: Array<{ at: number; v: number; end: () => void }> = [];
  let now = 0;
  let over = false;
  const run = runGraph({
    graph,
    maxParallel,
    events: { finished: () => undefined },
    execute: (r) =>
      new Promise((resolve) => {
        started.push(r.vertex);
        running.push({ at: now + seconds(r.vertex), v: r.vertex, end: () => resolve({ exitCode: 0, output: '', attempts: 1 }) });
      }),
  }).then(() => (over = true));
  for (let spins = 0; !over; spins++) {
    await new Promise((r) => setImmediate(r));
    if (over) break;
    assert.ok(running.length > 0 && spins < 100_000, 'the runner waits for nothing');
    running.sort((a, b) => a.at - b.at || a.v - b.v);
    const next = running.shift()!;
    now = next.at;
    next.end();
  }
  await run;
  return { started, makespan: now };
}

const graphs = fc
  .record({
    tasks: fc.array(fc.record({ roles: fc.subarray(['controller', 'compute'], { minLength: 1 }), requires: fc.array(fc.nat(20)), cross: fc.option(fc.nat(20)), marker: fc.boolean() }), { minLength: 1, maxLength: 12 }),
    controllers: fc.integer({ min: 1, max: 2 }),
    computes: fc.integer({ min: 0, max: 3 }),
    durations: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 12, maxLength: 12 }),
    maxParallel: fc.integer({ min: 1, max: 4 }),
  })
  .map((s) => {
    // Each task requires only earlier ones: no cycles.
    const tasks = s.tasks.map((t, i) =>
      task(`t${i}`, {
        roles: t.roles,
        ...(t.marker && i % 3 === 0 ? { type: 'stage' } : {}),
        requires: [...new Set(t.requires.filter((r) => r < i).map((r) => `t${r}`))],
        ...(t.cross !== null && t.cross < i ? { crossDepends: [{ name: `t${t.cross}`, role: ['controller'] }] } : {}),
      }),
    );
    const nodes: NodeInput[] = [...Array.from({ length: s.controllers }, (_, i) => ({ id: `ctl-${i}`, roles: ['controller'] })), ...Array.from({ length: s.computes }, (_, i) => ({ id: `cmp-${i}`, roles: ['compute'] }))];
    return { graph: buildDeploymentGraph({ tasks, nodes }), durations: s.durations, maxParallel: s.maxParallel };
  });

test('the estimate starts tasks in the runner\'s order and ends when the runner ends', async () => {
  await fc.assert(
    fc.asyncProperty(graphs, async ({ graph, durations, maxParallel }) => {
      if (graph.cycle) return;
      const seconds = (v: number) => durations[Number(taskOf(graph, v).id.slice(1)) % durations.length];
      const estimate = estimateRun(graph, { duration: seconds, marker: (v) => MARKER_TYPES.has(taskOf(graph, v).type), maxParallel });
      const runner = await runnerOn(graph, seconds, maxParallel);
      assert.deepEqual(estimate.order, runner.started, 'the same order');
      assert.equal(estimate.makespan, runner.makespan, 'the same length');
      // The critical path is a chain whose durations add up to the length when nothing waits.
      for (const p of estimate.criticalPath) assert.ok(graph.nodes.some((n) => n.id === p.node));
    }),
    { numRuns: Number(process.env.HEARTH_PROPERTY_RUNS ?? 150) },
  );
});

test('a graph of one chain: its length is the sum, its critical path the chain', () => {
  const graph = buildDeploymentGraph({ tasks: [task('a'), task('b', { requires: ['a'] }), task('c', { requires: ['b'] }), task('side', { roles: ['compute'] })].map((t) => ({ ...t, roles: t.roles ?? ['controller'] })), nodes: [{ id: 'n1', roles: ['controller'] }, { id: 'n2', roles: ['compute'] }] });
  const seconds: Record<string, number> = { a: 4, b: 10, c: 6, side: 3 };
  const e = estimateRun(graph, { duration: (v) => seconds[taskOf(graph, v).id], marker: () => false });
  assert.equal(e.makespan, 20);
  assert.deepEqual(e.criticalPath, [{ node: 'n1', task: 'a' }, { node: 'n1', task: 'b' }, { node: 'n1', task: 'c' }]);
});

test('a walk whose tasks finish at once still lets the event loop run (the thread is not held until it ends)', async () => {
  // 40 nodes x 100 chained tasks, each finishing as soon as it starts (a fake transport): before,
  // the whole walk ran in microtasks, and no request, timer or database answer was seen until it ended.
  const tasks = Array.from({ length: 100 }, (_, i) => task(`t${i}`, { roles: ['compute'], ...(i ? { requires: [`t${i - 1}`] } : {}) }));
  const graph = buildDeploymentGraph({ tasks, nodes: Array.from({ length: 40 }, (_, i) => ({ id: `n${i}`, roles: ['compute'] })) });
  let turns = 0;
  let over = false;
  const tick = () => {
    turns++;
    if (!over) setImmediate(tick);
  };
  setImmediate(tick);
  const summary = await runGraph({ graph, maxParallel: 50, events: { finished: () => undefined }, execute: () => Promise.resolve({ exitCode: 0, output: '', attempts: 1 }) });
  over = true;
  assert.equal(summary.ran, 4000);
  assert.ok(turns >= 3, `the event loop ran ${turns} times during a 4,000-task walk`);
});
