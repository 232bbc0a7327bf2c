/**
 * A token in the query string, spelled any way a client, a proxy or an attacker might: every
 * spelling is refused on the API's routes (400 `auth/token-in-query`), and the server's log never
 * holds the value, whatever route was asked for and whatever it answered. Before issue 24 (item
 * 15) `?%74oken=…` and `?access%5Ftoken=…` were refused but logged in clear, and `?token[]=…` was
 * accepted and logged.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { isTokenQueryName } from '../../src/server/access.js';
import type { Database } from '../../src/store/index.js';
import { engines } from '../server/support/engines.js';
import { TOKEN } from '../server/support/app.js';
import { rawRequest, type Answer } from './raw-request.js';

/** Names as sent on the wire (not encoded again by the test). */
export const TOKEN_SPELLINGS = [
  'token', 'TOKEN', 'Token', '%74oken', '%54OKEN', '%2574oken', 'tok%65n', 'token%20', '%20token',
  'access_token', 'ACCESS_TOKEN', 'access%5Ftoken', 'access%5ftoken', 'access-token', 'access.token',
  'token[]', 'token%5B%5D', 'token[x]', 'token[0][a]', 'access_token[]', 'TOKEN%5bx%5d',
  'auth_token', 'x-auth-token', 'X-Auth-Token', 'x_auth_token', 'admin_token', 'private_token', 'id_token', 'refresh_token',
  'api_key', 'api-key', 'API%5Fkey', 'apikey', 'ApiKey', 'x-api-key', 'key', 'auth', 'authorization', 'bearer', 'jwt', 'password', 'client_secret',
];

const send = (port: number, method: string, path: string): Promise<Answer> => rawRequest(port, method, path, { authorization: `Bearer ${TOKEN}` });

test('every spelling is read as a token name; the API\'s own query parameters are not', () => {
  for (const name of TOKEN_SPELLINGS) assert.equal(isTokenQueryName(name), true, name);
  for (const name of ['name', 'cluster_id', 'node', 'status', 'task', 'output', 'tasks', 'dry_run', 'unassigned', 'limit', 'marker', 'components', 'selected']) assert.equal(isTokenQueryName(name), false, name);
});

for (const format of ['json', 'pretty'] as const) {
  describe(`token-like query parameters: refused, and never in the log (${format} log)`, () => {
    const [engine] = engines();
    let db: Database;
    let app: FastifyInstance;
    let port: number;
    let log = '';
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        log += chunk.toString('utf8');
        done();
      },
    });

    before(async () => {
      db = await engine.open();
      app = await buildApp({ db, adminToken: TOKEN, logger: { level: 'debug', format, destination } });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as AddressInfo).port;
    });

    after(async () => {
      await app?.close();
      await db?.close();
      await engine.dispose();
    });

    test('each spelling on an API route, an open route and a path with no route', async () => {
      const secrets: string[] = [];
      let n = 0;
      for (const name of TOKEN_SPELLINGS) {
        for (const path of ['/api/v1/releases', '/api/v1/clusters/1', '/docs', '/api/v1/no-such-thing', '/%61pi/v1/nodes']) {
          const secret = `hearthSecret${n++}x${Math.random().toString(36).slice(2, 10)}`;
          secrets.push(secret);
          const res = await send(port, 'GET', `${path}?limit=5&${name}=${secret}&name=x`);
          if (path.includes('api/v1/') && !path.includes('no-such-thing')) {
            assert.equal(res.status, 400, `${name} on ${path}: ${res.body}`);
            assert.equal(JSON.parse(res.body).code, 'auth/token-in-query', `${name} on ${path}: ${res.body}`);
          }
          assert.ok(!res.body.includes(secret), `the answer does not repeat the token: ${res.body}`);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(log.includes('redacted'), 'the log holds the requests, masked');
      const leaked = secrets.filter((s) => log.includes(s));
      assert.deepEqual(leaked, [], `token values in the log:\n${log.split('\n').filter((l) => leaked.some((s) => l.includes(s))).slice(0, 5).join('\n')}`);
    });
  });
}
