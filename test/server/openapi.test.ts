/**
 * The OpenAPI document is a contract other tools are generated from: it must be valid OpenAPI (checked
 * by an independent validator), and every operation needs a stable, unique operationId.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
