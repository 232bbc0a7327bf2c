/**
 * Lists page as OpenStack lists do: `limit` and `marker`, the same on every list, the answer still
 * a plain array, the next page named in a Link header.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';

describe('paged lists', () => {
  const [engine] = engines();
  let t: TestApp;
  before(async () => {
    t = await testApp(engine);
    assert.equal((await t.call('POST', '/api/v1/nodes', { simulate: { count: 7 } })).statusCode, 201);
  });
  after(async () => {
    await t.close();
    await engine.dispose();
  });

  test('limit and marker walk a list in pages that add up to the whole, in order', async () => {
    const whole = (await t.call('GET', '/api/v1/nodes')).json() as Array<{ id: number }>;
    assert.equal(whole.length, 7);
    const seen: number[] = [];
    let url: string | undefined = '/api/v1/nodes?limit=3';
    let pages = 0;
    while (url && pages < 10) {
      const res = await t.call('GET', url);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as Array<{ id: number }>;
      assert.ok(Array.isArray(page) && page.length <= 3);
      seen.push(...page.map((n) => n.id));
      url = /<([^>]+)>; rel="next"/.exec((res.headers.link as string | undefined) ?? '')?.[1];
      pages++;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, whole.map((n) => n.id));
    const after = (await t.call('GET', `/api/v1/nodes?marker=${whole[4].id}`)).json() as Array<{ id: number }>;
    assert.deepEqual(after.map((n) => n.id), whole.slice(5).map((n) => n.id));
  });

  test('the other lists page the same way', async () => {
    for (const url of ['/api/v1/plugins?limit=1', '/api/v1/clusters?limit=1']) {
      const res = await t.call('GET', url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.ok(res.json().length <= 1, url);
    }
  });

  test('bad page requests are refused with what to do', async () => {
    for (const [url, code] of [
      ['/api/v1/nodes?limit=0', 'request/bad-limit'],
      ['/api/v1/nodes?limit=abc', 'request/bad-limit'],
      ['/api/v1/nodes?limit=100000', 'request/bad-limit'],
      ['/api/v1/nodes?marker=424242', 'request/unknown-marker'],
    ]) {
      const res = await t.call('GET', url);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.json().code, code, url);
    }
  });

  test('the OpenAPI document lists limit and marker on the paged lists', async () => {
    const doc = (await t.call('GET', '/api/v1/openapi.json')).json();
    const names = (doc.paths['/api/v1/nodes'].get.parameters as Array<{ name: string }>).map((p) => p.name);
    assert.ok(names.includes('limit') && names.includes('marker'));
  });
});
