/**
 * Deployment graph scaling: the Fuel library's default graph (mitaka, the release the corpus
 * plugins target) composed with five plugins, over 10 to 10,000 nodes, with every task condition
 * evaluated on the cluster's deployment data (graphForCluster, as the CLI and the server run it),
 * on a first deployment and on redeployments that add 10% more nodes, one of them also removing a
 * node (lifecycle conditions then compare with the previous state). Work should grow linearly with (node, task) pairs: the "µs per
 * pair" column should stay flat. A run without conditions is the baseline. Nailgun's 9.0 serializer on
 * the same library took 1.7 s for 10 nodes, 25.6 s for 100 and 29 minutes for 1,000
 * (research/nailgun-peer.md).
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { graphForCluster, type NodeInput } from '../src/core/graph/index.js';
import type { Task } from '../src/core/tasks/model.js';
import { composeFromDisk } from '../src/package/release/compose.js';
import { report, summarise } from './harness.js';

const corpus = process.env.HEARTH_CORPUS!;
const release = join(corpus, 'release/mitaka-eol');
const plugins = ['fuel-plugin-detach-database', 'fuel-plugin-detach-keystone', 'fuel-plugin-detach-rabbitmq', 'fuel-plugin-elasticsearch-kibana', 'fuel-plugin-influxdb-grafana'];

const t0 = performance.now();
const { composition, findings } = composeFromDisk({
  release: join(release, 'fuel-web/nailgun/nailgun/fixtures/openstack.yaml'),
  releaseVersion: 'mitaka-9.0',
  tasks: join(release, 'fuel-library'),
  plugin: plugins.map((p) => join(corpus, 'plugins', p)),
});
if (!composition) {
  console.log('could not compose the release:', findings.filter((f) => f.severity === 'error').map((f) => f.message).join('; '));
  process.exit(1);
}
const composed = composition.composed;
const tasks: Task[] = composed.graphs.default.tasks;
const applied = composition.plugins.filter((p) => p.applied).map((p) => p.name);
const pluginRoles = Object.keys(composed.roles_metadata).filter((r) => composed.role_sources[r] !== 'release');
console.log(`composed in ${(performance.now() - t0).toFixed(0)} ms: ${tasks.length} tasks in the default graph; plugins applied: ${applied.join(', ') || 'none'}; plugin roles: ${pluginRoles.join(', ')}`);

function cluster(size: number): NodeInput[] {
  const nodes: NodeInput[] = [];
  const add = (roles: string[]) => nodes.push({ id: `node-${nodes.length + 1}`, roles });
  for (let i = 0; i < Math.min(3, size); i++) add(['controller']);
  for (const role of pluginRoles) if (nodes.length < size) add([role]);
  while (nodes.length < size) add(nodes.length % 10 === 0 ? ['ceph-osd'] : ['compute']);
  return nodes;
}

const rows = [];
const table: string[] = ['| nodes | run | (node, task) pairs | skipped | edges | median ms | µs per pair | heap MB | rss MB | makespan h |', '|---|---|---|---|---|---|---|---|---|---|'];
let baseline: number | undefined;
const modes = [
  { name: 'no conditions', input: (nodes: NodeInput[]) => ({ composed, nodes, evaluateConditions: false }) },
  { name: 'conditions, first deployment', input: (nodes: NodeInput[]) => ({ composed, nodes }) },
  { name: 'conditions, +10% nodes after a deployment', input: (nodes: NodeInput[]) => ({ composed, nodes, previous: { nodes: nodes.slice(0, Math.ceil(nodes.length / 1.1)) } }) },
  // A node left early in the list: every later node's generated addresses shift, so `added($.nodes)`
  // finds no entry of the old list in the new one (it was quadratic in that case).
  { name: 'conditions, one node removed and +10% nodes', input: (nodes: NodeInput[]) => ({ composed, nodes: nodes.filter((_, i) => i !== Math.min(5, nodes.length - 1)), previous: { nodes: nodes.slice(0, Math.ceil(nodes.length / 1.1)) } }) },
];
for (const size of [10, 100, 1000, 10000]) {
  const nodes = cluster(size);
  for (const mode of modes) {
    const runs = size >= 10000 ? 3 : size >= 1000 ? 5 : 15;
    const samples: number[] = [];
    let graph;
    let heap = 0;
    let rss = 0;
    for (let i = 0; i < runs + 1; i++) {
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      graph = graphForCluster(mode.input(nodes));
      const ms = performance.now() - start;
      const mem = process.memoryUsage();
      heap = Math.max(heap, mem.heapUsed);
      rss = Math.max(rss, mem.rss);
      if (i > 0) samples.push(ms);
    }
    const timing = summarise(`${size} nodes, ${mode.name}`, samples);
    const pairs = graph!.counts.tasks;
    const perPair = timing.medianMs / pairs;
    if (mode === modes[1]) baseline ??= perPair;
    const failed = graph!.findings.filter((f) => f.code === 'graph/condition-failed').length;
    rows.push({ ...timing, targetMs: mode !== modes[0] ? (size === 1000 ? 1000 : size === 10000 ? 10000 : undefined) : undefined, note: `${pairs} pairs, ${graph!.counts.skipped} skipped${failed ? `, ${failed} conditions failed` : ''}; per pair ${baseline ? (perPair / baseline).toFixed(2) : '-'}x the 10-node cost with conditions` });
    table.push(`| ${size} | ${mode.name} | ${pairs} | ${graph!.counts.skipped} | ${graph!.counts.edges} | ${timing.medianMs.toFixed(1)} | ${((timing.medianMs * 1000) / pairs).toFixed(2)} | ${(heap / 1e6).toFixed(0)} | ${(rss / 1e6).toFixed(0)} | ${(graph!.makespan / 3600).toFixed(1)} |`);
    if (graph!.cycle) console.log(`cycle at ${size} nodes: ${graph!.cycle.map((p) => `${p.node}:${p.task}`).join(' > ')}`);
  }
}
report('deployment graph: Fuel library (mitaka) + five plugins, conditions evaluated', rows);
console.log('\n## scaling table (memory is the peak seen in this process; targets with conditions: 1,000 nodes < 1 s, 10,000 nodes < 10 s and < 2 GB)');
console.log(table.join('\n'));
