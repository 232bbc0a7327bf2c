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
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { roleNeeded } from '../../src/server/access.js';
import { roleAtLeast, type Role } from '../../src/server/actor.js';
import { readPluginFolder, storePlugin } from '../../src/server/domain/plugins.js';
import type { Database } from '../../src/store/index.js';
import { engines } from '../server/support/engines.js';
import { bundledRelease, TOKEN } from '../server/support/app.js';
import { API_BASE_COMPONENTS } from './api-run.js';
import { everyRowQuery } from './stored-rows.js';
import { rawRequest, type Answer } from './raw-request.js';

const send = (port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> => rawRequest(port, method, path, headers, body);

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
    .replace(/:name\b/, 'nobody-by-this-name')
    .replace(/:type\b/, 'default')
    .replace(/:deployment\b/, '1')
    .replace(/:id\b/, () => String(owner === 'clusters' ? ids.cluster : owner === 'releases' ? ids.release : owner === 'nodes' ? ids.node : ids.plugin));
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
        // Every stored row is read once around each route's refusals, not around each request:
        // the read is most of this test's time, and a refusal that wrote would still be caught.
        const before = await storedRows();
        const sent: string[] = [];
        for (const spelling of spellings(path)) {
          for (const who of NO_TOKENS) {
            const url = who.query ? `${spelling.path}${spelling.path.includes('?') ? '&' : '?'}${who.query}` : spelling.path;
            const res = await send(port, rule.method, url, who.headers(url), bodyFor(rule.method, rule.url, ids));
            const what = `${rule.method} ${url} (${spelling.name}, ${who.name}) → ${res.status} ${res.body.slice(0, 200)}`;
            tried++;
            if (spelling.mustBe404) assert.equal(res.status, 404, what);
            assert.ok([400, 401, 404].includes(res.status), `refused or not found: ${what}`);
            if (res.body.length && rule.method !== 'HEAD') assert.equal(typeof JSON.parse(res.body).code, 'string', `the one error shape: ${what}`);
            sent.push(what);
          }
        }
        assert.equal(await storedRows(), before, `nothing stored changed, after:\n${sent.join('\n')}`);
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

/**
 * Every credential a person or script may hold, each with the role it should act with (null: it
 * proves nobody, 401). The lesser-role token is an admin's token made with viewer.
 */
interface Credential {
  name: string;
  role: Role | null;
  headers: Record<string, string>;
  /** A session's change also sends its CSRF token. */
  csrf?: string;
}

for (const protectReads of [false, true]) {
  describe(`every route, every role and kind of credential${protectReads ? ', --protect-reads' : ''}`, () => {
    const [engine] = engines();
    let db: Database;
    let app: FastifyInstance;
    let port: number;
    let ids: Ids;
    let everyRow: string;
    let clock = Date.now();
    const credentials: Credential[] = [];
    const admin = { authorization: `Bearer ${TOKEN}` };
    const storedRows = async () => JSON.stringify(await db.query(everyRow));

    before(async () => {
      db = await engine.open();
      everyRow = await everyRowQuery(db);
      const stored = await storePlugin(db, readPluginFolder(bundledRelease), { kind: 'bundled', path: bundledRelease });
      app = await buildApp({ db, adminToken: TOKEN, protectReads, deploy: { sliceDelayMs: 0, sliceSize: 100 }, identity: { now: () => clock } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as AddressInfo).port;
      const release = JSON.parse((await send(port, 'GET', '/api/v1/releases', admin)).body)[0].id as string;
      const cluster = await send(port, 'POST', '/api/v1/clusters', admin, JSON.stringify({ name: 'walked', release_id: release, components: API_BASE_COMPONENTS }));
      const nodes = await send(port, 'POST', '/api/v1/nodes', admin, JSON.stringify({ simulate: { count: 2 } }));
      ids = { release, plugin: String((stored as { id?: string }).id ?? release), cluster: JSON.parse(cluster.body).id, node: JSON.parse(nodes.body).ids[0] };

      const ok = async (res: Promise<Answer>, status: number) => {
        const answer = await res;
        assert.equal(answer.status, status, answer.body);
        return answer.body ? JSON.parse(answer.body) : undefined;
      };
      const users: Array<[string, Role]> = [['vera', 'viewer'], ['otto', 'operator'], ['ada', 'admin'], ['dora', 'operator']];
      for (const [name, role] of users) await ok(send(port, 'POST', '/api/v1/users', admin, JSON.stringify({ name, role, password: `${name}-password` })), 201);
      const signIn = async (name: string) => {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: `${name}-password` }) });
        assert.equal(res.status, 200, await res.clone().text());
        return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
      };
      const token = async (user: string, name: string, extra: Record<string, unknown> = {}) =>
        (await ok(send(port, 'POST', '/api/v1/tokens', admin, JSON.stringify({ name, user, ...extra })), 201)).token as string;
      const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
      for (const [name, role] of users.slice(0, 3)) {
        const s = await signIn(name);
        credentials.push({ name: `${role} by session`, role, headers: { cookie: s.cookie }, csrf: s.csrf });
        credentials.push({ name: `${role} by personal token`, role, headers: bearer(await token(name, 'own')) });
      }
      credentials.push({ name: `${'operator'} by X-Auth-Token`, role: 'operator', headers: { 'x-auth-token': await token('otto', 'openstack') } });
      credentials.push({ name: 'an admin\'s token made with viewer', role: 'viewer', headers: bearer(await token('ada', 'lesser', { role: 'viewer' })) });
      credentials.push({ name: 'the admin token', role: 'admin', headers: admin });
      const expiring = await token('otto', 'expiring', { expires_in: 60 });
      const revoked = await token('otto', 'revoked');
      await ok(send(port, 'DELETE', '/api/v1/tokens/revoked?user=otto', admin), 204);
      const disabledToken = await token('dora', 'dora-token');
      const disabledSession = await signIn('dora');
      await ok(send(port, 'PATCH', '/api/v1/users/dora', admin, JSON.stringify({ disabled: true })), 200);
      credentials.push({ name: 'a revoked token', role: null, headers: bearer(revoked) });
      credentials.push({ name: 'a disabled user\'s token', role: null, headers: bearer(disabledToken) });
      credentials.push({ name: 'a disabled user\'s session', role: null, headers: { cookie: disabledSession.cookie }, csrf: disabledSession.csrf });
      // Two minutes on: the 60 s token has expired (sessions last hours).
      clock += 120_000;
      credentials.push({ name: 'an expired token', role: null, headers: bearer(expiring) });
    });

    after(async () => {
      await app?.close();
      await db?.close();
      await engine.dispose();
    });

    test('a session\'s change without its CSRF token, or from another origin, is refused', async () => {
      const operator = credentials.find((c) => c.name === 'operator by session')!;
      const body = JSON.stringify({ simulate: { count: 1 } });
      const before = await storedRows();
      const without = await send(port, 'POST', '/api/v1/nodes', operator.headers, body);
      assert.equal(without.status, 403, without.body);
      assert.equal(JSON.parse(without.body).code, 'auth/csrf');
      const wrong = await send(port, 'POST', '/api/v1/nodes', { ...operator.headers, 'x-csrf-token': 'x'.repeat(43) }, body);
      assert.equal(JSON.parse(wrong.body).code, 'auth/csrf');
      const foreign = await send(port, 'POST', '/api/v1/nodes', { ...operator.headers, 'x-csrf-token': operator.csrf!, origin: 'https://attacker.example' }, body);
      assert.equal(foreign.status, 403, foreign.body);
      assert.equal(JSON.parse(foreign.body).code, 'auth/cross-origin');
      assert.equal(await storedRows(), before, 'nothing stored changed');
      const same = await send(port, 'POST', '/api/v1/nodes', { ...operator.headers, 'x-csrf-token': operator.csrf!, origin: `http://127.0.0.1:${port}` }, body);
      assert.equal(same.status, 201, same.body);
    });

    test('each route allows the roles it names and refuses the others: 401 for no one, 403 for a role too low', async () => {
      // Signing out ends the session the later requests use: it goes last.
      const rules = app.routeRules.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD').sort((a, b) => Number(a.url === '/api/v1/session' && a.method === 'DELETE') - Number(b.url === '/api/v1/session' && b.method === 'DELETE'));
      let tried = 0;
      for (const rule of rules) {
        const needed = roleNeeded(rule.access, protectReads);
        if (needed === undefined) continue;
        const path = concrete(rule.url, ids);
        // Refusals first, while the objects are all still there; then what is allowed.
        const ordered = [...credentials].sort((a, b) => Number(a.role !== null && roleAtLeast(a.role, needed)) - Number(b.role !== null && roleAtLeast(b.role, needed)));
        const refused = (who: (typeof credentials)[number]) => who.role === null || !roleAtLeast(who.role, needed);
        // Every stored row is read before the refusals and once after the last of them.
        const before = await storedRows();
        const sent: string[] = [];
        for (const [i, who] of ordered.entries()) {
          const headers = { ...who.headers, ...(who.csrf && !['GET', 'HEAD'].includes(rule.method) ? { 'x-csrf-token': who.csrf } : {}) };
          const res = await send(port, rule.method, path, headers, bodyFor(rule.method, rule.url, ids));
          const what: string = `${rule.method} ${path} needing ${needed}, as ${who.name} → ${res.status} ${res.body.slice(0, 200)}`;
          tried++;
          if (who.role === null) assert.equal(res.status, 401, what);
          else if (!roleAtLeast(who.role, needed)) {
            assert.equal(res.status, 403, what);
            assert.equal(JSON.parse(res.body).code, 'auth/forbidden', what);
          } else assert.ok(![401, 403].includes(res.status), `allowed: ${what}`);
          if (refused(who)) {
            sent.push(what);
            if (i === ordered.length - 1 || !refused(ordered[i + 1])) assert.equal(await storedRows(), before, `nothing stored changed, after:\n${sent.join('\n')}`);
          }
        }
      }
      assert.ok(tried > 300, `only ${tried} requests tried`);
    });

    test('a role too low is refused on every spelling of every route it may not use, and changes nothing', async () => {
      const viewer = credentials.find((c) => c.name === 'an admin\'s token made with viewer')!;
      let tried = 0;
      for (const rule of app.routeRules) {
        if (!rule.url.startsWith('/api/') || rule.method === 'HEAD') continue;
        const needed = roleNeeded(rule.access, protectReads);
        if (needed === undefined || needed === 'viewer') continue;
        const before = await storedRows();
        const sent: string[] = [];
        for (const spelling of spellings(concrete(rule.url, ids))) {
          const res = await send(port, rule.method, spelling.path, viewer.headers, bodyFor(rule.method, rule.url, ids));
          const what: string = `${rule.method} ${spelling.path} (${spelling.name}) as a viewer → ${res.status} ${res.body.slice(0, 200)}`;
          tried++;
          if (spelling.mustBe404) assert.equal(res.status, 404, what);
          assert.ok([400, 403, 404].includes(res.status), `refused or not found: ${what}`);
          sent.push(what);
        }
        assert.equal(await storedRows(), before, `nothing stored changed, after:\n${sent.join('\n')}`);
      }
      assert.ok(tried > 200, `only ${tried} requests tried`);
    });

  });
}
