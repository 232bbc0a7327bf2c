/**
 * Fault-test helpers: a real `hearth serve` on a data folder that outlives it, requests with the
 * admin token, a SIGKILL at a chosen moment, and the invariants every restart must find true.
 */
import assert from 'node:assert/strict';
import { startServer, type RunningServer } from '../support/serve.js';

export const TOKEN = `faults-${'x'.repeat(24)}`;

export interface Api {
  server: RunningServer;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; text: string }>;
}

export async function serve(dataDir: string, env: Record<string, string> = {}): Promise<Api> {
  const server = await startServer({ dataDir, env: { HEARTH_ADMIN_TOKEN: TOKEN, ...env } });
  return {
    server,
    async call(method, path, body) {
      const res = await fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, json, text };
    },
  };
}

/** Send a request and SIGKILL the server `afterMs` later, whether or not it has answered. */
export async function killDuring(api: Api, afterMs: number, request: () => Promise<unknown>): Promise<'answered' | 'cut'> {
  const exited = new Promise((r) => api.server.process.once('exit', r));
  const sent = request().then(
    () => 'answered' as const,
    () => 'cut' as const,
  );
  await new Promise((r) => setTimeout(r, afterMs));
  api.server.process.kill('SIGKILL');
  await exited;
  return sent;
}

type Row = Record<string, unknown>;

/**
 * What must hold after any crash: every listed plugin, environment and node reads back whole; no
 * node points at an environment that is gone; no deployment is left running with no server to run
 * it, and no environment is stuck "deploying".
 */
export async function checkInvariants(api: Api): Promise<{ plugins: number; clusters: number; nodes: number; deployments: Row[] }> {
  const plugins = (await api.call('GET', '/api/v1/plugins')).json as Row[];
  for (const p of plugins) {
    const detail = await api.call('GET', `/api/v1/plugins/${encodeURIComponent(String(p.id))}`);
    assert.equal(detail.status, 200, `plugin ${String(p.id)} is listed but does not read back: ${detail.text}`);
  }
  const clusters = (await api.call('GET', '/api/v1/clusters')).json as Row[];
  const clusterIds = new Set(clusters.map((c) => c.id));
  const deployments: Row[] = [];
  for (const c of clusters) {
    for (const path of [`/api/v1/clusters/${String(c.id)}`, `/api/v1/clusters/${String(c.id)}/attributes`, `/api/v1/clusters/${String(c.id)}/nodes`]) {
      const res = await api.call('GET', path);
      assert.equal(res.status, 200, `${path} does not read back: ${res.text}`);
    }
    assert.notEqual(c.status, 'deploying', `environment ${String(c.id)} is stuck deploying after a restart`);
    const list = (await api.call('GET', `/api/v1/clusters/${String(c.id)}/deployments`)).json as Row[];
    for (const d of list) {
      assert.notEqual(d.status, 'running', `deployment ${String(d.id)} is left running after a restart`);
      deployments.push(d);
    }
  }
  const nodes = (await api.call('GET', '/api/v1/nodes')).json as Row[];
  for (const n of nodes) {
    if (n.cluster_id !== null && n.cluster_id !== undefined) assert.ok(clusterIds.has(n.cluster_id), `node ${String(n.id)} belongs to environment ${String(n.cluster_id)}, which does not exist`);
  }
  return { plugins: plugins.length, clusters: clusters.length, nodes: nodes.length, deployments };
}
