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
 * it, and no environment is stuck "deploying". On PostgreSQL a restart can come before the dead
 * server's session (and its presence lock) is gone; `stillRunning: 'allow'` lets the caller check
 * instead that the next deployment fails the dead one and starts.
 */
export async function checkInvariants(api: Api, options: { stillRunning?: 'refuse' | 'allow' } = {}): Promise<{ plugins: number; clusters: number; nodes: number; deployments: Row[] }> {
  const strict = options.stillRunning !== 'allow';
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
    if (strict) assert.notEqual(c.status, 'deploying', `environment ${String(c.id)} is stuck deploying after a restart`);
    const list = (await api.call('GET', `/api/v1/clusters/${String(c.id)}/deployments`)).json as Row[];
    for (const d of list) {
      if (strict) assert.notEqual(d.status, 'running', `deployment ${String(d.id)} is left running after a restart`);
      deployments.push(d);
    }
  }
  const nodes = (await api.call('GET', '/api/v1/nodes')).json as Row[];
  for (const n of nodes) {
    if (n.cluster_id !== null && n.cluster_id !== undefined) assert.ok(clusterIds.has(n.cluster_id), `node ${String(n.id)} belongs to environment ${String(n.cluster_id)}, which does not exist`);
  }
  return { plugins: plugins.length, clusters: clusters.length, nodes: nodes.length, deployments };
}

/** A database of its own on the PostgreSQL at `url`, so a fault test shares it with nobody. */
export async function freshDatabase(url: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
