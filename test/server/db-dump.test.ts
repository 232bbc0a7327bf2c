/**
 * `hearth db export | import`: a database with plugins, environments, nodes and a finished
 * deployment goes out as one JSON file and comes back the same, on each engine and from one engine
 * to the other; an import is all or nothing and goes only into an empty database.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDump, exportDatabase, importDatabase, StoreError, type Database, type Dump } from '../../src/store/index.js';
import { engines, type EngineUnderTest } from './support/engines.js';
import { appOn, waitForDeployment } from './support/app.js';
import { writePlugin } from './support/plugins.js';
import { repoRoot } from '../hostile/harness.js';
import { startServer } from '../support/serve.js';

/** Timestamps come back in the engine's time zone: compare instants, not spellings. */
const ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}(:?\d{2})?|Z)?$/;
function comparable(dump: Dump): unknown {
  const norm = (v: unknown): unknown => {
    if (typeof v === 'string' && ISO.test(v)) return new Date(v).toISOString();
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)] as const).sort(([a], [b]) => (a < b ? -1 : 1)));
    return v;
  };
  return norm(dump.tables);
}

/** A database that has seen use: a plugin, an environment with roles, a deployment that ran. */
async function populated(engine: EngineUnderTest): Promise<Database> {
  const db = await engine.open();
  const t = await appOn(db);
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await t.call(method, `/api/v1${url}`, body);
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.body}`);
    return res.json();
  };
  await call('POST', '/plugins/folders', { path: writePlugin({ name: 'dumped', component: 'additional_service:dumped' }) });
  const release = (await call('GET', '/releases'))[0].id;
  const env = await call('POST', '/clusters', { name: 'to-move', release_id: release, components: ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm', 'additional_service:dumped'] });
  const { ids } = await call('POST', '/nodes', { simulate: { count: 5 } });
  const roles = [['controller'], ['compute'], ['database'], ['messaging']];
  await call('POST', `/clusters/${env.id}/nodes`, { assignments: roles.map((r, i) => ({ node_id: ids[i], roles: r })) });
  const run = await call('POST', `/clusters/${env.id}/deploy`, { dry_run: true });
  assert.equal((await waitForDeployment(t, env.id, run.id)).status, 'succeeded');
  await t.app.close();
  return db;
}

const names = engines().map((e) => e.name);

for (const [fromName, toName] of names.flatMap((f) => names.map((t) => [f, t] as const))) {
  describe(`db export on ${fromName}, import on ${toName}`, () => {
    // Engines of their own: disposing one closes its shared PGlite, which later pairs still need.
    const list = engines();
    const from = list.find((e) => e.name === fromName) as EngineUnderTest;
    const to = list.find((e) => e.name === toName) as EngineUnderTest;
    let source: Database;
    let target: Database;
    let exported: Dump;
    before(async () => {
      source = await populated(from);
      // Exported before the target opens: on PGlite the tests share one instance, and opening a
      // database there moves the instance's search path to the new schema.
      exported = await exportDatabase(source);
      target = await to.open();
    });
    after(async () => {
      await source?.close();
      await target?.close();
      await from.dispose();
      if (to !== from) await to.dispose();
    });

    test('everything comes back the same, and new rows continue after the old ids', async () => {
      const dump = checkDump(JSON.parse(JSON.stringify(exported)));
      assert.deepEqual([dump.tables.clusters.length, dump.tables.nodes.length, dump.tables.deployments.length], [1, 5, 1]);
      assert.ok(dump.tables.plugins.length >= 2, 'the bundled release and the plugin');
      const counts = await importDatabase(target, dump);
      assert.equal(counts.nodes, 5);
      assert.deepEqual(comparable(await exportDatabase(target)), comparable(dump));
      const t = await appOn(target, { withRelease: false });
      try {
        const nodes = (await t.call('GET', '/api/v1/nodes')).json();
        assert.equal(nodes.length, 5);
        const created = await t.call('POST', '/api/v1/nodes', { simulate: { count: 1 } });
        assert.equal(created.statusCode, 201, created.body);
        assert.ok(created.json().ids[0] > Math.max(...nodes.map((n: { id: number }) => n.id)), 'ids go on after the imported ones');
        const env = (await t.call('GET', '/api/v1/clusters')).json()[0];
        assert.equal(env.name, 'to-move');
        assert.equal((await t.call('GET', `/api/v1/clusters/${env.id}/deployments`)).json().length, 1);
      } finally {
        await t.app.close();
      }
    });

    test('an import goes only into an empty database, and refuses without changing it', async () => {
      const dump = exported;
      const before = JSON.stringify(comparable(await exportDatabase(target)));
      await assert.rejects(importDatabase(target, dump), (err: StoreError) => err.code === 'store/import-not-empty' && /already holds data/.test(err.message));
      assert.equal(JSON.stringify(comparable(await exportDatabase(target))), before);
    });
  });
}

test('a file that is not an export, or one from a newer Hearth, is refused with what to do', async () => {
  assert.throws(() => checkDump({ tables: {} }), (err: StoreError) => err.code === 'store/not-a-dump' && /hearth db export/.test(err.hint ?? ''));
  assert.throws(() => checkDump({ format: 'hearth-dump', version: 99, schema: 1, tables: {} }), (err: StoreError) => err.code === 'store/dump-version');
  assert.throws(() => checkDump({ format: 'hearth-dump', version: 1, schema: 1, tables: { nodes: [1] } }), (err: StoreError) => err.code === 'store/not-a-dump');
  const [engine] = engines();
  const db = await engine.open();
  try {
    await assert.rejects(importDatabase(db, { format: 'hearth-dump', version: 1, schema: 10_000, exported_at: '', tables: {} }), (err: StoreError) => err.code === 'store/dump-newer');
    await assert.rejects(importDatabase(db, { format: 'hearth-dump', version: 1, schema: 1, exported_at: '', tables: { secrets: [{ a: 1 }] } }), (err: StoreError) => err.code === 'store/dump-unknown-table');
  } finally {
    await db.close();
    await engine.dispose();
  }
});

test('hearth db export and import through the CLI, between two embedded folders', { skip: existsSync(join(repoRoot, 'dist', 'cli', 'commands', 'db.js')) ? false : 'dist/ is not built' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-dump-'));
  const hearth = (...args: string[]) => spawnSync(process.execPath, [join(repoRoot, 'bin', 'hearth'), ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' }, timeout: 120_000 });
  try {
    // A folder a real server set up (the bundled release installed), then stopped.
    const server = await startServer({ dataDir: join(dir, 'a') });
    await server.stop();
    const file = join(dir, 'dump.json');
    const out = hearth('db', 'export', '--data-dir', join(dir, 'a'), '-o', file);
    assert.equal(out.status, 0, out.stderr);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).format, 'hearth-dump');
    const imported = hearth('db', 'import', file, '--data-dir', join(dir, 'b'));
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /^imported .*\d+ plugins/);
    const again = hearth('db', 'import', file, '--data-dir', join(dir, 'b'));
    assert.equal(again.status, 1, 'a second import finds data there');
    writeFileSync(join(dir, 'bad.json'), '{"format": "hearth-dump",');
    const bad = hearth('db', 'import', join(dir, 'bad.json'), '--data-dir', join(dir, 'c'));
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /is not JSON/);
    assert.equal(hearth('db', 'import', join(dir, 'missing.json')).status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
