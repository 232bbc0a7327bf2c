/**
 * Bounded environments and graph answers: a cap on nodes per environment, graphs built once per
 * environment state (ETag, 304), and read in pages.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { readPluginFolder, storePlugin } from '../../src/server/domain/plugins.js';
import type { Database } from '../../src/store/index.js';
import { engines } from './support/engines.js';
import { bundledRelease, TOKEN } from './support/app.js';
import { API_BASE_COMPONENTS } from '../hostile/api-run.js';

describe('graph answers and the node cap', () => {
  const [engine] = engines();
  let db: Database;
  let app: FastifyInstance;
  let cluster: number;
  let nodes: number[];
  const call = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: method as never, url, headers: { authorization: `Bearer ${TOKEN}`, ...headers }, ...(body === undefined ? {} : { payload: body as never }) });

  before(async () => {
    db = await engine.open();
    await storePlugin(db, readPluginFolder(bundledRelease), { kind: 'bundled', path: bundledRelease });
    app = await buildApp({ db, adminToken: TOKEN, maxEnvironmentNodes: 5 });
    const release = (await call('GET', '/api/v1/releases')).json()[0].id;
    cluster = (await call('POST', '/api/v1/clusters', { name: 'bounded', release_id: release, components: API_BASE_COMPONENTS })).json().id;
    nodes = (await call('POST', '/api/v1/nodes', { simulate: { count: 7 } })).json().ids;
    const assigned = await call('POST', `/api/v1/clusters/${cluster}/nodes`, { assignments: [{ node_id: nodes[0], roles: ['controller'] }, ...nodes.slice(1, 4).map((id) => ({ node_id: id, roles: ['compute'] }))] });
    assert.equal(assigned.statusCode, 200, assigned.body);
  });

  after(async () => {
    await app?.close();
    await db?.close();
    await engine.dispose();
  });

  test('an environment holds at most the configured number of nodes; the refusal says the limit and changes nothing', async () => {
    const ok = await call('POST', `/api/v1/clusters/${cluster}/nodes`, { assignments: [{ node_id: nodes[4], roles: ['compute'] }] });
    assert.equal(ok.statusCode, 200, 'the fifth node fits');
    const before = (await call('GET', `/api/v1/clusters/${cluster}/nodes`)).body;
    const over = await call('POST', `/api/v1/clusters/${cluster}/nodes`, { assignments: [{ node_id: nodes[5], roles: ['compute'] }, { node_id: nodes[6], roles: ['compute'] }] });
    assert.equal(over.statusCode, 409, over.body);
    assert.equal(over.json().code, 'cluster/too-many-nodes');
    assert.equal(over.json().details.limit, 5);
    assert.match(over.json().message, /would hold 7 nodes/);
    assert.equal((await call('GET', `/api/v1/clusters/${cluster}/nodes`)).body, before);
    const reassign = await call('POST', `/api/v1/clusters/${cluster}/nodes`, { assignments: [{ node_id: nodes[4], roles: ['compute', 'cinder'] }] });
    assert.notEqual(reassign.json().code, 'cluster/too-many-nodes', 'changing the roles of a node already in does not count it twice');
  });

  test('an unchanged environment answers its graph with the same ETag, and 304 to a client that has it', async () => {
    const url = `/api/v1/clusters/${cluster}/graphs/default`;
    const first = await call('GET', url);
    assert.equal(first.statusCode, 200, first.body);
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[\w-]+"$/);
    const again = await call('GET', url, undefined, { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    // Each format is its own representation with its own ETag (a cache keyed by ETag handed the
    // JSON out as the DOT export once: the Graph tab's download held JSON).
    const gzip = { 'accept-encoding': 'gzip' };
    const zipped = await call('GET', url, undefined, gzip);
    assert.equal(zipped.headers['content-encoding'], 'gzip', 'the graph is big enough to be compressed');
    const dot = await call('GET', `${url}?format=dot`, undefined, gzip);
    assert.equal(dot.statusCode, 200);
    assert.match(gunzipSync(dot.rawPayload).toString(), /^digraph /, 'the DOT export is DOT, after the JSON was compressed');
    const dotTag = String(dot.headers.etag).replace(/^W\//, '');
    assert.notEqual(dotTag, etag, 'the DOT text and the JSON are different bodies');
    assert.equal((await call('GET', `${url}?format=dot`, undefined, { 'if-none-match': etag })).statusCode, 200, "the JSON's ETag does not validate the DOT");
    assert.equal((await call('GET', `${url}?format=dot`, undefined, { 'if-none-match': dotTag })).statusCode, 304);
    const page = await call('GET', `${url}?limit=1`);
    assert.notEqual(page.headers.etag, etag, 'a page is not the whole graph');
    await call('POST', `/api/v1/clusters/${cluster}/nodes/unassign`, { node_ids: [nodes[4]] });
    const changed = await call('GET', url, undefined, { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200, 'a change of roles is a new graph');
    assert.notEqual(changed.headers.etag, etag);
    assert.equal(changed.json().nodes.length, first.json().nodes.length - 1);
  });

  test('graph answers come in pages of nodes, and by node', async () => {
    const url = `/api/v1/clusters/${cluster}/graphs/default`;
    const whole = (await call('GET', url)).json();
    const ids = whole.nodes.map((n: { id: string }) => String(n.id));
    assert.ok(ids.length >= 3, ids.join(','));
    const seen: string[] = [];
    let marker: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page: { nodes: Array<{ id: string }>; next_marker: string | null } = (await call('GET', `${url}?limit=2${marker ? `&marker=${marker}` : ''}`)).json();
      assert.ok(page.nodes.length <= 2);
      seen.push(...page.nodes.map((n: { id: string }) => String(n.id)));
      marker = page.next_marker;
      if (!marker) break;
    }
    assert.deepEqual(seen, ids, 'the pages together are the whole graph, in order');
    const one = (await call('GET', `${url}?node=${ids[1]}`)).json();
    assert.deepEqual(one.nodes.map((n: { id: string }) => String(n.id)), [ids[1]]);
    assert.deepEqual(one.critical_path, whole.critical_path, 'the graph-wide answers stay whole');
    assert.equal((await call('GET', `${url}?limit=0`)).statusCode, 400);
  });
});

test('a graph is built off the request thread: the event loop keeps turning while a 1,000-node graph builds, and the answer is core\'s', async () => {
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const { loadReleaseSource } = await import('../../src/package/release/source.js');
  const { composeRelease } = await import('../../src/core/release/compose.js');
  const { graphForCluster } = await import('../../src/core/graph/index.js');
  const { graphToJson } = await import('../../src/core/graph/format.js');
  const { buildGraphText } = await import('../../src/server/domain/graph-build.js');
  const composed = composeRelease(loadReleaseSource(bundledRelease).release!, []).composed;
  const roles = ['controller', 'controller', 'controller', 'database', 'messaging'];
  const input = { composed, nodes: Array.from({ length: 1000 }, (_, i) => ({ id: String(i + 1), roles: [roles[i] ?? 'compute'] })), type: 'default' };
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  const text = await buildGraphText(input, 'json', []);
  const took = performance.now() - started;
  delay.disable();
  const longestStallMs = delay.max / 1e6;
  assert.ok(took > 100, `a 1,000-node graph takes a while to build (${Math.round(took)} ms)`);
  // Built here, the loop would stall for the whole build; in the worker it only waits for messages.
  assert.ok(longestStallMs < took / 2, `the event loop stalled ${Math.round(longestStallMs)} ms of a ${Math.round(took)} ms build`);
  const here = graphForCluster(input);
  const answer = JSON.parse(text);
  assert.deepEqual(answer.nodes, JSON.parse(JSON.stringify(graphToJson(here).nodes)));
  assert.deepEqual(answer.critical_path, here.criticalPath);
});
