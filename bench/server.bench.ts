/**
 * The server under load on loopback (autocannon, 10 connections), side by side in one run: a
 * trivial route of the same server (GET /api/v1/version: routing, auth, hooks and serialisation
 * only) as the baseline, then GET /releases/{id}/components (cached reads; goal: at least 25% of the
 * baseline's throughput) and POST /clusters (environment creation; goal: at least 10%, issue 30). Then the
 * graph endpoint of a 1,000-node environment (target: under 2 s).
 * The server is started as `hearth serve` starts it (startServer): embedded database in a data
 * folder, in its own thread, the bundled release installed at first start, and one plugin.
 */
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPluginFolder, storePlugin } from '../src/server/domain/plugins.js';
import { startServer } from '../src/server/start.js';
import { report, timeAsync } from './harness.js';
import { writePlugin } from '../test/server/support/plugins.js';

const TOKEN = 'bench-admin-token-0123456789';
const dataDir = mkdtempSync(join(tmpdir(), 'hearth-bench-server-'));
const server = await startServer({ dataDir, port: 0, adminToken: TOKEN, deploy: { sliceDelayMs: 0, sliceSize: 1000 } });
const { db } = server;
await storePlugin(db, readPluginFolder(writePlugin({ name: 'benchplug' })), { kind: 'folder' });
const url = server.url;
const getJson = async (res: Response | Promise<Response>): Promise<any> => (await res).json();
const release = (await getJson(fetch(`${url}/api/v1/releases`)))[0].id as string;
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const components = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph', 'additional_service:benchplug'];
const seconds = Number(process.env.HEARTH_BENCH_SECONDS ?? 8);

async function load(title: string, options: autocannon.Options): Promise<autocannon.Result> {
  const result = await autocannon({ duration: seconds, connections: 10, ...options, url: `${url}${options.url ?? ''}` });
  const non2xx = result.non2xx + result.errors;
  console.log(`| ${title} | ${result.requests.average.toFixed(0)} req/s | p50 ${result.latency.p50} ms | p99 ${result.latency.p99} ms | ${result.requests.total} requests | ${non2xx} non-2xx/errors |`);
  return result;
}

const loadBefore = loadavg()[0];
console.log('\n## Throughput and latency on loopback (autocannon, 10 connections, %d s each)', seconds);
console.log('| case | throughput | p50 | p99 | total | failures |');
console.log('|---|---|---|---|---|---|');
const baseline = await load('GET /api/v1/version (baseline)', { url: '/api/v1/version' });
const componentsRun = await load('GET /releases/{id}/components', { url: `/api/v1/releases/${release}/components` });
let n = 0;
const createRun = await load('POST /clusters (unique names)', {
  url: '/api/v1/clusters',
  method: 'POST',
  headers: auth,
  requests: [
    {
      method: 'POST',
      path: '/api/v1/clusters',
      headers: auth,
      setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify({ name: `bench-${n++}`, release_id: release, components }) }),
    },
  ],
});
const ratio = (r: autocannon.Result) => r.requests.average / baseline.requests.average;
const verdict = (r: autocannon.Result, goal: number) => `${(ratio(r) * 100).toFixed(1)}% of the baseline (goal ${goal * 100}%: ${ratio(r) >= goal ? 'met' : 'MISSED'})`;
console.log(`\ncomponents: ${verdict(componentsRun, 0.25)}; create: ${verdict(createRun, 0.1)}; load average ${loadBefore.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`);

// A 1,000-node environment.
const created = await getJson(fetch(`${url}/api/v1/clusters`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'big', release_id: release, components }) }));
const ids: number[] = (await getJson(fetch(`${url}/api/v1/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ simulate: { count: 1000 } }) }))).ids;
const roleFor = (i: number) => (i < 3 ? ['controller'] : i < 6 ? ['database', 'messaging'] : i < 56 ? ['ceph-osd'] : i < 60 ? ['benchplug-node'] : ['compute']);
const assign = await fetch(`${url}/api/v1/clusters/${created.id}/nodes`, { method: 'POST', headers: auth, body: JSON.stringify({ assignments: ids.map((id, i) => ({ node_id: id, roles: roleFor(i) })) }) });
if (!assign.ok) throw new Error(`assign failed: ${await assign.text()}`);
const graphUrl = `${url}/api/v1/clusters/${created.id}/graphs/default`;
let size = 0;
const graph = await timeAsync('GET /clusters/{id}/graphs/default (1,000 nodes, json)', async () => {
  const res = await fetch(graphUrl);
  size = (await res.arrayBuffer()).byteLength;
}, { runs: 5, warmup: 1 });
const dot = await timeAsync('GET … ?format=dot (1,000 nodes)', async () => void (await (await fetch(`${graphUrl}?format=dot`)).arrayBuffer()), { runs: 3, warmup: 1 });
const deploy = await timeAsync('POST /clusters/{id}/deploy → succeeded (1,000 nodes)', async () => {
  const d = await getJson(fetch(`${url}/api/v1/clusters/${created.id}/deploy`, { method: 'POST', headers: auth, body: '{}' }));
  if (!d.id) throw new Error(JSON.stringify(d));
  for (;;) {
    const s = await getJson(fetch(`${url}/api/v1/clusters/${created.id}/deployments/${d.id}`));
    if (s.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 20));
  }
}, { runs: 1, warmup: 0 });
report('1,000-node environment', [{ ...graph, targetMs: 2000, note: `${(size / 1e6).toFixed(1)} MB JSON` }, dot, deploy]);

// Compression and the request thread (issue 31 item 11): how long the request thread is busy
// (event loop utilisation's active time; this process is the server) per answer while the
// 1,000-node graph is fetched at URLs of its own, so that each answer is compressed anew (the
// graph itself comes from its cache), beside the same fetches without compression in the same run;
// and the longest gap of a 1 ms timer meanwhile. Compression on the request thread adds its whole
// time to each answer's busy time; off it, brotli and gzip cost the thread about what identity does.
async function threadBusy(encoding: string, count: number): Promise<{ busyMs: number; maxGapMs: number; eachMs: number; bytes: number }> {
  let maxGapMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 1);
  let bytes = 0;
  const elu = performance.eventLoopUtilization();
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    // Node's fetch would decompress on this thread too: the answer is read as the bytes sent.
    const res = await fetch(`${graphUrl}?bust=${encoding}-${i}-${Math.random()}`, { headers: { 'accept-encoding': encoding } });
    bytes = Number(res.headers.get('content-length') ?? 0) || (await res.arrayBuffer()).byteLength;
    if (!res.bodyUsed) await res.body?.cancel();
  }
  const eachMs = (performance.now() - t0) / count;
  const busyMs = performance.eventLoopUtilization(elu).active / count;
  clearInterval(timer);
  return { busyMs, maxGapMs, eachMs, bytes };
}
console.log('\n## The request thread while answers are compressed (1,000-node graph, each answer at a URL of its own, 6 a row)');
console.log('| Accept-Encoding | thread busy ms an answer | ms an answer | longest gap of a 1 ms timer, ms |');
console.log('|---|---|---|---|');
for (const encoding of ['identity', 'br', 'gzip', 'identity', 'br', 'gzip']) {
  const r = await threadBusy(encoding, 6);
  console.log(`| ${encoding} | ${r.busyMs.toFixed(0)} | ${r.eachMs.toFixed(0)} | ${r.maxGapMs.toFixed(0)} |`);
}
await server.close();
rmSync(dataDir, { recursive: true, force: true });
