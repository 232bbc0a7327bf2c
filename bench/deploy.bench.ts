/**
 * Hearth's own cost of running a deployment: a fake transport whose every command finishes at once,
 * so what is measured is the walk (readiness, per-node queues, max-parallel), the per-node
 * preparation calls and the bookkeeping (every task's start and end persisted in batches into the
 * embedded database, as the server does). 1,000 nodes × 200 tasks (three roles, chains with
 * cross-node dependencies); target: under 10 s of server time. The walk alone, without the
 * database, is the baseline.
 */
import { performance } from 'node:perf_hooks';
import { buildDeploymentGraph, describeVertex, type NodeInput } from '../src/core/graph/index.js';
import type { Task } from '../src/core/tasks/model.js';
import { DryRunTransport, runDeployment, type RunEvents } from '../src/deploy/index.js';
import * as store from '../src/store/index.js';
import * as runs from '../src/store/task-runs.js';

const NODES = Number(process.env.HEARTH_BENCH_DEPLOY_NODES ?? 1000);
const PER_NODE = 200;

function task(id: string, fields: Partial<Task>): Task {
  return { id, type: 'shell', version: '2.1.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'release' }, parameters: { cmd: 'true' }, ...fields };
}

// 200 tasks reach every node: a chain per role, the first task of computes and storage waiting for
// the controllers' 20th (a cross-node barrier), and every tenth task a stage-like group marker.
const tasks: Task[] = [];
for (const role of ['controller', 'compute', 'storage']) {
  for (let i = 0; i < PER_NODE; i++) {
    tasks.push(task(`${role}-${i}`, { roles: [role], ...(i ? { requires: [`${role}-${i - 1}`] } : {}), ...(i === 0 && role !== 'controller' ? { crossDepends: [{ name: 'controller-19', role: ['controller'] }] } : {}), ...(i % 10 === 9 ? { type: 'skipped' } : {}) }));
  }
}
const nodes: NodeInput[] = Array.from({ length: NODES }, (_, i) => ({ id: String(i + 1), roles: [i < 3 ? 'controller' : i % 5 === 0 ? 'storage' : 'compute'] }));

let t0 = performance.now();
const graph = buildDeploymentGraph({ tasks, nodes, roles: { controller: { has_primary: true } } });
const buildMs = performance.now() - t0;
const pairs = graph.counts.tasks;
console.log(`graph: ${NODES} nodes, ${pairs} (node, task) pairs, built in ${buildMs.toFixed(0)} ms (not counted below)`);

const targets = new Map(nodes.map((n) => [n.id, { id: n.id, name: `node-${n.id}`, address: '10.77.0.250', port: 22, user: 'root' }]));
const plan = { graph, targets, data: new Map(nodes.map((n) => [n.id, { uid: n.id }])), sources: new Map([['release', { folder: 'bench-1.0.0' }]]), workDir: '/tmp', secrets: [] };

async function walkOnly(): Promise<{ ms: number; cpuMs: number; finished: number }> {
  let finished = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  await runDeployment(plan, { transport: new DryRunTransport(false), events: { finished: () => void finished++ }, maxParallel: 50 });
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, finished };
}

async function withBookkeeping(): Promise<{ ms: number; cpuMs: number; createMs: number; rows: number }> {
  const db = await store.openStore({ inMemory: true });
  try {
    const release = { id: 'r', name: 'r', version: '1', operating_system: 'x' };
    await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', $1::jsonb)`, [JSON.stringify(release)]);
    const cluster = (await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes) VALUES ('bench', 'r', '[]', '{}') RETURNING id`))[0].id;
    const cpu = process.cpuUsage();
    const start = performance.now();
    const list: Array<{ node: string; taskId: string; type: string }> = [];
    for (const v of graph.order!) if (v < graph.barrierBase) list.push({ ...((p) => ({ node: p.node, taskId: p.task }))(describeVertex(graph, v)), type: 'shell' });
    const id = await db.transaction(async (tx) => {
      const d = await runs.createRealDeployment(tx, cluster, 'default', list, 1);
      return d;
    });
    const createMs = performance.now() - start;
    // As the server does (domain/real-deploy.ts): one pending entry per task, flushed in batches.
    const pending = new Map<string, runs.TaskRunUpdate>();
    let flushing: Promise<void> = Promise.resolve();
    const flush = () => {
      if (!pending.size) return flushing;
      const batch = [...pending.values()];
      pending.clear();
      flushing = flushing.then(() => runs.applyTaskUpdates(db, id, batch));
      return flushing;
    };
    const timer = setInterval(flush, 250);
    const now = () => new Date().toISOString();
    const events: RunEvents = {
      started: (v, attempt) => void pending.set(`${v.node}\0${v.task.id}`, { node: v.node, taskId: v.task.id, status: 'running', attempts: attempt, startedAt: now() }),
      finished: (v, state, o) => {
        const key = `${v.node}\0${v.task.id}`;
        pending.set(key, { ...pending.get(key), node: v.node, taskId: v.task.id, status: state, ...(o ? { exitStatus: o.exitCode, attempts: o.attempts, output: o.output } : {}), finishedAt: now() });
        if (pending.size >= 2000) void flush();
      },
    };
    await runDeployment(plan, { transport: new DryRunTransport(false), events, maxParallel: 50 });
    clearInterval(timer);
    await flush();
    await runs.endRealDeployment(db, id, 'succeeded');
    const used = process.cpuUsage(cpu);
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM deployment_tasks WHERE deployment_id = $1 AND status IN ('ready', 'skipped')`, [id]);
    return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, createMs, rows: n };
  } finally {
    await db.close();
  }
}

const walk = await walkOnly();
const walk2 = await walkOnly();
const best = walk.ms < walk2.ms ? walk : walk2;
t0 = performance.now();
const full = await withBookkeeping();
console.log('\n## deploy: fake transport, 1,000 nodes × 200 tasks');
console.log('| case | wall ms | CPU ms | µs per task | target | note |');
console.log('|---|---|---|---|---|---|');
console.log(`| walk only (baseline) | ${best.ms.toFixed(0)} | ${best.cpuMs.toFixed(0)} | ${((best.ms * 1000) / pairs).toFixed(1)} | | ${best.finished} tasks reported |`);
console.log(`| walk + database bookkeeping | ${full.ms.toFixed(0)} | ${full.cpuMs.toFixed(0)} | ${((full.ms * 1000) / pairs).toFixed(1)} | < 10,000 ms ${full.ms < 10_000 ? 'met' : 'MISSED'} | creating the run (${pairs} rows) ${full.createMs.toFixed(0)} ms; ${full.rows} rows finished; ratio to baseline ${(full.ms / best.ms).toFixed(1)}× |`);
