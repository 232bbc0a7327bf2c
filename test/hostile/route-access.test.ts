/**
 * Every route of the server, taken from Fastify's own route table (so a route added tomorrow is
 * walked too), asked for with every spelling of its path an attacker would try and without a
 * valid token: a change is refused or not found, never made; under --protect-reads a read is too.
 * After each refused request every stored row is compared with what it was before.
 *
 * Requests go over a real socket with the path exactly as written (`fetch` would tidy `/./` and
 * `..` away before sending, hiding what a raw client can do).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { roleNeeded } from '../../src/server/access.js';
import { readPluginFolder, storePlugin } from '../../src/server/domain/plugins.js';
import type { Database } from '../../src/store/index.js';
import { engines } from '../server/support/engines.js';
import { bundledRelease, TOKEN } from '../server/support/app.js';
import { API_BASE_COMPONENTS } from './api-run.js';

interface Answer {
  status: number;
  body: string;
}

function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The same path as a router might still match it: each spelling of `/api/v1/…` an attacker tries. */
export function spellings(path: string): Array<{ name: string; path: string; mustBe404?: boolean }> {
  const rest = path.slice('/api/v1'.length);
  return [
    { name: 'plain', path },
    { name: 'trailing slash', path: `${path}/` },
    { name: '%61pi', path: `/%61pi/v1${rest}` },
    { name: '%61pi with a trailing slash', path: `/%61pi/v1${rest}/` },
    { name: '%41PI', path: `/%41PI/v1${rest}`, mustBe404: true },
    { name: 'API in capitals', path: `/API/v1${rest}` },
    { name: 'doubled leading slash', path: `//api/v1${rest}` },
    { name: 'doubled inner slash', path: `/api//v1${rest}` },
    { name: '/./ before api', path: `/./api/v1${rest}` },
    { name: 'v1/../v1', path: `/api/v1/../v1${rest}` },
    { name: '%2f for slashes', path: path.replace(/\//g, '%2f').replace(/^%2f/, '/') },
    { name: '%2F after api', path: `/api%2Fv1${rest}` },
    { name: '%76%31 for v1', path: `/api/%76%31${rest}` },
  ];
}

/** A body that would make the write happen were the token not checked: the test must be able to fail. */
function bodyFor(method: string, url: string, ids: Ids): string | undefined {
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') return undefined;
  const bodies: Record<string, unknown> = {
    'POST /api/v1/nodes': { simulate: { count: 1 } },
    'POST /api/v1/clusters': { name: `sneaky-${Math.random().toString(36).slice(2, 8)}`, release_id: ids.release, components: API_BASE_COMPONENTS },
    'PATCH /api/v1/clusters/:id': { name: 'renamed-by-nobody' },
    'PUT /api/v1/clusters/:id/attributes': { plugins: {} },
    'POST /api/v1/clusters/:id/nodes': { assignments: [{ node_id: ids.node, roles: ['controller'] }] },
    'POST /api/v1/clusters/:id/nodes/unassign': { node_ids: [ids.node] },
    'POST /api/v1/clusters/:id/deploy': {},
    'POST /api/v1/plugins/folders': { path: bundledRelease },
  };
  return JSON.stringify(bodies[`${method} ${url}`] ?? {});
}

interface Ids {
  release: string;
  plugin: string;
  cluster: number;
  node: number;
}

function concrete(url: string, ids: Ids): string {
  const owner = url.split('/')[3];
  return url
    .replace(/:type\b/, 'default')
    .replace(/:deployment\b/, '1')
    .replace(/:id\b/, () => String(owner === 'clusters' ? ids.cluster : owner === 'releases' ? ids.release : owner === 'nodes' ? ids.node : ids.plugin));
}

/** A query reading every stored row of every table, in a stable order, as one JSON row. */
async function everyRowQuery(db: Database): Promise<string> {
  const tables = await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`);
  assert.ok(tables.length >= 5, `only ${tables.length} tables found`);
  return `SELECT ${tables.map((t) => `(SELECT coalesce(json_agg(r ORDER BY r::text), '[]'::json) FROM "${t.table_name}" r) AS "${t.table_name}"`).join(', ')}`;
}

const NO_TOKENS: Array<{ name: string; headers: (path: string) => Record<string, string>; query?: string }> = [
  { name: 'no token', headers: () => ({}) },
  { name: 'a wrong token', headers: () => ({ authorization: 'Bearer hearth_not-the-token-0000000000000000' }) },
  { name: 'the right token in the query string', headers: () => ({}), query: `token=${TOKEN}` },
  { name: 'the right token as access_token in the query', headers: () => ({}), query: `access_token=${TOKEN}` },
];

for (const protectReads of [false, true]) {
  describe(`every route, every spelling, no valid token${protectReads ? ', --protect-reads' : ''}`, () => {
    const [engine] = engines();
    let db: Database;
    let app: FastifyInstance;
    let port: number;
    let ids: Ids;
    let everyRow: string;
    const storedRows = async () => JSON.stringify(await db.query(everyRow));

    before(async () => {
      db = await engine.open();
      everyRow = await everyRowQuery(db);
      const stored = await storePlugin(db, readPluginFolder(bundledRelease), { kind: 'bundled', path: bundledRelease });
      app = await buildApp({ db, adminToken: TOKEN, protectReads, deploy: { sliceDelayMs: 0, sliceSize: 100 } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as AddressInfo).port;
      const auth = { authorization: `Bearer ${TOKEN}` };
      const release = JSON.parse((await send(port, 'GET', '/api/v1/releases', auth)).body)[0].id as string;
      const cluster = await send(port, 'POST', '/api/v1/clusters', auth, JSON.stringify({ name: 'walked', release_id: release, components: API_BASE_COMPONENTS }));
      assert.equal(cluster.status, 201, cluster.body);
      const nodes = await send(port, 'POST', '/api/v1/nodes', auth, JSON.stringify({ simulate: { count: 2 } }));
      assert.equal(nodes.status, 201, nodes.body);
      ids = { release, plugin: String((stored as { id?: string }).id ?? release), cluster: JSON.parse(cluster.body).id, node: JSON.parse(nodes.body).ids[0] };
    });

    after(async () => {
      await app?.close();
      await db?.close();
      await engine.dispose();
    });

    test('the route table holds the API, and each API route has a rule', () => {
      const api = app.routeRules.filter((r) => r.url.startsWith('/api/'));
      assert.ok(api.length >= 25, `only ${api.length} API routes in the table`);
      for (const r of api) assert.ok(['admin', 'operator', 'viewer', 'read', 'open'].includes(r.access), `${r.method} ${r.url} has no rule`);
      // Default deny: every change needs a role; what is open is listed here on purpose (signing in, the template tools).
      const open = api.filter((r) => (r.access === 'read' || r.access === 'open') && !['GET', 'HEAD'].includes(r.method));
      assert.deepEqual(open.filter((r) => !r.url.startsWith('/api/v1/templates/') && !(r.method === 'POST' && r.url === '/api/v1/session')), [], 'a change open to anyone');
    });

    test('a spelling the router decodes reaches the route: the rule must be on the route', async () => {
      // With the token the encoded spelling works, so without it only the route's own rule stands in the way.
      const withToken = await send(port, 'GET', '/%61pi/v1/clusters', { authorization: `Bearer ${TOKEN}` });
      assert.equal(withToken.status, 200, withToken.body);
      const without = await send(port, 'GET', '/%61pi/v1/clusters', {});
      assert.equal(without.status, protectReads ? 401 : 200, without.body);
    });

    test('no change is made, and under --protect-reads nothing is read, without a valid token', async () => {
      let tried = 0;
      for (const rule of app.routeRules) {
        if (!rule.url.startsWith('/api/')) continue;
        const needsToken = roleNeeded(rule.access, protectReads) !== undefined;
        if (!needsToken) continue;
        const path = concrete(rule.url, ids);
        for (const spelling of spellings(path)) {
          for (const who of NO_TOKENS) {
            const before = await storedRows();
            const url = who.query ? `${spelling.path}${spelling.path.includes('?') ? '&' : '?'}${who.query}` : spelling.path;
            const res = await send(port, rule.method, url, who.headers(url), bodyFor(rule.method, rule.url, ids));
            const what = `${rule.method} ${url} (${spelling.name}, ${who.name}) → ${res.status} ${res.body.slice(0, 200)}`;
            tried++;
            if (spelling.mustBe404) assert.equal(res.status, 404, what);
            assert.ok([400, 401, 404].includes(res.status), `refused or not found: ${what}`);
            if (res.body.length && rule.method !== 'HEAD') assert.equal(typeof JSON.parse(res.body).code, 'string', `the one error shape: ${what}`);
            assert.equal(await storedRows(), before, `nothing stored changed: ${what}`);
          }
        }
      }
      assert.ok(tried > 500, `only ${tried} requests tried`);
    });

    test('the right token still works on the plain and trailing-slash spellings', async () => {
      const auth = { authorization: `Bearer ${TOKEN}` };
      for (const path of ['/api/v1/nodes', '/api/v1/nodes/']) {
        const res = await send(port, 'POST', path, auth, JSON.stringify({ simulate: { count: 1 } }));
        assert.equal(res.status, 201, `${path}: ${res.body}`);
      }
      const inQuery = await send(port, 'GET', `/api/v1/releases?token=${TOKEN}`, auth);
      assert.equal(inQuery.status, 400, 'a token in the query string is refused even beside a valid header');
      assert.equal(JSON.parse(inQuery.body).code, 'auth/token-in-query');
    });
  });
}
