/**
 * The API face of the catalog: one real `hearth serve` (the built CLI, embedded database), and
 * each hostile request must get the expected 4xx with the error shape, within the bound, and leave
 * what is stored (environments, nodes, plugins, releases) exactly as it was.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../support/serve.js';
import { apiCases, type ApiRequest, type KnownIds } from './cases/api.js';
import { CPU_BOUND_MS, repoRoot } from './harness.js';

const built = existsSync(join(repoRoot, 'dist', 'server', 'start.js'));
const options = { skip: built ? false : 'the server is not built: run `npx tsc -p tsconfig.build.json`' };

let server: RunningServer;
let ids: KnownIds;

async function send(r: ApiRequest): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (r.auth === undefined) headers.authorization = `Bearer ${server.token}`;
  else if (r.auth !== false) headers.authorization = r.auth;
  const res = await fetch(server.url + r.path, { method: r.method, headers, ...(r.body !== undefined ? { body: r.body } : {}) });
  return { status: res.status, body: await res.text() };
}

const get = async (path: string) => JSON.parse((await send({ method: 'GET', path })).body);

/** Everything a hostile request could have changed, read back through the API. */
async function storedState(): Promise<string> {
  const [clusters, nodes, plugins, releases] = await Promise.all([get('/api/v1/clusters'), get('/api/v1/nodes'), get('/api/v1/plugins'), get('/api/v1/releases')]);
  return JSON.stringify({ clusters, nodes, plugins, releases });
}

before(async () => {
  if (!built) return;
  server = await startServer();
  const releases = await get('/api/v1/releases');
  const release = releases[0].id as string;
  const cluster = await send({ method: 'POST', path: '/api/v1/clusters', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'hostile', release_id: release, components: ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'] }) });
  assert.equal(cluster.status, 201, cluster.body);
  const nodes = await send({ method: 'POST', path: '/api/v1/nodes', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ simulate: { count: 2 } }) });
  assert.equal(nodes.status, 201, nodes.body);
  ids = { release, cluster: JSON.parse(cluster.body).id, node: JSON.parse(nodes.body).ids[0] };
});

after(async () => {
  await server?.stop();
});

for (const c of apiCases) {
  test(`API: ${c.name} → HTTP ${c.status}${c.code ? ` ${c.code}` : ''}`, options, async (t) => {
    const before = await storedState();
    const request = typeof c.request === 'function' ? c.request(ids) : c.request;
    const started = performance.now();
    const res = await send(request);
    const ms = performance.now() - started;
    t.diagnostic(`${Math.round(ms)} ms`);
    assert.equal(res.status, c.status, `status; body: ${res.body.slice(0, 500)}`);
    assert.ok(ms < CPU_BOUND_MS, `answered in ${Math.round(ms)} ms (bound ${CPU_BOUND_MS} ms)`);
    assert.doesNotMatch(res.body, /\n\s+at .+:\d+:\d+/, 'no stack trace in the answer');
    if (res.body.length > 0 && request.method !== 'HEAD') {
      const body = JSON.parse(res.body) as { code?: string; message?: string; findings?: Array<{ code: string }>; details?: { findings?: Array<{ code: string }> } };
      if (res.status >= 400) assert.equal(typeof body.message, 'string', `an error says why: ${res.body.slice(0, 300)}`);
      const codes = [body.code, ...(body.details?.findings ?? []).map((f) => f.code), ...(body.findings ?? []).map((f) => f.code)];
      if (c.code) assert.ok(codes.includes(c.code), `expected ${c.code}: ${res.body.slice(0, 500)}`);
    }
    assert.equal(await storedState(), before, 'nothing stored may change');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(server.process.exitCode, null, 'the server is still running');
  });
}

test('API: the server is healthy after every hostile request', options, async () => {
  const res = await send({ method: 'GET', path: '/api/v1/releases' });
  assert.equal(res.status, 200);
  assert.doesNotMatch(server.output(), /FATAL|uncaught|unhandled/i);
});
