/**
 * A plugin uninstalled through another server leaves no copy behind (issue 24, item 18): two
 * servers on one PostgreSQL, each with its own data folder; both unpack a package installed
 * through one of them; uninstalled through the other, the first server's unpacked copy is removed
 * within its sweep (HEARTH_PLUGIN_SWEEP_SECONDS, 1 s here) without a restart. Real servers.
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
import { testDatabaseUrl } from '../server/support/engines.js';

const TOKEN = 'plugin-sweep-token-0123456789';

describe('unpacked copies of a plugin uninstalled through another server', { skip: testDatabaseUrl ? false : 'HEARTH_TEST_DATABASE_URL not set: two servers on one PostgreSQL skipped' }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hearth-plugin-sweep-'));
  const schema = `hearth_sweep_${randomBytes(5).toString('hex')}`;
  const servers: RunningServer[] = [];
  let pkg: Buffer;
  const saved = process.env.HEARTH_PLUGIN_SWEEP_SECONDS;
  const call = async (server: RunningServer, method: string, path: string, body?: Buffer) => {
    const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/octet-stream' } : {}) }, ...(body ? { body } : {}) });
    return { status: res.status, text: await res.text() };
  };

  before(async () => {
    const made = createPlugin('swept', { parentDir: work });
    assert.ok(made.ok, JSON.stringify(made.findings));
    writeFileSync(join(made.dir!, 'repositories', 'ubuntu', 'hello.txt'), 'hello\n');
    const built = await buildPlugin(made.dir!, { outDir: join(work, 'out'), runHook: false });
    assert.ok(built.ok, JSON.stringify(built.findings));
    pkg = readFileSync(built.path!);
    process.env.HEARTH_PLUGIN_SWEEP_SECONDS = '1';
    for (const name of ['a', 'b']) servers.push(await startServer({ port: 0, dataDir: join(work, name), databaseUrl: testDatabaseUrl!, schema, adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 }));
  });
  after(async () => {
    if (saved === undefined) delete process.env.HEARTH_PLUGIN_SWEEP_SECONDS;
    else process.env.HEARTH_PLUGIN_SWEEP_SECONDS = saved;
    for (const s of servers) await s.close();
    const db = await openStore({ databaseUrl: testDatabaseUrl!, schema });
    await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('are removed by the server that kept them, without a restart', async () => {
    const [a, b] = servers;
    assert.equal((await call(a, 'POST', '/api/v1/plugins', pkg)).status, 201);
    const file = '/plugins/swept-1.0.0/repositories/hello.txt';
    for (const s of [a, b]) assert.equal((await call(s, 'GET', file)).text, 'hello\n');
    assert.equal(readdirSync(join(work, 'a', 'plugin-files')).length, 1, 'a unpacked it');
    assert.equal((await call(b, 'DELETE', '/api/v1/plugins/swept@1.0.0')).status, 204);
    assert.deepEqual(readdirSync(join(work, 'b', 'plugin-files')), [], 'b removed its own copy at once');
    const until = Date.now() + 30_000;
    while (readdirSync(join(work, 'a', 'plugin-files')).length && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(readdirSync(join(work, 'a', 'plugin-files')), [], 'a removed its copy of the plugin uninstalled through b');
    assert.equal((await call(a, 'GET', file)).status, 404);
  });
});
