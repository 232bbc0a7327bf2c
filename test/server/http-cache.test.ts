/**
 * Cached reads, ETags, 304s and compression, over real HTTP (node:http, so the headers are seen
 * exactly as sent): the components answer changes at once when a plugin is installed, synced or
 * uninstalled, on each engine, and across two servers sharing one database (PostgreSQL), where
 * one server's cache must not hide the other's change.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { readPluginFolder, storePlugin } from '../../src/server/domain/plugins.js';
import { chooseEncoding, etagMatches, isCompressible } from '../../src/server/http-cache.js';
import { openStore, type Database } from '../../src/store/index.js';
import { engines, testDatabaseUrl } from './support/engines.js';
import { writePlugin } from './support/plugins.js';

const TOKEN = 'http-cache-token-0123456789';
const root = join(import.meta.dirname, '..', '..');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request as sent: a read without the token; a change (`method` other than GET) with it, and `payload` as JSON. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET', payload?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const auth = method === 'GET' ? {} : { authorization: `Bearer ${TOKEN}` };
    const req = request(url, { method, headers: { ...headers, ...auth, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(payload === undefined ? undefined : JSON.stringify(payload));
  });
}

const names = (a: Answer) => (JSON.parse(a.body.toString()) as Array<{ name: string }>).map((c) => c.name);

async function serve(db: Database): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp({ db, adminToken: TOKEN });
  return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

test('text is compressed whatever its kind (JSON, YAML inventories, schemas, HTML, SVG); packages and images are not', () => {
  for (const type of ['application/json; charset=utf-8', 'application/yaml; charset=utf-8', 'application/x-yaml', 'application/schema+json', 'application/problem+json', 'application/vnd.oai.openapi+yaml', 'text/plain; charset=utf-8', 'text/html', 'image/svg+xml', 'application/javascript'])
    assert.ok(isCompressible(type), type);
  for (const type of ['application/octet-stream', 'application/gzip', 'application/x-tar', 'image/png', 'application/jsonp', 'application/yamlx'])
    assert.ok(!isCompressible(type), type);
});

test('Accept-Encoding is read as RFC 9110 says: brotli first, q=0 refuses, * allows', () => {
  assert.equal(chooseEncoding(undefined), undefined);
  assert.equal(chooseEncoding(''), undefined);
  assert.equal(chooseEncoding('gzip, deflate, br'), 'br');
  assert.equal(chooseEncoding('gzip'), 'gzip');
  assert.equal(chooseEncoding('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(chooseEncoding('identity'), undefined);
  assert.equal(chooseEncoding('*'), 'br');
  assert.equal(chooseEncoding('*;q=0'), undefined);
  assert.equal(chooseEncoding('deflate'), undefined);
  assert.ok(etagMatches('"a", W/"b"', '"b"'), 'weak comparison: W/ is ignored');
  assert.ok(etagMatches('*', '"x"'));
  assert.ok(!etagMatches('"a"', '"b"'));
  assert.ok(!etagMatches(undefined, '"b"'));
});

for (const engine of engines()) {
  describe(`cached reads over HTTP (${engine.name})`, () => {
    after(() => engine.dispose());

    test('components: an ETag, 304 on If-None-Match, and a new answer at once after install, sync and uninstall', async () => {
      const db = await engine.open();
      await storePlugin(db, readPluginFolder(join(root, 'release')), { kind: 'bundled' });
      const { app, url } = await serve(db);
      try {
        const release = (JSON.parse((await get(`${url}/api/v1/releases`)).body.toString()) as Array<{ id: string }>)[0].id;
        const path = `${url}/api/v1/releases/${encodeURIComponent(release)}/components`;
        const first = await get(path);
        assert.equal(first.status, 200);
        const etag = first.headers.etag as string;
        assert.match(etag, /^"[A-Za-z0-9_-]+"$/, 'a strong ETag on the uncompressed answer');
        assert.ok(!names(first).includes('additional_service:cachy'));

        const again = await get(path, { 'if-none-match': etag });
        assert.equal(again.status, 304);
        assert.equal(again.body.length, 0, 'a 304 has no body');
        assert.equal(again.headers.etag, etag);
        assert.equal((await get(path, { 'if-none-match': '"something-else"' })).status, 200);

        // Install through the API: the same request now answers the plugin's component, with another ETag.
        const folder = writePlugin({ name: 'cachy' });
        const installed = await get(`${url}/api/v1/plugins/folders`, {}, 'POST', { path: folder });
        assert.equal(installed.status, 201, installed.body.toString());
        const withPlugin = await get(path, { 'if-none-match': etag });
        assert.equal(withPlugin.status, 200, 'the old ETag no longer matches');
        assert.ok(names(withPlugin).includes('additional_service:cachy'), 'the installed plugin is offered at once');
        assert.notEqual(withPlugin.headers.etag, etag);

        // Sync a changed folder: its new component is offered at once.
        writeFileSync(join(folder, 'components.yaml'), JSON.stringify([{ name: 'additional_service:cachy-renamed', label: 'Renamed', compatible: [], requires: [], incompatible: [] }]));
        const synced = await get(`${url}/api/v1/plugins/cachy@1.0.0/sync`, {}, 'POST', {});
        assert.ok(synced.status < 300, synced.body.toString());
        const afterSync = names(await get(path));
        assert.ok(afterSync.includes('additional_service:cachy-renamed') && !afterSync.includes('additional_service:cachy'), afterSync.join(', '));

        const removed = await get(`${url}/api/v1/plugins/cachy@1.0.0`, {}, 'DELETE');
        assert.ok(removed.status < 300, removed.body.toString());
        const afterUninstall = await get(path);
        assert.ok(!names(afterUninstall).some((n) => n.startsWith('additional_service:cachy')), 'the uninstalled plugin is gone at once');
        assert.equal(afterUninstall.headers.etag, etag, 'the same components as at first: the same ETag');
        rmSync(folder, { recursive: true, force: true });
      } finally {
        await app.close();
        await db.close();
      }
    });

    test('compression: negotiated, above 1 KiB, Vary set, the same content in every encoding; small answers and refusals as sent', async () => {
      const db = await engine.open();
      await storePlugin(db, readPluginFolder(join(root, 'release')), { kind: 'bundled' });
      const { app, url } = await serve(db);
      try {
        const release = (JSON.parse((await get(`${url}/api/v1/releases`)).body.toString()) as Array<{ id: string }>)[0].id;
        const path = `${url}/api/v1/releases/${encodeURIComponent(release)}/components`;
        const plain = await get(path);
        assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: not compressed');
        assert.equal(plain.headers.vary, 'Accept-Encoding');
        assert.ok(plain.body.length > 1024);
        const br = await get(path, { 'accept-encoding': 'gzip, br' });
        assert.equal(br.headers['content-encoding'], 'br');
        assert.deepEqual(brotliDecompressSync(br.body), plain.body);
        assert.ok(br.body.length < plain.body.length / 2, `brotli: ${br.body.length} of ${plain.body.length} bytes`);
        assert.equal(Number(br.headers['content-length']), br.body.length);
        assert.equal(br.headers.etag, `W/${plain.headers.etag as string}`, 'the same content, a weak ETag for other bytes');
        const gz = await get(path, { 'accept-encoding': 'gzip' });
        assert.equal(gz.headers['content-encoding'], 'gzip');
        assert.deepEqual(gunzipSync(gz.body), plain.body);
        // The compressed answer's ETag also revalidates.
        assert.equal((await get(path, { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag as string })).status, 304);
        // Refused encodings and small answers go as they are.
        assert.equal((await get(path, { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding'], undefined);
        const small = await get(`${url}/api/v1/version`, { 'accept-encoding': 'br' });
        assert.equal(small.headers['content-encoding'], undefined);
        assert.ok(small.headers.etag, 'every GET answer has an ETag');
        // Errors are not cached answers: no ETag, never 304.
        const missing = await get(`${url}/api/v1/releases/no-such/components`, { 'if-none-match': '*' });
        assert.equal(missing.status, 404);
        assert.equal(missing.headers.etag, undefined);
      } finally {
        await app.close();
        await db.close();
      }
    });
  });
}

test('two servers on one PostgreSQL: a plugin installed through one is offered by the other at once', { skip: testDatabaseUrl ? false : 'HEARTH_TEST_DATABASE_URL is not set' }, async () => {
  const schema = `hearth_t_cache_${process.pid}_${Date.now().toString(36)}`;
  const [a, b] = [await openStore({ databaseUrl: testDatabaseUrl!, schema }), await openStore({ databaseUrl: testDatabaseUrl!, schema })];
  const one = await serve(a);
  const two = await serve(b);
  try {
    await storePlugin(a, readPluginFolder(join(root, 'release')), { kind: 'bundled' });
    const release = (JSON.parse((await get(`${two.url}/api/v1/releases`)).body.toString()) as Array<{ id: string }>)[0].id;
    const path = `/api/v1/releases/${encodeURIComponent(release)}/components`;
    const before = await get(two.url + path);
    assert.ok(!names(before).includes('additional_service:shared'));
    // Both servers have the answer cached now.
    assert.equal((await get(one.url + path)).headers.etag, before.headers.etag);
    const installed = await get(`${one.url}/api/v1/plugins/folders`, {}, 'POST', { path: writePlugin({ name: 'shared' }) });
    assert.equal(installed.status, 201, installed.body.toString());
    const seen = await get(two.url + path, { 'if-none-match': before.headers.etag as string });
    assert.equal(seen.status, 200, 'the other server does not answer 304 with its cached answer');
    assert.ok(names(seen).includes('additional_service:shared'), 'the other server offers the plugin at once');
    const removed = await get(`${two.url}/api/v1/plugins/shared@1.0.0`, {}, 'DELETE');
    assert.ok(removed.status < 300, removed.body.toString());
    assert.ok(!names(await get(one.url + path)).includes('additional_service:shared'), 'and the first sees it uninstalled through the second');
  } finally {
    await one.app.close();
    await two.app.close();
    await a.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await a.close();
    await b.close();
  }
});
