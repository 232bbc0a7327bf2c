/**
 * Two servers on one PostgreSQL, each with a data folder of its own: a plugin package installed
 * through one is served by the other (its repository, unpacked there from the database), and
 * uninstalled through the other, neither serves it any more. Real servers listening on sockets.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildPlugin } from '../../src/package/build/index.js';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { openStore } from '../../src/store/index.js';
import { testDatabaseUrl } from './support/engines.js';

const TOKEN = 'plugin-files-shared-token-0123456789';

describe('plugin package files shared by two servers on one PostgreSQL', { skip: testDatabaseUrl ? false : 'HEARTH_TEST_DATABASE_URL not set' }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-plugin-files-shared-'));
  const schema = `hearth_pf_${randomBytes(5).toString('hex')}`;
  const servers: RunningServer[] = [];
  let pkg: Buffer;
  const call = async (server: RunningServer, method: string, path: string, body?: Buffer) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/octet-stream' } : {}) }, ...(body ? { body } : {}) });
    return { status: res.status, text: await res.text() };
  };

  before(async () => {
    const made = createPlugin('shared', { releasePlugin: true, parentDir: work });
    assert.ok(made.ok);
    writeFileSync(join(made.dir!, 'shared-release', 'repositories', 'ubuntu', 'hello.txt'), 'hello from the database\n');
    const built = await buildPlugin(made.dir!, { outDir: join(work, 'out'), runHook: false });
    assert.ok(built.ok, JSON.stringify(built.findings));
    pkg = readFileSync(built.path!);
    rmSync(made.dir!, { recursive: true, force: true });
    for (const name of ['a', 'b']) {
      servers.push(await startServer({ port: 0, dataDir: join(work, name), databaseUrl: testDatabaseUrl!, schema, adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 }));
    }
  });
  after(async () => {
    for (const s of servers) await s.close();
    const db = await openStore({ databaseUrl: testDatabaseUrl!, schema });
    await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('installed through one server, served by the other; uninstalled through the other, served by neither', async () => {
    const [a, b] = servers;
    const installed = await call(a, 'POST', '/api/v1/plugins', pkg);
    assert.equal(installed.status, 201, installed.text);
    const file = '/plugins/shared-1.0.0/repositories/hello.txt';
    const fromB = await call(b, 'GET', file);
    assert.equal(fromB.status, 200, fromB.text);
    assert.equal(fromB.text, 'hello from the database\n');
    assert.equal(readdirSync(join(work, 'b', 'plugin-files')).length, 1, 'b unpacked it into its own data folder');
    assert.equal((await call(a, 'GET', file)).text, 'hello from the database\n');

    const removed = await call(b, 'DELETE', '/api/v1/plugins/shared@1.0.0');
    assert.equal(removed.status, 204, removed.text);
    for (const s of [a, b]) assert.equal((await call(s, 'GET', file)).status, 404);
    assert.deepEqual(readdirSync(join(work, 'b', 'plugin-files')), [], 'b removed its copy');
  });
});
