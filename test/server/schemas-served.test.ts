/**
 * JSON Schemas for editors: `hearth plugin create` writes a `$schema` line at the top of each plugin
 * file naming the schema the validator checks it with, and the server serves the same schemas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { createPlugin, PUBLISHED_SCHEMAS } from '../../src/package/create/index.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { engines } from './support/engines.js';
import { TOKEN, repoRoot } from './support/app.js';

test('plugin create names each file\'s schema on its first line; the skeleton still validates cleanly', () => {
  const parent = mkdtempSync(join(tmpdir(), 'hearth-schema-lines-'));
  try {
    for (const [version, expected] of [
      ['5.0.0', { 'metadata.yaml': 'metadata-5.0.0.json', 'deployment_tasks.yaml': 'deployment-tasks-4.0.0.json', 'components.yaml': 'components.json', 'environment_config.yaml': 'environment-config-4.0.0.json' }],
      ['1.0.0', { 'metadata.yaml': 'metadata-1.0.0.json', 'tasks.yaml': 'tasks-1.0.0.json', 'environment_config.yaml': 'environment-config-1.0.0.json' }],
    ] as const) {
      const name = `schemas_${version.replace(/\./g, '_')}`;
      assert.ok(createPlugin(name, { parentDir: parent, packageVersion: version }).ok);
      for (const [file, schema] of Object.entries(expected)) {
        const first = readFileSync(join(parent, name, file), 'utf8').split('\n')[0];
        assert.equal(first, `# yaml-language-server: $schema=${PUBLISHED_SCHEMAS}${schema}`, `${version} ${file}`);
        assert.ok(readdirSync(join(repoRoot, 'schemas')).includes(schema), `${schema} is a schema Hearth ships`);
      }
      const result = validatePlugin(join(parent, name));
      assert.deepEqual(result.findings.filter((f) => f.severity !== 'info').map((f) => f.code), [], `${version} validates cleanly`);
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('the server serves the schemas at /schemas/, without the token, and nothing else from disk', async () => {
  const [engine] = engines();
  const db = await engine.open();
  const app = await buildApp({ db, adminToken: TOKEN, protectReads: true });
  try {
    const list = await app.inject({ method: 'GET', url: '/schemas' });
    assert.equal(list.statusCode, 200);
    const names = list.json().map((s: { name: string }) => s.name);
    assert.ok(names.includes('metadata-5.0.0.json') && names.includes('deployment-tasks-4.0.0.json'));
    const one = await app.inject({ method: 'GET', url: '/schemas/metadata-5.0.0.json' });
    assert.equal(one.statusCode, 200);
    assert.match(one.headers['content-type'] as string, /schema\+json/);
    assert.deepEqual(one.json(), JSON.parse(readFileSync(join(repoRoot, 'schemas', 'metadata-5.0.0.json'), 'utf8')));
    for (const url of ['/schemas/..%2Fpackage.json', '/schemas/%2e%2e%2fpackage.json', '/schemas/nope.json', '/schemas/common.json.bak']) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.doesNotMatch(res.body, /"dependencies"/);
    }
  } finally {
    await app.close();
    await db.close();
    await engine.dispose();
  }
});
