/**
 * The OpenAPI document is a contract other tools are generated from: it must be valid OpenAPI (checked
 * by an independent validator), and every operation needs a stable, unique operationId.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildApp } from '../../src/server/app.js';
import { operationIdOf } from '../../src/server/openapi.js';
import { engines } from './support/engines.js';
import { TOKEN } from './support/app.js';

test('the OpenAPI document validates as OpenAPI 3.1, each operation with a unique operationId', async () => {
  const [engine] = engines();
  const db = await engine.open();
  const app = await buildApp({ db, adminToken: TOKEN });
  try {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 3000));
    const ids: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string; security?: unknown[] }>>)) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(op.operationId, `${method} ${path} has an operationId`);
        ids.push(op.operationId);
        assert.ok(Array.isArray(op.security), `${method} ${path} says whether it needs the token`);
      }
    }
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    assert.ok(ids.includes('postClusters') && ids.includes('getClustersByIdGraphsByType'));
  } finally {
    await app.close();
    await db.close();
    await engine.dispose();
  }
});

test('operationIds are made from the method and path', () => {
  assert.equal(operationIdOf('GET', '/api/v1/clusters/:id/graphs/:type'), 'getClustersByIdGraphsByType');
  assert.equal(operationIdOf('POST', '/api/v1/plugins/folders'), 'postPluginsFolders');
  assert.equal(operationIdOf('GET', '/api/v1/ssh-key'), 'getSshKey');
});

/** A concrete path for a documented one: any id will do, as the token is checked before the route runs. */
const concretePath = (path: string): string => path.replace('{type}', 'default').replace('{file}', 'components.json').replace('{path}', 'x').replace(/\{[a-z_]+\}/g, '1');

for (const protectReads of [false, true]) {
  test(`the document's security is what the server asks, route by route${protectReads ? ' (--protect-reads)' : ''}`, async () => {
    const [engine] = engines();
    const db = await engine.open();
    const app = await buildApp({ db, adminToken: TOKEN, protectReads });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { security: unknown[] }>> };
      let open = 0;
      let asked = 0;
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { security: unknown[]; 'x-hearth-access': string }>>)) {
        for (const [method, op] of Object.entries(item)) {
          const says = op.security.length > 0;
          assert.deepEqual(op.security, says ? [{ adminToken: [] }] : [], `${method} ${path}: the token is needed or it is not`);
          const res = await fetch(`${base}${concretePath(path)}`, { method: method.toUpperCase(), ...(method === 'get' || method === 'delete' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }) });
          await res.body?.cancel();
          assert.equal(res.status === 401, says, `${method} ${path} (${op['x-hearth-access']}): the document says the token is ${says ? '' : 'not '}needed; without it the server answered ${res.status}`);
          if (says) asked++;
          else open++;
        }
      }
      assert.ok(asked >= 15 && open >= 5, `${asked} routes need the token, ${open} do not`);
      // The rule behind it: open routes never need the token, --protect-reads or not.
      assert.deepEqual(doc.paths['/healthz'].get.security, []);
      assert.deepEqual(doc.paths['/schemas/{file}'].get.security, []);
      assert.deepEqual(doc.paths['/api/v1/releases'].get.security, protectReads ? [{ adminToken: [] }] : []);
    } finally {
      await app.close();
      await db.close();
      await engine.dispose();
    }
  });
}
