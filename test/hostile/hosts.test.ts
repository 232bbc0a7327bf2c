/**
 * DNS rebinding: a web page makes the browser on the server's machine call a name the attacker
 * controls, which then resolves to 127.0.0.1; the `Host` header still says the attacker's name. A
 * server bound to loopback answers only the names that mean itself (403 `request/unknown-host`),
 * over a real socket; one bound to every address or a real one answers any name unless
 * `--allowed-hosts` narrows it (issue 24, item 22).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { hostAllowed, hostName } from '../../src/server/hosts.js';
import type { Database } from '../../src/store/index.js';
import { engines } from '../server/support/engines.js';
import { TOKEN } from '../server/support/app.js';

function get(address: string, port: number, path: string, host: string | undefined, token = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${TOKEN}` } : {};
    if (host !== undefined) headers.host = host;
    const req = httpRequest({ host: address, port, method: 'GET', path, headers, setHost: host === undefined ? false : true }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${path}: no answer in 30 s`)));
    req.on('error', reject);
    req.end();
  });
}

const ATTACKER_NAMES = ['rebind.attacker.example', 'rebind.attacker.example:8420', 'localhost.attacker.example', '127.0.0.1.nip.io', 'LOCALHOST.evil', 'evil', '127.0.0.2', '[::2]'];
const OWN_NAMES = (port: number) => ['localhost', `localhost:${port}`, 'LocalHost.', `127.0.0.1:${port}`, '127.0.0.1', `[::1]:${port}`, '[::1]'];
/** What a rebinding page would read: open reads, the API document, the web UI's page. */
const READS = ['/api/v1/releases', '/api/v1/version', '/api/v1/openapi.json', '/docs', '/'];

test('host names are compared without port, case or trailing dot', () => {
  assert.equal(hostName('LocalHost.:8420'), 'localhost');
  assert.equal(hostName('[::1]:80'), '[::1]');
  assert.equal(hostName('::1'), '[::1]');
  assert.equal(hostAllowed('evil.example', { bound: '127.0.0.1' }), false);
  assert.equal(hostAllowed('evil.example', { bound: '0.0.0.0' }), true);
  assert.equal(hostAllowed('evil.example', { bound: '10.77.0.1' }), true);
  assert.equal(hostAllowed('evil.example', { bound: '0.0.0.0', allowed: ['hearth.example'] }), false);
  assert.equal(hostAllowed('hearth.example:9', { bound: '0.0.0.0', allowed: ['hearth.example'] }), true);
  assert.equal(hostAllowed('10.77.0.1:8420', { bound: '127.0.0.1', publicUrl: 'http://10.77.0.1:8420/' }), true);
  assert.equal(hostAllowed('anything', { bound: '127.0.0.1', allowed: ['*'] }), true);
});

async function listening(bind: string, options: Partial<AppOptions> = {}): Promise<{ app: FastifyInstance; db: Database; port: number; close(): Promise<void> }> {
  const [engine] = engines();
  const db = await engine.open();
  const app = await buildApp({ db, adminToken: TOKEN, ...options });
  await app.listen({ port: 0, host: bind });
  return {
    app,
    db,
    port: (app.server.address() as AddressInfo).port,
    async close() {
      await app.close();
      await db.close();
      await engine.dispose();
    },
  };
}

describe('a server bound to loopback', () => {
  let s: Awaited<ReturnType<typeof listening>>;
  before(async () => (s = await listening('127.0.0.1')));
  after(async () => s?.close());

  test('refuses every read under a name that is not its own, saying how to allow one', async () => {
    for (const name of ATTACKER_NAMES) {
      for (const path of READS) {
        const res = await get('127.0.0.1', s.port, path, name);
        assert.equal(res.status, 403, `${path} as ${name}: ${res.body.slice(0, 200)}`);
        const body = JSON.parse(res.body);
        assert.equal(body.code, 'request/unknown-host');
        assert.match(body.details.hint, /--allowed-hosts/);
      }
      // The token does not make another name the server's own: the page could not send it anyway.
      assert.equal((await get('127.0.0.1', s.port, '/api/v1/clusters', name, true)).status, 403);
    }
  });

  test('answers its own names on any port, and the probes under any name', async () => {
    for (const name of OWN_NAMES(s.port)) {
      for (const path of READS) assert.equal((await get('127.0.0.1', s.port, path, name)).status, 200, `${path} as ${name}`);
    }
    for (const path of ['/healthz', '/readyz']) assert.equal((await get('127.0.0.1', s.port, path, 'rebind.attacker.example')).status, 200, path);
  });
});

describe('a server bound to loopback with --allowed-hosts and a public URL', () => {
  let s: Awaited<ReturnType<typeof listening>>;
  before(async () => (s = await listening('127.0.0.1', { allowedHosts: ['hearth.example', 'Proxy.Example:443'], publicUrl: 'https://public.example:8443/' })));
  after(async () => s?.close());

  test('answers the names given and the public URL\'s host, and its own, and no other', async () => {
    for (const name of ['hearth.example', 'hearth.example:1', 'proxy.example', 'public.example:8443', 'public.example', ...OWN_NAMES(s.port)]) {
      assert.equal((await get('127.0.0.1', s.port, '/api/v1/releases', name)).status, 200, name);
    }
    for (const name of ATTACKER_NAMES) assert.equal((await get('127.0.0.1', s.port, '/api/v1/releases', name)).status, 403, name);
  });
});

// The address nodes reach the server at in the deploy tests (test/deploy: --host 10.77.0.1), when this machine has it.
const realAddress = Object.values(networkInterfaces()).flat().find((a) => a?.family === 'IPv4' && !a.internal)?.address;

describe('a server bound to every address, or a real one', () => {
  for (const bind of ['0.0.0.0', ...(realAddress ? [realAddress] : [])]) {
    test(`bound to ${bind}: any name is answered; with --allowed-hosts only those and its own`, async () => {
      const connect = bind === '0.0.0.0' ? '127.0.0.1' : bind;
      const open = await listening(bind);
      try {
        for (const name of ['hearth.lan', 'node-facing.example', realAddress ?? '10.77.0.1', ...ATTACKER_NAMES]) {
          assert.equal((await get(connect, open.port, '/api/v1/releases', name)).status, 200, `${name} on ${bind}`);
        }
      } finally {
        await open.close();
      }
      const narrowed = await listening(bind, { allowedHosts: ['hearth.lan'] });
      try {
        for (const name of ['hearth.lan', 'localhost', ...(bind === '0.0.0.0' ? [] : [bind])]) assert.equal((await get(connect, narrowed.port, '/api/v1/releases', name)).status, 200, `${name} on ${bind}`);
        for (const name of ATTACKER_NAMES) assert.equal((await get(connect, narrowed.port, '/api/v1/releases', name)).status, 403, `${name} on ${bind}`);
      } finally {
        await narrowed.close();
      }
    });
  }
});
