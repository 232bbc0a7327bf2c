/**
 * NUL bytes and lone UTF-16 surrogates, at every entry point of every route: taken from Fastify's
 * own route table (a route added tomorrow is walked too), each path parameter, a query parameter
 * and a JSON body holding one is refused 400 `request/bad-characters` naming where, with the admin
 * token (so only the rule stands in the way), and no stored row changes. Before the rule, a NUL in
 * a release or plugin id reached PostgreSQL and came back as a 500 "this is a bug" (issue 24).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { readPluginFolder, storePlugin } from '../../src/server/domain/plugins.js';
import type { Database } from '../../src/store/index.js';
import { engines } from '../server/support/engines.js';
import { bundledRelease, TOKEN } from '../server/support/app.js';
import { API_BASE_COMPONENTS } from './api-run.js';
import { everyRowQuery } from './stored-rows.js';
import { rawRequest, type Answer } from './raw-request.js';

const send = (port: number, method: string, path: string, body?: string): Promise<Answer> => rawRequest(port, method, path, { authorization: `Bearer ${TOKEN}` }, body);

interface Ids {
  release: string;
  cluster: number;
  node: number;
}

/** A valid value for each path parameter, so that only the one made bad is wrong. */
function validParam(url: string, name: string, ids: Ids): string {
  const owner = url.split('/')[3];
  if (name === 'type') return 'default';
  if (name === 'deployment') return '1';
  if (name === 'file') return 'components.json';
  if (name === 'folder') return 'x';
  if (name === '*') return 'a/b';
  return String(owner === 'clusters' ? ids.cluster : owner === 'releases' ? ids.release : owner === 'nodes' ? ids.node : owner === 'deployments' ? 1 : ids.release);
}

const paramNames = (url: string): string[] => [...url.matchAll(/:([A-Za-z_]+)|\*$/g)].map((m) => m[1] ?? '*');

function pathWith(url: string, ids: Ids, bad?: { name: string; value: string }): string {
  let path = url;
  for (const name of paramNames(url)) {
    const value = bad?.name === name ? bad.value : encodeURIComponent(validParam(url, name, ids)).replace(/%2F/g, '/');
    path = name === '*' ? path.replace(/\*$/, value) : path.replace(`:${name}`, value);
  }
  return path;
}

/** A body the route would take (or near it), with a bad character put into a string field. */
function bodyWith(method: string, url: string, ids: Ids, bad: string): string | undefined {
  if (['GET', 'HEAD', 'DELETE'].includes(method)) return undefined;
  const real: Record<string, Record<string, unknown>> = {
    'POST /api/v1/clusters': { release_id: ids.release, components: API_BASE_COMPONENTS },
    'POST /api/v1/nodes': { simulate: { count: 1 } },
    'PATCH /api/v1/clusters/:id': {},
    'POST /api/v1/clusters/:id/nodes': { assignments: [{ node_id: ids.node, roles: ['controller'] }] },
  };
  return JSON.stringify({ ...(real[`${method} ${url}`] ?? {}), name: `x${bad}y` });
}

describe('NUL bytes and lone surrogates: every route, every entry point', () => {
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
    await storePlugin(db, readPluginFolder(bundledRelease), { kind: 'bundled', path: bundledRelease });
    app = await buildApp({ db, adminToken: TOKEN, deploy: { sliceDelayMs: 0, sliceSize: 100 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    const release = JSON.parse((await send(port, 'GET', '/api/v1/releases')).body)[0].id as string;
    const cluster = await send(port, 'POST', '/api/v1/clusters', JSON.stringify({ name: 'walked', release_id: release, components: API_BASE_COMPONENTS }));
    assert.equal(cluster.status, 201, cluster.body);
    const nodes = await send(port, 'POST', '/api/v1/nodes', JSON.stringify({ simulate: { count: 2 } }));
    assert.equal(nodes.status, 201, nodes.body);
    ids = { release, cluster: JSON.parse(cluster.body).id, node: JSON.parse(nodes.body).ids[0] };
  });

  after(async () => {
    await app?.close();
    await db?.close();
    await engine.dispose();
  });

  /** Refused as bad characters, saying where; nothing stored changed. */
  async function refused(method: string, path: string, body: string | undefined, where: RegExp, what: string): Promise<void> {
    const before = await storedRows();
    const res = await send(port, method, path, body);
    const said = `${method} ${path} ${body ?? ''} → ${res.status} ${res.body.slice(0, 300)}`;
    assert.equal(res.status, 400, `${what}: ${said}`);
    if (method !== 'HEAD') {
      const answer = JSON.parse(res.body);
      assert.equal(answer.code, 'request/bad-characters', said);
      assert.match(answer.message, where, said);
      assert.equal(typeof answer.details?.hint, 'string', said);
    }
    assert.equal(await storedRows(), before, `nothing stored changed: ${said}`);
  }

  test('a NUL in each path parameter of every route', async () => {
    let tried = 0;
    for (const rule of app.routeRules) {
      for (const name of paramNames(rule.url)) {
        for (const bad of ['%00', 'a%00b', `${validParam(rule.url, name, ids)}%00`]) {
          await refused(rule.method, pathWith(rule.url, ids, { name, value: name === '*' ? `a/${bad}` : bad }), bodyWith(rule.method, rule.url, ids, ''), new RegExp(`path parameter '${name === '*' ? '\\*' : name}' holds a NUL byte`), `NUL in :${name}`);
          tried++;
        }
      }
    }
    assert.ok(tried >= 150, `only ${tried} requests tried`);
  });

  test('a NUL in a query parameter (its value or its name) of every route', async () => {
    let tried = 0;
    for (const rule of app.routeRules) {
      const path = pathWith(rule.url, ids);
      const body = bodyWith(rule.method, rule.url, ids, '');
      for (const [query, name] of [['name=a%00b', 'name'], ['limit=1&marker=%00', 'marker'], ['x%00y=1', 'x\ufffdy']]) {
        await refused(rule.method, `${path}?${query}`, body, new RegExp(`query parameter '${name}' holds a NUL byte`), `NUL in ?${query}`);
        tried++;
      }
    }
    assert.ok(tried >= 150, `only ${tried} requests tried`);
  });

  test('a NUL or a lone surrogate in a JSON body of every route that takes one, tokenless template routes included', async () => {
    let tried = 0;
    for (const rule of app.routeRules) {
      if (['GET', 'HEAD', 'DELETE'].includes(rule.method)) continue;
      const path = pathWith(rule.url, ids);
      // A route that takes bytes only (a package upload) refuses any JSON body before reading it.
      const plain = await send(port, rule.method, path, '{"hearth_probe":"x"}');
      if (plain.status === 415) continue;
      // Sent as JSON escapes (`\u0000`, `\ud800`), as JSON.stringify writes them.
      for (const [bad, what] of [['\u0000', 'a NUL byte'], ['\ud800', 'a lone UTF-16 surrogate'], ['\udfff', 'a lone UTF-16 surrogate']]) {
        await refused(rule.method, path, bodyWith(rule.method, rule.url, ids, bad), new RegExp(`JSON body at /name holds ${what}`), `${what} in a body`);
        tried++;
      }
      // Deep inside, and in a key.
      await refused(rule.method, path, '{"a":[{"b":["ok","x\\u0000"]}]}', /JSON body at \/a\/0\/b\/1 holds a NUL byte/, 'a NUL deep in a body');
      await refused(rule.method, path, '{"k\\u0000":1}', /JSON body at \/k\ufffd holds a NUL byte in its name/, 'a NUL in a key');
      tried += 2;
    }
    assert.ok(tried >= 50, `only ${tried} requests tried`);
  });

  test('paired surrogates (an emoji) are text like any other', async () => {
    const res = await send(port, 'PATCH', `/api/v1/clusters/${ids.cluster}`, JSON.stringify({ name: 'fire 🔥' }));
    assert.equal(res.status, 200, res.body);
    assert.equal(JSON.parse(res.body).name, 'fire 🔥');
  });
});
