/**
 * The Deploy page following a large real run (issue 30: 1,000 and 10,000 nodes): each look of the
 * live stream (every 500 ms) brings the tasks that changed since the last, and the page merges
 * them into the run's list, groups the list by node (the per-node table) and orders it failures
 * first (the task table). Timed here in Node (the same V8 as Chromium) on the page's own code,
 * against the way the page did it before (each event merged on its own into a copy of the list,
 * found by a search; each node's list copied at each of its tasks; a sort reading two outcomes per
 * comparison), which is the peer of each line. The browser's rendering is not counted: the page
 * draws 200 task rows, whatever the run's size.
 * Then the wizard page's grouping of a state's components (every state it is sent), at 2,000 and
 * 10,000 components (corpus/synthetic), against the way it grouped them before.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileCatalog, state } from '../src/core/components/index.js';
import { groupBy } from '../web/src/components/groupBy.js';
import { groupOf } from '../web/src/components/groups.js';
import { byFailuresFirst, failuresFirst, mergeTasks, type TaskRun } from '../web/src/deploy/model.js';

const SHAPES = (process.env.HEARTH_BENCH_PAGE_SHAPES ?? '1000x200,10000x50').split(',').map((s) => s.split('x').map(Number) as [number, number]);
/** Tasks changed between two looks (500 ms): a run of 1,000 nodes with short tasks ends thousands a second. */
const CHANGES = Number(process.env.HEARTH_BENCH_PAGE_CHANGES ?? 2000);
const RUNS = 3;

function list(nodes: number, perNode: number): TaskRun[] {
  const tasks: TaskRun[] = [];
  for (let n = 1; n <= nodes; n++) for (let i = 0; i < perNode; i++) tasks.push({ node: String(n), taskId: `task-${i}`, position: tasks.length, status: 'pending', type: 'shell' });
  return tasks;
}

/** A look's changes: tasks ending (and the next ones starting) across the run. */
function look(tasks: readonly TaskRun[], round: number): TaskRun[] {
  const out: TaskRun[] = [];
  const step = Math.max(1, Math.floor(tasks.length / CHANGES));
  for (let i = 0; out.length < CHANGES && i < tasks.length; i += step) {
    const t = tasks[(i + round) % tasks.length];
    out.push({ node: t.node, taskId: t.taskId, position: t.position, status: round % 2 ? 'ready' : 'running', started_at: '2026-11-29T10:00:00.000Z', ...(round % 2 ? { finished_at: '2026-11-29T10:00:02.000Z', exit_status: 0 } : {}) });
  }
  return out;
}

function before(tasks: TaskRun[], changes: readonly TaskRun[]): TaskRun[] {
  let d = tasks;
  for (const task of changes) {
    const next = [...d];
    const at = next.findIndex((x) => x.node === task.node && x.taskId === task.taskId);
    if (at >= 0) next[at] = { ...next[at], ...task };
    else next.push(task);
    d = next;
  }
  const map = new Map<string, TaskRun[]>();
  for (const t of d) map.set(t.node, [...(map.get(t.node) ?? []), t]);
  void [...d].sort(byFailuresFirst);
  return d;
}

function now(tasks: TaskRun[], changes: readonly TaskRun[]): TaskRun[] {
  const d = mergeTasks(tasks, changes);
  void groupBy(d, (t) => t.node);
  void failuresFirst(d);
  return d;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
console.log(`\n## the Deploy page following a large run: one look of the live stream (${CHANGES} changed tasks), load ${loadavg()[0].toFixed(1)}, ${cpus().length} cores`);
console.log('| run | before: min / median ms | now: min / median ms | ratio (medians) | note |');
console.log('|---|---|---|---|---|');
for (const [nodes, perNode] of SHAPES) {
  const base = list(nodes, perNode);
  const old: number[] = [];
  const fresh: number[] = [];
  let a = base;
  let b = base;
  for (let r = 0; r < RUNS; r++) {
    const changes = look(base, r);
    let t = performance.now();
    a = before(a, changes);
    old.push(performance.now() - t);
    t = performance.now();
    b = now(b, changes);
    fresh.push(performance.now() - t);
  }
  const same = JSON.stringify(a) === JSON.stringify(b);
  if (!same) process.exitCode = 1;
  console.log(`| ${nodes} nodes × ${perNode} tasks (${base.length}) | ${fmt(Math.min(...old))} / ${fmt(median(old))} | ${fmt(Math.min(...fresh))} / ${fmt(median(fresh))} | ${(median(old) / median(fresh)).toFixed(0)}× faster | ${same ? 'the same list both ways' : 'ERROR: the lists differ'}; a look every 500 ms |`);
}
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

const corpus = process.env.HEARTH_CORPUS;
if (!corpus) console.log('\nHEARTH_CORPUS is not set: the wizard page part is skipped (it reads corpus/synthetic)');
else {
  console.log(`\n## the wizard page: a state's components grouped for the panes, load ${loadavg()[0].toFixed(1)}`);
  console.log('| components | before: min / median ms | now: min / median ms | ratio (medians) | note |');
  console.log('|---|---|---|---|---|');
  for (const n of [2000, 10000]) {
    const components = JSON.parse(readFileSync(join(corpus, 'synthetic', `components-${n}.json`), 'utf8'));
    const s = state(compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] }), [], { fixes: false });
    const old: number[] = [];
    const fresh: number[] = [];
    let a = new Map<string, unknown[]>();
    let b = new Map<string, unknown[]>();
    for (let r = 0; r < 5; r++) {
      let t = performance.now();
      a = new Map();
      for (const c of s.components) a.set(groupOf(c), [...(a.get(groupOf(c)) ?? []), c]);
      old.push(performance.now() - t);
      t = performance.now();
      b = groupBy(s.components, groupOf);
      fresh.push(performance.now() - t);
    }
    const same = JSON.stringify([...a]) === JSON.stringify([...b]);
    if (!same) process.exitCode = 1;
    console.log(`| ${n} (${b.size} groups) | ${fmt(Math.min(...old))} / ${fmt(median(old))} | ${fmt(Math.min(...fresh))} / ${fmt(median(fresh))} | ${(median(old) / median(fresh)).toFixed(0)}× faster | ${same ? 'the same groups both ways' : 'ERROR: the groups differ'}; on every state the page is sent |`);
  }
}
