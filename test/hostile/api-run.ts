/** Running API cases against a real server: shared by api.test.ts and the catalog table. */
import assert from 'node:assert/strict';
import type { RunningServer } from '../support/serve.js';
import type { ApiCase, ApiRequest, KnownIds } from './cases/api.js';
import { CPU_BOUND_MS, WALL_BOUND_MS, processCpuMs } from './harness.js';

export const API_BASE_COMPONENTS = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

export async function send(server: RunningServer, r: ApiRequest): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (r.auth === undefined) headers.authorization = `Bearer ${server.token}`;
  else if (r.auth !== false) headers.authorization = r.auth;
  const res = await fetch(server.url + r.path, { method: r.method, headers, ...(r.body !== undefined ? { body: r.body } : {}) });
  return { status: res.status, body: await res.text() };
}

const get = async (server: RunningServer, path: string) => JSON.parse((await send(server, { method: 'GET', path })).body);

/** Everything a hostile request could have changed, read back through the API. */
export async function storedState(server: RunningServer): Promise<string> {
  const [clusters, nodes, plugins, releases] = await Promise.all(['/api/v1/clusters', '/api/v1/nodes', '/api/v1/plugins', '/api/v1/releases'].map((p) => get(server, p)));
  return JSON.stringify({ clusters, nodes, plugins, releases });
}

/** An environment and two nodes for the cases that need real ids. */
export async function prepare(server: RunningServer): Promise<KnownIds> {
  const release = (await get(server, '/api/v1/releases'))[0].id as string;
  const json = { 'content-type': 'application/json' };
  const cluster = await send(server, { method: 'POST', path: '/api/v1/clusters', headers: json, body: JSON.stringify({ name: 'hostile', release_id: release, components: API_BASE_COMPONENTS }) });
  assert.equal(cluster.status, 201, cluster.body);
  const nodes = await send(server, { method: 'POST', path: '/api/v1/nodes', headers: json, body: JSON.stringify({ simulate: { count: 2 } }) });
  assert.equal(nodes.status, 201, nodes.body);
  return { release, cluster: JSON.parse(cluster.body).id, node: JSON.parse(nodes.body).ids[0] };
}

/** Send one hostile request and check what every API case promises; returns the time it took. */
export async function runApiCase(server: RunningServer, ids: KnownIds, c: ApiCase): Promise<number> {
  const before = await storedState(server);
  const request = typeof c.request === 'function' ? c.request(ids) : c.request;
  const cpuBefore = processCpuMs(server.process.pid!);
  const started = performance.now();
  const res = await send(server, request);
  const ms = performance.now() - started;
  const cpuMs = processCpuMs(server.process.pid!) - cpuBefore;
  assert.equal(res.status, c.status, `status; body: ${res.body.slice(0, 500)}`);
  // The bound is on the server's CPU: the wall time also holds whatever else a busy machine does.
  assert.ok(cpuMs < CPU_BOUND_MS, `answered after ${Math.round(cpuMs)} ms of the server's CPU (bound ${CPU_BOUND_MS} ms; ${Math.round(ms)} ms wall)`);
  assert.ok(ms < WALL_BOUND_MS, `answered in ${Math.round(ms)} ms (a hang: bound ${WALL_BOUND_MS} ms)`);
  assert.doesNotMatch(res.body, /\n\s+at .+:\d+:\d+/, 'no stack trace in the answer');
  if (res.body.length > 0) {
    const body = JSON.parse(res.body) as { code?: string; message?: string; findings?: Array<{ code: string }>; details?: { findings?: Array<{ code: string }> } };
    if (res.status >= 400) assert.equal(typeof body.message, 'string', `an error says why: ${res.body.slice(0, 300)}`);
    const codes = [body.code, ...(body.details?.findings ?? []).map((f) => f.code), ...(body.findings ?? []).map((f) => f.code)];
    if (c.code) assert.ok(codes.includes(c.code), `expected ${c.code}: ${res.body.slice(0, 500)}`);
  }
  assert.equal(await storedState(server), before, 'nothing stored may change');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(server.process.exitCode, null, 'the server is still running');
  return ms;
}
