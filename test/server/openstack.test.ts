/**
 * OpenStack's habits, on a real `hearth serve` (the built CLI): oslo.middleware's `/healthcheck`,
 * `X-OpenStack-Request-ID` beside `x-request-id`, and version discovery at `/` (for clients asking
 * JSON; browsers still get the web UI) and `/api`, all in the OpenAPI document. While the server
 * starts, `/healthcheck` answers 503 (test/server/startup.test.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type RunningServer } from '../support/serve.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('OpenStack habits', { timeout: 180_000 }, () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.stop());

  test('/healthcheck: 200 "OK" as text, as oslo.middleware answers, without a token', async () => {
    const res = await fetch(`${server.url}/healthcheck`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(await res.text(), 'OK');
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200, '/healthz still answers beside it');
  });

  test('X-OpenStack-Request-ID is taken as the request id and echoed under both names', async () => {
    const id = `req-${randomUUID()}`;
    const res = await fetch(`${server.url}/api/v1/releases`, { headers: { 'x-openstack-request-id': id } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-openstack-request-id'), id);
    assert.equal(res.headers.get('x-request-id'), id);
    // x-request-id as before, now echoed as OpenStack's too.
    const own = await fetch(`${server.url}/api/v1/releases`, { headers: { 'x-request-id': 'trace-42' } });
    assert.equal(own.headers.get('x-request-id'), 'trace-42');
    assert.equal(own.headers.get('x-openstack-request-id'), 'trace-42');
    // Neither given: one made up, the same under both names, on errors too.
    const missing = await fetch(`${server.url}/api/v1/clusters/987654`);
    assert.equal(missing.status, 404);
    assert.ok(missing.headers.get('x-openstack-request-id'));
    assert.equal(missing.headers.get('x-openstack-request-id'), missing.headers.get('x-request-id'));
    // An id that is not short and plain is not taken into the log.
    const odd = await fetch(`${server.url}/healthz`, { headers: { 'x-openstack-request-id': 'req <script>' } });
    assert.notEqual(odd.headers.get('x-openstack-request-id'), 'req <script>');
  });

  test('version discovery at /api and at / for JSON clients; the link it gives answers', async () => {
    for (const [path, accept] of [['/api', 'application/json'], ['/api', BROWSER_ACCEPT], ['/api/', '*/*'], ['/', 'application/json']] as const) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept } });
      assert.equal(res.status, 200, `${path} ${accept}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, `${path} ${accept}`);
      const body = (await res.json()) as { versions: Array<{ id: string; status: string; links: Array<{ rel: string; href: string }> }> };
      assert.deepEqual(body, { versions: [{ id: 'v1', status: 'CURRENT', links: [{ rel: 'self', href: `${server.url}/api/v1/` }] }] }, `${path} ${accept}`);
    }
    // keystoneauth follows the self link: the API is there.
    const releases = await fetch(`${server.url}/api/v1/releases`);
    assert.equal(releases.status, 200);
  });

  test('a browser asking / still gets the web UI, and caches keep the two apart', async () => {
    const page = await fetch(`${server.url}/`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /<html|<!doctype html/i);
    assert.match(page.headers.get('vary') ?? '', /\bAccept\b/);
    // curl with no Accept: the page, as before.
    assert.match((await fetch(`${server.url}/`)).headers.get('content-type') ?? '', /^text\/html/);
  });

  test('the OpenAPI document lists /healthcheck, / and /api', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> };
    assert.ok(doc.paths['/healthcheck']?.get, 'GET /healthcheck');
    assert.deepEqual(Object.keys(doc.paths['/healthcheck'].get.responses).sort(), ['200', '503', 'default']);
    assert.ok(doc.paths['/api']?.get?.responses['200'].content['application/json'], 'GET /api answers JSON');
    assert.ok(doc.paths['/']?.get?.responses['200'].content['application/json'], 'GET / documents its JSON answer');
    assert.ok(doc.paths['/']?.get?.responses['200'].content['text/html'], 'and its page');
    assert.deepEqual(doc.paths['/healthcheck'].get.security, [], 'no token needed');
  });
});
