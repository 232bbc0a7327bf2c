/**
 * `hearth graph` end to end, as a user runs it (issue 30): the built command (bin/hearth; `npm run
 * build` first) reads the Mitaka release fixture, its library's tasks and five plugins, builds the
 * per-node deployment graph of 1,000 and 10,000 nodes with every condition evaluated, and prints the
 * summary; at 10,000 also the whole graph as JSON (`--format json`, to /dev/null). Bare `node -e 0`
 * is the floor, in the same run, the cases taking turns. Wall time, and CPU time (user + system, by
 * /usr/bin/time, in separate runs). Target: 10,000 nodes under 1 s wall.
 * Then the build alone, in this process (graphForCluster at 10,000 nodes): CPU and the time in GC.
 * HEARTH_BIN runs another build of the command (to compare two trees); GRAPH_CLI_RUNS sets the runs (5).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { report, summarise } from './harness.js';

const corpus = process.env.HEARTH_CORPUS!;
const release = join(corpus, 'release/mitaka-eol');
const plugins = ['fuel-plugin-detach-database', 'fuel-plugin-detach-keystone', 'fuel-plugin-detach-rabbitmq', 'fuel-plugin-elasticsearch-kibana', 'fuel-plugin-influxdb-grafana'];
const bin = process.env.HEARTH_BIN ?? join(import.meta.dirname, '..', 'bin', 'hearth');
const runs = Number(process.env.GRAPH_CLI_RUNS ?? 5);
const source = ['--release', join(release, 'fuel-web/nailgun/nailgun/fixtures/openstack.yaml'), '--release-version', 'mitaka-9.0', '--tasks', join(release, 'fuel-library'), ...plugins.flatMap((p) => ['--plugin', join(corpus, 'plugins', p)])];
// The cluster of bench/graph.bench.ts: 3 controllers, one node per plugin role, a ceph-osd in ten, computes.
const spec = (size: number) => `controller:3,standalone-database:1,standalone-keystone:1,standalone-rabbitmq:1,elasticsearch_kibana:1,influxdb_grafana:1,ceph-osd:${Math.floor(size / 10)},compute:${size - 8 - Math.floor(size / 10)}`;

const dist = join(bin, '..', '..', 'dist');
if (!process.env.HEARTH_BIN && !existsSync(join(dist, 'bundle', 'hearth.cjs')) && !existsSync(join(dist, 'cli', 'main.js'))) {
  console.log('(dist/ is missing: run `npm run build` to measure the CLI)');
  process.exit(0);
}

interface Case { name: string; args: string[]; wall: number[]; cpu: number[] }
const cases: Case[] = [];
const add = (name: string, args: string[]) => {
  const c: Case = { name, args, wall: [], cpu: [] };
  cases.push(c);
  return c;
};
const graph = (size: number, format = 'summary') => [bin, 'graph', ...source, '--nodes', spec(size), '--format', format];
const n10k = add('`hearth graph` 10,000 nodes, summary', graph(10000));
const n10kJson = add('`hearth graph` 10,000 nodes, --format json (116 MB)', graph(10000, 'json'));
add('`hearth graph` 1,000 nodes, summary', graph(1000));
const node = add('bare `node -e 0` (floor)', ['-e', '0']);

const check = spawnSync(process.execPath, n10k.args, { encoding: 'utf8', maxBuffer: 1 << 26 });
const firstLines = check.stdout.split('\n').slice(0, 2).join('; ');
if (!/nodes: 10000/.test(check.stdout)) {
  console.log(`hearth graph did not answer as expected (exit ${check.status}): ${check.stderr.slice(0, 500)}`);
  process.exit(1);
}
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const loads: number[] = [];
for (let i = 0; i < runs; i++) {
  for (const c of i % 2 === 0 ? cases : [...cases].reverse()) {
    loads.push(loadavg()[0]);
    const t0 = performance.now();
    spawnSync(process.execPath, c.args, { stdio: 'ignore' });
    c.wall.push(performance.now() - t0);
    if (!timeBin) continue;
    const r = spawnSync(timeBin, ['-f', '%U %S', process.execPath, ...c.args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    const [user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(sys)) c.cpu.push((user + sys) * 1000);
  }
}
const load = `load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`;
const floor = summarise(node.name, node.wall);
const fmt = (ms: number) => ms.toFixed(0);
console.log(`${firstLines} (${load})`);
report(`hearth graph end to end, wall (${runs} runs each, alternating; ${load}; ratio: against node -e 0)`, cases.map((c) => {
  const t = summarise(c.name, c.wall);
  return { ...t, ...(c === node ? {} : { baselineMs: floor.medianMs }), ...(c === n10k || c === n10kJson ? { targetMs: 1000 } : {}), note: `min ${fmt(t.minMs)}` };
}));
if (timeBin) {
  const nodeCpu = summarise(node.name, node.cpu);
  report('the same, CPU time (user + system; 10 ms ticks)', cases.map((c) => {
    const t = summarise(c.name, c.cpu);
    return { ...t, ...(c === node ? {} : { baselineMs: nodeCpu.medianMs }), note: `min ${fmt(t.minMs)}` };
  }));
}

// The build alone, in this process: CPU and GC of graphForCluster at 10,000 nodes.
const { composeFromDisk } = await import('../src/package/release/compose.js');
const { graphForCluster } = await import('../src/core/graph/index.js');
const { nodesFromSpec } = await import('../src/cli/commands/graph-command.js');
const { composition } = composeFromDisk({ release: source[1], releaseVersion: 'mitaka-9.0', tasks: source[5], plugin: plugins.map((p) => join(corpus, 'plugins', p)) });
const nodes = nodesFromSpec(spec(10000)).nodes;
let gcMs = 0;
const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => (gcMs += e.duration)));
observer.observe({ entryTypes: ['gc'] });
const cpu: number[] = [];
const gc: number[] = [];
const wall: number[] = [];
for (let i = 0; i < runs + 1; i++) {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 0));
  gcMs = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  graphForCluster({ composed: composition!.composed, nodes });
  const ms = performance.now() - t0;
  const used = process.cpuUsage(c0);
  await new Promise((r) => setTimeout(r, 0)); // the observer reports after the build
  if (i === 0) continue;
  wall.push(ms);
  cpu.push((used.user + used.system) / 1000);
  gc.push(gcMs);
}
observer.disconnect();
const cpuT = summarise('graphForCluster, 10,000 nodes: CPU (user + system)', cpu);
const gcT = summarise('GC pauses (gc entries: wall time, longer than their CPU on a loaded machine)', gc);
report(`the build alone, in process (${runs} runs after one warm-up)`, [
  { ...summarise('graphForCluster, 10,000 nodes: wall', wall), note: `min ${fmt(Math.min(...wall))}` },
  { ...cpuT, note: `min ${fmt(cpuT.minMs)}` },
  { ...gcT, note: `min ${fmt(gcT.minMs)}; ${((gcT.medianMs / wall.sort((a, b) => a - b)[wall.length >> 1]) * 100).toFixed(0)}% of the wall median` },
]);
