/**
 * The HTTP face: auth (no token, wrong, empty, too long), the one error shape, size limits and
 * content types, the OpenAPI document and /docs, and installing an uploaded package.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { engines } from './support/engines.js';
import { TOKEN, testApp, type TestApp } from './support/app.js';
import { writePlugin } from './support/plugins.js';
import { buildPlugin } from '../../src/package/build/index.js';
import { tokensEqual } from '../../src/server/auth.js';

const [engine] = engines(); // the HTTP layer does not depend on the engine: PGlite only

describe('HTTP face', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp(engine);
  });
  after(async () => {
    await t.close();
    await engine.dispose();
  });

  const post = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/v1/nodes', payload: { simulate: { count: 1 } }, headers });

  test('changing state needs the admin token; each wrong form is a 401 with a code', async () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['none', {}, 'auth/missing-token'],
      ['empty', { authorization: '' }, 'auth/missing-token'],
      ['wrong', { authorization: 'Bearer not-the-token-at-all' }, 'auth/bad-token'],
      ['too long', { authorization: `Bearer ${'x'.repeat(100_000)}` }, 'auth/bad-token'],
      ['basic scheme', { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` }, 'auth/bad-scheme'],
      ['bearer without token', { authorization: 'Bearer ' }, 'auth/bad-scheme'],
      ['token with a suffix', { authorization: `Bearer ${TOKEN}x` }, 'auth/bad-token'],
    ];
    for (const [what, headers, code] of cases) {
      const res = await post(headers);
      assert.equal(res.statusCode, 401, what);
      assert.equal(res.json().code, code, what);
      assert.equal(typeof res.json().message, 'string');
    }
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/nodes' })).json().length, 0, 'no refused request wrote anything');
    assert.equal((await post({ authorization: `Bearer ${TOKEN}` })).statusCode, 201);
    assert.equal((await post({ authorization: `bearer   ${TOKEN}` })).statusCode, 201, 'the scheme is case-insensitive');
  });

  test('reads are open by default', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/releases' })).statusCode, 200);
  });

  test('token comparison agrees on equal and unequal tokens of any length', () => {
    assert.equal(tokensEqual('abc', 'abc'), true);
    assert.equal(tokensEqual('abc', 'abd'), false);
    assert.equal(tokensEqual('', 'abc'), false);
    assert.equal(tokensEqual('abc'.repeat(1000), 'abc'), false);
  });

  test('bad requests are 4xx in the one error shape, never 500', async () => {
    const cases: Array<[string, string, unknown, Record<string, string>, number, string]> = [
      ['GET', '/api/v1/clusters/abc', undefined, {}, 400, 'request/invalid'],
      ['GET', '/api/v1/clusters/99999', undefined, {}, 404, 'cluster/not-found'],
      ['GET', '/api/v1/clusters/0', undefined, {}, 400, 'request/invalid'],
      ['GET', '/api/v1/clusters/99999999999999999999', undefined, {}, 400, 'request/invalid'],
      ['GET', '/api/v1/releases/nope', undefined, {}, 404, 'release/not-found'],
      ['GET', '/api/v1/plugins/nope@1', undefined, {}, 404, 'plugin/not-found'],
      ['GET', '/api/v1/nothing-here', undefined, {}, 404, 'request/no-such-route'],
      ['POST', '/api/v1/clusters', '{"name": ', { 'content-type': 'application/json' }, 400, 'request/bad-json'],
      ['POST', '/api/v1/clusters', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'request/unsupported-media-type'],
      // Neither release_id nor Fuel's release (issue 28 item 8: either names it): refused in words.
      ['POST', '/api/v1/clusters', { name: 'x' }, {}, 400, 'cluster/release-missing'],
      ['POST', '/api/v1/clusters', { name: 'x', release_id: 'r', components: 'hypervisor:qemu' }, {}, 400, 'request/invalid'],
      ['POST', '/api/v1/clusters', { name: 'x', release_id: 'r', components: [], extra: 1 }, {}, 400, 'request/invalid'],
      ['POST', '/api/v1/clusters', { name: 'bad\u0000name', release_id: 'r', components: [] }, {}, 400, 'request/bad-characters'],
      ['POST', '/api/v1/clusters', { name: 'x', release_id: 'r', components: Array(600).fill('a') }, {}, 400, 'request/invalid'],
      ['POST', '/api/v1/clusters', { ['__proto__']: { polluted: true }, name: 'x', release_id: 'r', components: [] }, {}, 400, 'request/bad-json'],
      ['POST', '/api/v1/nodes', { simulate: { count: 1_000_000 } }, {}, 400, 'request/invalid'],
      ['POST', '/api/v1/nodes', {}, {}, 400, 'request/invalid'],
      ['POST', '/api/v1/plugins', '{"json": true}', { 'content-type': 'application/json' }, 415, 'request/unsupported-media-type'],
      ['POST', '/api/v1/plugins', Buffer.alloc(0), { 'content-type': 'application/octet-stream' }, 400, 'request/empty-body'],
      ['POST', '/api/v1/plugins', Buffer.from('not a tarball at all'), { 'content-type': 'application/octet-stream' }, 400, 'package/refused'],
      ['POST', '/api/v1/plugins/folders', { path: 'relative/dir' }, {}, 400, 'plugin/relative-path'],
      ['POST', '/api/v1/plugins/folders', { path: '/nonexistent/hearth/plugin' }, {}, 400, 'plugin/invalid'],
      ['POST', '/api/v1/plugins/folders', { path: '/etc' }, {}, 400, 'plugin/invalid'],
      ['PUT', '/api/v1/clusters/1/attributes', { editable: {} }, {}, 404, 'cluster/not-found'],
      ['POST', '/api/v1/templates/find', { paths: ['relative'], requirements: {} }, {}, 400, 'template/send-files'],
      ['DELETE', '/api/v1/releases', undefined, {}, 404, 'request/no-such-route'],
      ['PATCH', '/api/v1/releases/x', { name: 'y' }, {}, 404, 'request/no-such-route'],
    ];
    for (const [method, url, body, headers, status, code] of cases) {
      const res = await t.call(method, url, body, headers);
      assert.equal(res.statusCode, status, `${method} ${url}: ${res.body.slice(0, 300)}`);
      assert.equal(res.json().code, code, `${method} ${url}`);
      assert.equal(typeof res.json().message, 'string');
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('bodies over the limit are refused with 413', async () => {
    const big = { name: 'x', release_id: 'r', components: ['a'], pad: 'x'.repeat(2 * 1024 * 1024) };
    const res = await t.call('POST', '/api/v1/clusters', big);
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'request/too-large');
  });

  test('the OpenAPI document lists every route with its schemas; /docs is readable', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    assert.equal(doc.openapi, '3.1.0');
    for (const path of ['/api/v1/releases/{id}/components', '/api/v1/clusters', '/api/v1/clusters/{id}/deploy', '/api/v1/clusters/{id}/graphs/{type}', '/api/v1/plugins', '/api/v1/templates/resolve']) {
      assert.ok(doc.paths[path], path);
    }
    // release_id or Fuel's release: the route requires one of them (cluster/release-missing), the schema only the name.
    assert.deepEqual(doc.paths['/api/v1/clusters'].post.requestBody.content['application/json'].schema.required, ['name']);
    assert.deepEqual(doc.paths['/api/v1/clusters'].post.security, [{ adminToken: [] }]);
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.match(page.body, /\/api\/v1\/clusters\/\{id\}\/deploy/);
    // Each operation says what it answers, with its real status.
    const row = (method: string, path: string) => new RegExp(`<code>${method}</code></td><td><code>${path.replace(/[{}]/g, '\\$&')}</code></td>((?:(?!</tr>).)*)</tr>`, 's').exec(page.body)?.[1] ?? '';
    assert.match(row('POST', '/api/v1/clusters'), /<em>\(admin token\)<\/em>.*<td>201 Cluster<\/td>$/s);
    assert.match(row('POST', '/api/v1/clusters/{id}/deploy'), /<td>202 Deployment<\/td>$/);
    // Deleted at once (204), or its deployed nodes cleaned first (202 with the run, issue 25).
    assert.match(row('DELETE', '/api/v1/clusters/{id}'), /<td>[^<]*204 no body[^<]*<\/td>$/);
    assert.match(row('POST', '/api/v1/templates/find'), /<td>200 application\/json<\/td>$/);
    assert.doesNotMatch(row('POST', '/api/v1/templates/find'), /admin token/, 'a public read is not marked as needing the token');
    assert.match(page.body, /<code>GET<\/code><\/td><td><code>\/api\/v1\/nodes<\/code><\/td><td>[^<]*<\/td><td>200 list of Node<\/td>/);
  });

  test('an uploaded package installs; a tampered one is refused and leaves nothing', async () => {
    const dir = writePlugin({ name: 'packaged', version: '1.2.0' });
    const built = await buildPlugin(dir, { outDir: dir, runHook: false });
    assert.ok(built.ok && built.path, JSON.stringify(built.findings.filter((f) => f.severity === 'error')));
    const bytes = readFileSync(built.path);
    // Tamper: change one byte of a file inside the tar so its checksum no longer matches the manifest.
    const tar = gunzipSync(bytes);
    const at = tar.indexOf(Buffer.from('Test plugin packaged'));
    assert.ok(at > 0);
    tar[at] = 'X'.charCodeAt(0);
    const tampered = await t.call('POST', '/api/v1/plugins', gzipSync(tar), { 'content-type': 'application/octet-stream' });
    assert.equal(tampered.statusCode, 400, tampered.body);
    assert.equal(tampered.json().code, 'package/refused');
    assert.ok(tampered.json().details.findings.length > 0);
    assert.equal((await t.call('GET', '/api/v1/plugins?name=packaged')).json().length, 0);

    const res = await t.call('POST', '/api/v1/plugins', bytes, { 'content-type': 'application/octet-stream' });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().plugin.id, 'packaged@1.2.0');
    assert.equal(res.json().plugin.source, 'package');
    const again = await t.call('POST', '/api/v1/plugins', bytes, { 'content-type': 'application/octet-stream' });
    assert.equal(again.statusCode, 409);
    const sync = await t.call('POST', '/api/v1/plugins/packaged@1.2.0/sync');
    assert.equal(sync.statusCode, 409);
    assert.equal(sync.json().code, 'plugin/not-a-folder');
    rmSync(dir, { recursive: true, force: true });
    // Installed from a package, it does not depend on the folder it was built from.
    assert.equal((await t.call('GET', '/api/v1/plugins/packaged@1.2.0')).json().roles[0].name, 'packaged-node');
  });

  test('a registered folder re-syncs; a changed identity is refused', async () => {
    const dir = writePlugin({ name: 'dev', setting: { name: 'x', value: 'one' } });
    const registered = await t.call('POST', '/api/v1/plugins/folders', { path: dir });
    assert.equal(registered.statusCode, 201, registered.body);
    writePlugin({ name: 'dev', tasks: ['dev-more'] }, dir.replace(/\/dev-1\.0\.0$/, ''));
    const synced = await t.call('POST', '/api/v1/plugins/dev@1.0.0/sync');
    assert.equal(synced.statusCode, 200, synced.body);
    assert.ok((await t.call('GET', '/api/v1/plugins/dev@1.0.0')).json().tasks.default.some((x: { id: string }) => x.id === 'dev-more'));
    writePlugin({ name: 'dev', version: '1.0.0' }, dir.replace(/\/dev-1\.0\.0$/, ''));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/metadata.yaml`, readFileSync(`${dir}/metadata.yaml`, 'utf8').replace('"version": "1.0.0"', '"version": "9.9.9"'));
    const changed = await t.call('POST', '/api/v1/plugins/dev@1.0.0/sync');
    assert.equal(changed.statusCode, 409);
    assert.equal(changed.json().code, 'plugin/identity-changed');
  });

  test('uninstalling the bundled release plugin is remembered', async () => {
    const plugins = (await t.call('GET', '/api/v1/plugins')).json();
    const bundled = plugins.find((p: { source: string }) => p.source === 'bundled');
    assert.equal((await t.call('DELETE', `/api/v1/plugins/${bundled.id}`)).statusCode, 204);
    assert.equal((await t.call('GET', '/api/v1/releases')).json().length, 0);
    const { getMeta, META_BUNDLED_RELEASE_REMOVED } = await import('../../src/store/index.js');
    assert.equal(await getMeta(t.db, META_BUNDLED_RELEASE_REMOVED), true);
  });
});

describe('server options', () => {
  test('--protect-reads closes reads too; the web UI is served with its deep links', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { buildApp } = await import('../../src/server/app.js');
    const [engine2] = engines();
    const db = await engine2.open();
    const web = mkdtempSync(join(tmpdir(), 'hearth-web-'));
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Hearth UI</title>');
    writeFileSync(join(web, 'app.js'), 'console.log(1)');
    const app = await buildApp({ db, adminToken: TOKEN, protectReads: true, webDist: web });
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/releases' })).statusCode, 401);
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/releases', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).statusCode, 200, 'the reference stays readable');
      assert.match((await app.inject({ method: 'GET', url: '/' })).body, /Hearth UI/);
      assert.match((await app.inject({ method: 'GET', url: '/app.js' })).body, /console/);
      assert.match((await app.inject({ method: 'GET', url: '/clusters/3/nodes', headers: { accept: 'text/html' } })).body, /Hearth UI/);
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/nope', headers: { accept: 'text/html', authorization: `Bearer ${TOKEN}` } })).statusCode, 404);
    } finally {
      await app.close();
      await db.close();
      await engine2.dispose();
      rmSync(web, { recursive: true, force: true });
    }
  });
});
