/**
 * A page costs a page (issue 24, item 19): `?limit=1` over 100,000 nodes took 2.3 s of the server,
 * without a token, because the whole list was read and cut afterwards. On a real server over
 * 20,000 nodes, 3,000 environments, 3,000 deployments and 1,000 plugins, every paged list (nodes,
 * environments, plugins, deployments) reads from the database only about the rows of its page
 * (counted on the server's own database handle), and the pages still add up to the whole list.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';

const TOKEN = 'paging-work-token-0123456789';
const NODES = 20_000;
const BULK = { clusters: 3000, deployments: 3000, plugins: 1000 };

describe('a page of a long list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-paging-work-'));
  let server: RunningServer;
  let clusterId = 0;
  let rowsRead = 0;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, link: res.headers.get('link'), body: text ? JSON.parse(text) : undefined };
  };

  before(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, sweepMs: 60_000, maxEnvironmentNodes: NODES });
    for (let i = 0; i < NODES / 5000; i++) assert.equal((await call('POST', '/nodes', { simulate: { count: 5000 } })).status, 201);
    const [release] = (await call('GET', '/releases')).body;
    const catalog: Array<{ name: string; default?: boolean }> = (await call('GET', `/releases/${encodeURIComponent(release.id)}/components`)).body;
    const env = await call('POST', '/clusters', { name: 'long', release_id: release.id, components: catalog.filter((c) => c.default).map((c) => c.name) });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    clusterId = env.body.id;
    const all: Array<{ id: number }> = (await call('GET', '/nodes?unassigned=true')).body;
    const half = all.slice(0, NODES / 2).map((n) => n.id);
    for (let i = 0; i < half.length; i += 5000) {
      const res = await call('POST', `/clusters/${clusterId}/nodes`, { assignments: half.slice(i, i + 5000).map((id) => ({ node_id: id, roles: ['compute'] })) });
      assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 500));
    }
    // The other long lists, written straight into the server's database (the API would take minutes).
    const sql = server.db as { query: (sql: string, params?: readonly unknown[]) => Promise<unknown[]> };
    await sql.query(`INSERT INTO clusters (name, release_id, components, attributes) SELECT 'bulk-' || i, $1, '[]', '{}' FROM generate_series(1, ${BULK.clusters}) i`, [release.id]);
    await sql.query(`INSERT INTO deployments (cluster_id, graph_type, status, total) SELECT $1, 'default', 'succeeded', 0 FROM generate_series(1, ${BULK.deployments})`, [clusterId]);
    await sql.query(`INSERT INTO deployments (cluster_id, graph_type, status, total) SELECT max(id), 'default', 'succeeded', 0 FROM clusters`);
    await sql.query(
      `INSERT INTO plugins (id, name, version, package_version, title, description, is_release, source_kind, source_path, loaded)
       SELECT 'bulk-' || i || '-1.0.0', 'bulk-' || i, '1.0.0', p.package_version, p.title, p.description, p.is_release, p.source_kind, p.source_path, p.loaded
       FROM (SELECT * FROM plugins LIMIT 1) p, generate_series(1, ${BULK.plugins}) i`,
    );
    // Every row the server reads, counted on its own database handle.
    const db = server.db as { query: (sql: string, params?: readonly unknown[]) => Promise<unknown[]> };
    const query = db.query.bind(db);
    db.query = async (sql, params) => {
      const rows = await query(sql, params);
      rowsRead += rows.length;
      return rows;
    };
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('reads about its own rows, whatever the list holds', async (t) => {
    const whole: Array<{ id: number }> = (await call('GET', '/nodes')).body;
    assert.equal(whole.length, NODES);
    const clusters: Array<{ id: number }> = (await call('GET', '/clusters')).body;
    const plugins: Array<{ id: string }> = (await call('GET', '/plugins')).body;
    const deployments: Array<{ id: number }> = (await call('GET', `/clusters/${clusterId}/deployments`)).body;
    assert.ok(clusters.length > BULK.clusters && plugins.length > BULK.plugins && deployments.length === BULK.deployments);
    for (const path of [
      '/nodes?limit=1',
      `/nodes?limit=2&marker=${whole[NODES - 100].id}`,
      '/nodes?limit=1&unassigned=true',
      `/nodes?limit=1&cluster_id=${clusterId}`,
      `/clusters/${clusterId}/nodes?limit=1`,
      `/clusters/${clusterId}/nodes?limit=3&marker=${whole[10].id}`,
      '/clusters?limit=1',
      `/clusters?limit=2&marker=${clusters[10].id}`,
      '/plugins?limit=1',
      `/plugins?limit=2&marker=${plugins[10].id}`,
      '/deployments?limit=1',
      `/deployments?limit=2&marker=${deployments[10].id}`,
      `/deployments?limit=1&cluster_id=${clusterId}`,
      `/clusters/${clusterId}/deployments?limit=1`,
      `/clusters/${clusterId}/deployments?limit=3&marker=${deployments[100].id}`,
    ]) {
      rowsRead = 0;
      const t0 = performance.now();
      const res = await call('GET', path);
      const ms = performance.now() - t0;
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      t.diagnostic(`${path}: ${res.body.length} items, ${rowsRead} rows read, ${Math.round(ms)} ms`);
      assert.ok(rowsRead <= 20, `${path} read ${rowsRead} rows of the database for a page of ${res.body.length}`);
      assert.match(res.link ?? '', /rel="next"/, `${path}: a next page`);
    }
  });

  test('the pages still add up to the list, and an unknown marker is still refused', async () => {
    const inCluster: Array<{ id: number }> = (await call('GET', `/clusters/${clusterId}/nodes`)).body;
    const seen: number[] = [];
    let url: string | undefined = `/clusters/${clusterId}/nodes?limit=1000`;
    while (url) {
      const res = await call('GET', url.replace(/^\/api\/v1/, ''));
      assert.equal(res.status, 200);
      seen.push(...res.body.map((n: { id: number }) => n.id));
      url = /<([^>]+)>; rel="next"/.exec(res.link ?? '')?.[1];
    }
    assert.deepEqual(seen, inCluster.map((n) => n.id));
    // Environments, plugins and deployments (all, and one environment's), in the same order as whole.
    for (const list of ['/clusters', '/plugins', '/deployments', `/deployments?cluster_id=${clusterId}`, `/clusters/${clusterId}/deployments`]) {
      const all: Array<{ id: unknown }> = (await call('GET', list)).body;
      const paged: unknown[] = [];
      let next: string | undefined = `${list}${list.includes('?') ? '&' : '?'}limit=700`;
      while (next) {
        const res = await call('GET', next.replace(/^\/api\/v1/, ''));
        assert.equal(res.status, 200, `${next}: ${JSON.stringify(res.body)}`);
        paged.push(...res.body.map((x: { id: unknown }) => x.id));
        next = /<([^>]+)>; rel="next"/.exec(res.link ?? '')?.[1];
      }
      assert.deepEqual(paged, all.map((x) => x.id), list);
    }
    const otherDeployment = (await call('GET', '/deployments?limit=1')).body[0].id;
    for (const [path, marker] of [['/clusters', '999999999'], ['/clusters', 'abc'], ['/plugins', 'no-such-plugin'], ['/plugins?name=bulk-1', 'bulk-2-1.0.0'], ['/deployments', '999999999'], [`/clusters/${clusterId}/deployments`, String(otherDeployment)], [`/deployments?cluster_id=${clusterId}`, String(otherDeployment)]]) {
      const res = await call('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1&marker=${marker}`);
      assert.equal(res.status, 400, `${path} after ${marker}`);
      assert.equal(res.body.code, 'request/unknown-marker', `${path} after ${marker}`);
    }
    const outside = (await call('GET', '/nodes?unassigned=true&limit=1')).body[0].id;
    for (const marker of ['999999999', 'abc', '-1', String(outside)]) {
      const res = await call('GET', `/clusters/${clusterId}/nodes?limit=1&marker=${marker}`);
      assert.equal(res.status, 400, marker);
      assert.equal(res.body.code, 'request/unknown-marker', marker);
    }
  });
});
