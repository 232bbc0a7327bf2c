import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engines } from './support/engines.js';
import * as store from '../../src/store/index.js';
import type { LoadedPlugin } from '../../src/package/plugin/model.js';
import type { Release } from '../../src/core/release/model.js';

const plugin = (name: string, version: string): LoadedPlugin => ({
  root: `/plugins/${name}`,
  name,
  version,
  packageVersion: '5.0.0',
  metadata: { name, version },
  files: {},
  filePaths: {},
  releases: [],
  isReleasePlugin: false,
});

const release = (id: string): Release => ({
  id,
  name: 'Hearth',
  version: '1',
  operating_system: 'ubuntu',
  roles_metadata: {},
  tags_metadata: {},
  volumes_metadata: { volumes: [], volumes_roles_mapping: {} },
  network_roles_metadata: [],
  networks_metadata: {},
  attributes_metadata: {},
  components: [],
  required_component_types: [],
  graphs: {},
  source: 'test',
});

for (const engine of engines()) {
  describe(`store on ${engine.name}`, () => {
    after(() => engine.dispose());

    test('migrations apply once and a second run is a no-op', async () => {
      const db = await engine.open();
      assert.deepEqual(await store.migrate(db), []);
      const rows = await db.query<{ version: number }>('SELECT version FROM hearth_migrations');
      assert.deepEqual(rows.map((r) => r.version), store.MIGRATIONS.map((m) => m.version));
      await db.close();
    });

    test('a failed transaction leaves nothing behind', async () => {
      const db = await engine.open();
      await assert.rejects(
        db.transaction(async (tx) => {
          await store.insertPlugin(tx, { id: 'p@1', name: 'p', version: '1', packageVersion: '5.0.0', isRelease: true, sourceKind: 'package', loaded: plugin('p', '1') });
          await store.insertRelease(tx, release('r1'), 'p@1');
          await store.insertRelease(tx, release('r1'), 'p@1'); // duplicate id: the whole install fails
        }),
      );
      assert.deepEqual(await store.listPlugins(db), []);
      assert.deepEqual(await store.listReleases(db), []);
      await db.close();
    });

    test('plugins side by side, releases cascade with their plugin, a used release is protected', async () => {
      const db = await engine.open();
      for (const v of ['1.0.0', '2.0.0']) {
        await store.insertPlugin(db, { id: store.pluginId('p', v), name: 'p', version: v, packageVersion: '5.0.0', isRelease: v === '1.0.0', sourceKind: 'package', loaded: plugin('p', v) });
      }
      assert.deepEqual((await store.listPlugins(db, 'p')).map((p) => p.id), ['p@1.0.0', 'p@2.0.0']);
      await store.insertRelease(db, release('rel'), 'p@1.0.0');
      const cid = await store.insertCluster(db, { name: 'env', releaseId: 'rel', components: ['hypervisor:qemu'], attributes: { a: 1 } });
      await store.setClusterPlugins(db, cid, { p: 'p@2.0.0' });
      assert.deepEqual((await store.getCluster(db, cid))?.plugins, { p: 'p@2.0.0' });
      assert.deepEqual(await store.clustersEnablingPlugin(db, 'p@2.0.0'), [{ id: cid, name: 'env' }]);
      assert.deepEqual(await store.clustersUsingRelease(db, 'rel'), [{ id: cid, name: 'env' }]);
      // The database refuses too, as a last line behind the server's own checks.
      await assert.rejects(store.deletePlugin(db, 'p@2.0.0'));
      await assert.rejects(store.deletePlugin(db, 'p@1.0.0'));
      await store.deleteCluster(db, cid);
      assert.equal(await store.deletePlugin(db, 'p@1.0.0'), true);
      assert.deepEqual(await store.listReleases(db), []);
      await db.close();
    });

    test('environments made in one statement: each as if made alone, a taken name left out, one tree given for several stored in each, each audit entry naming its environment', async () => {
      const db = await engine.open();
      await store.insertPlugin(db, { id: 'p@1', name: 'p', version: '1', packageVersion: '5.0.0', isRelease: false, sourceKind: 'package', loaded: plugin('p', '1') });
      await store.insertRelease(db, release('rel'));
      const entry = (status: number): store.AuditEntry => ({ at: new Date('2026-01-02T03:04:05.678Z'), actor: 'alice', via: 'session', address: '10.0.0.1', method: 'POST', route: '/api/v1/clusters', object: { kind: 'environment' }, status, outcome: 'done' });
      const taken = await store.createCluster(db, { name: 'taken', releaseId: 'rel', components: [], attributes: {}, plugins: {} });
      const settings = { common: { debug: { value: true, label: 'Débug "é"' } }, empty: {} };
      const made = await store.createClusters(db, [
        { name: 'first', releaseId: 'rel', components: ['a', 'b'], attributes: settings, plugins: { p: 'p@1' }, audit: entry(201) },
        { name: 'taken', releaseId: 'rel', components: [], attributes: {}, plugins: {}, audit: entry(201) },
        { name: 'third', releaseId: 'rel', components: [], attributes: settings, plugins: {}, audit: entry(201) },
        { name: 'sixth', releaseId: 'rel', components: ['c'], attributes: { other: { x: [1, null] } }, plugins: {} },
      ]);
      assert.equal(made[1], undefined, 'a taken name is left out');
      assert.ok(made[0] && made[2] && taken && made[0].id > taken.id && made[2].id > made[0].id, 'ids in the order given');
      assert.deepEqual(await store.getCluster(db, made[0].id), made[0], 'the answer is what is stored');
      assert.deepEqual(await store.getCluster(db, made[2].id), made[2]);
      assert.deepEqual(await store.getCluster(db, made[3]!.id), made[3]);
      assert.deepEqual([made[0].attributes, made[2].attributes, made[3]!.attributes], [settings, settings, { other: { x: [1, null] } }], 'one tree given for two is stored in each');
      assert.deepEqual(made[0].plugins, { p: 'p@1' });
      assert.equal((await store.clusterByName(db, 'taken'))?.id, taken.id);
      const entries = await db.query<{ object_id: string; actor: string; at: Date | string }>(`SELECT object_id, actor, at FROM audit_log ORDER BY id`);
      assert.deepEqual(entries.map((e) => [e.object_id, e.actor, new Date(e.at).toISOString()]), [String(made[0].id), String(made[2].id)].map((id) => [id, 'alice', '2026-01-02T03:04:05.678Z']), 'an entry for each environment given one');
      // A plugin that is not installed refuses the statement: nothing of it is written.
      await assert.rejects(store.createClusters(db, [
        { name: 'fourth', releaseId: 'rel', components: [], attributes: {}, plugins: {}, audit: entry(201) },
        { name: 'fifth', releaseId: 'rel', components: [], attributes: {}, plugins: { q: 'q@1' }, audit: entry(201) },
      ]));
      assert.equal(await store.clusterByName(db, 'fourth'), undefined);
      assert.equal((await db.query('SELECT 1 FROM audit_log')).length, 2);
      await db.close();
    });

    test('nodes: bulk insert, assign, commit pending roles, unassign', async () => {
      const db = await engine.open();
      await store.insertRelease(db, release('rel'));
      const cid = await store.insertCluster(db, { name: 'env', releaseId: 'rel', components: [], attributes: {} });
      const ids = await store.insertNodes(db, Array.from({ length: 50 }, (_, i) => ({ name: `node-${i}`, hardware: { cpus: 4 } })));
      assert.equal(ids.length, 50);
      await store.assignNodes(db, cid, [{ id: ids[0], pendingRoles: ['controller'] }, { id: ids[1], pendingRoles: ['compute', 'cinder'] }]);
      let nodes = await store.listNodes(db, { clusterId: cid });
      assert.deepEqual(nodes.map((n) => [n.name, n.pendingRoles]), [['node-0', ['controller']], ['node-1', ['compute', 'cinder']]]);
      await store.commitPendingRoles(db, cid);
      nodes = await store.listNodes(db, { clusterId: cid });
      assert.deepEqual(nodes.map((n) => [n.roles.sort(), n.pendingRoles]), [[['controller'], []], [['cinder', 'compute'], []]]);
      await store.unassignNodes(db, [ids[0]]);
      assert.equal((await store.listNodes(db, { clusterId: cid })).length, 1);
      assert.equal((await store.listNodes(db, { unassigned: true })).length, 49);
      await db.close();
    });

    test('disk layouts: a saved layout is kept per node, replaced when saved again, forgotten when the node leaves its environment or is deleted', async () => {
      const db = await engine.open();
      await store.insertRelease(db, release('rel'));
      const cid = await store.insertCluster(db, { name: 'env', releaseId: 'rel', components: [], attributes: {} });
      const [a, b] = await store.insertNodes(db, [{ name: 'a', hardware: {} }, { name: 'b', hardware: {} }]);
      await store.assignNodes(db, cid, [{ id: a, pendingRoles: ['compute'] }, { id: b, pendingRoles: ['compute'] }]);
      assert.equal((await store.savedDiskLayouts(db, [a, b])).size, 0, 'a node follows its defaults until a layout is saved');
      await store.saveDiskLayout(db, a, [{ id: 'sda', volumes: [{ name: 'vm', size: 1000 }] }]);
      await store.saveDiskLayout(db, a, [{ id: 'sda', volumes: [{ name: 'vm', size: 2000 }] }]);
      await store.saveDiskLayout(db, b, [{ id: 'vdb', exclude: true, volumes: [] }]);
      const saved = await store.savedDiskLayouts(db, [a, b]);
      assert.deepEqual(saved.get(a)?.disks, [{ id: 'sda', volumes: [{ name: 'vm', size: 2000 }] }]);
      assert.match(saved.get(a)?.savedAt ?? '', /^\d{4}-\d\d-\d\dT/);
      await store.unassignNodes(db, [a]);
      assert.deepEqual([...(await store.savedDiskLayouts(db, [a, b])).keys()], [b], 'a node that left its environment starts again from its defaults');
      await store.unassignNodes(db, [b]);
      await store.saveDiskLayout(db, b, []);
      await store.deleteNodes(db, [b]);
      assert.equal((await db.query('SELECT 1 FROM node_disk_layouts')).length, 0, 'a deleted node takes its layout with it');
      await db.close();
    });

    test('deployments record per-task status and interrupted runs are marked interrupted at start', async () => {
      const db = await engine.open();
      await store.insertRelease(db, release('rel'));
      const cid = await store.insertCluster(db, { name: 'env', releaseId: 'rel', components: [], attributes: {} });
      const did = await store.createDeployment(db, cid, 'default', [{ node: '1', taskId: 'a' }, { node: '1', taskId: 'b' }]);
      await store.setTaskStatus(db, did, '1', 'a', 'running');
      await store.setTaskStatus(db, did, '1', 'a', 'ready');
      assert.equal((await store.getDeployment(db, did))?.done, 1);
      assert.equal(await store.failInterruptedDeployments(db), 1);
      assert.equal((await store.getDeployment(db, did))?.status, 'interrupted');
      assert.deepEqual((await store.deploymentTasks(db, did)).map((t) => t.status), ['ready', 'skipped']);
      await db.close();
    });

    test('migration 7: runs an older Hearth failed as interrupted become interrupted; real failures stay failed', async () => {
      const db = await engine.open();
      await store.insertRelease(db, release('rel'));
      const cid = await store.insertCluster(db, { name: 'env', releaseId: 'rel', components: [], attributes: {} });
      // The database as migration 6 left it, holding what the older sweep wrote.
      await db.query('DELETE FROM hearth_migrations WHERE version = 7');
      await db.query('ALTER TABLE deployments DROP CONSTRAINT deployments_status_check');
      await db.query(`ALTER TABLE deployments ADD CONSTRAINT deployments_status_check CHECK (status IN ('running', 'succeeded', 'failed', 'stopped'))`);
      const cut = await store.createDeployment(db, cid, 'default', [{ node: '1', taskId: 'a' }]);
      const broken = await store.createDeployment(db, cid, 'default', [{ node: '1', taskId: 'a' }]);
      await db.query(`UPDATE deployments SET status = 'failed', message = 'interrupted: the server running it stopped' WHERE id = $1`, [cut]);
      await db.query(`UPDATE deployments SET status = 'failed', message = 'task a failed on node 1' WHERE id = $1`, [broken]);
      assert.deepEqual(await store.migrate(db), [7]);
      assert.equal((await store.getDeployment(db, cut))?.status, 'interrupted');
      assert.equal((await store.getDeployment(db, broken))?.status, 'failed');
      await db.close();
    });

    test('meta: set-if-absent keeps the first value', async () => {
      const db = await engine.open();
      assert.equal(await store.setMetaIfAbsent(db, 'k', 'first'), 'first');
      assert.equal(await store.setMetaIfAbsent(db, 'k', 'second'), 'first');
      await db.close();
    });
  });
}

describe('PGlite data folder', () => {
  test('a second server on the same folder is refused; a stale lock is taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-store-'));
    try {
      const first = await store.openStore({ dataDir: dir });
      await assert.rejects(store.openStore({ dataDir: dir }), (err: unknown) => err instanceof store.StoreError && err.code === 'store/data-dir-in-use');
      await store.insertRelease(first, release('kept'));
      await first.close();
      // A lock left by a process that no longer exists (pid far above any live one).
      writeFileSync(join(dir, 'hearth-server.lock'), '999999999');
      const second = await store.openStore({ dataDir: dir });
      assert.deepEqual((await store.listReleases(second)).map((r) => r.id), ['kept']);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the default data folder follows XDG_DATA_HOME', () => {
    assert.equal(store.defaultDataDir({ XDG_DATA_HOME: '/x/data' }), '/x/data/hearth');
    assert.match(store.defaultDataDir({}), /\.local\/share\/hearth$/);
  });
});

describe('server presence', () => {
  test('on PostgreSQL a deployment is interrupted only once the server running it is gone', { skip: process.env.HEARTH_TEST_DATABASE_URL ? false : 'HEARTH_TEST_DATABASE_URL not set' }, async () => {
    const url = process.env.HEARTH_TEST_DATABASE_URL!;
    const schema = `hearth_pr_${Date.now().toString(36)}`;
    const a = await store.openStore({ databaseUrl: url, schema });
    const b = await store.openStore({ databaseUrl: url, schema });
    try {
      const [pa, pb] = [await a.presence(), await b.presence()];
      assert.notEqual(pa.id, pb.id);
      await store.insertRelease(a, release('rel'));
      const cid = await store.insertCluster(a, { name: 'env', releaseId: 'rel', components: [], attributes: {} });
      const did = await store.createDeployment(a, cid, 'default', [{ node: '1', taskId: 't' }], pa.id);
      assert.equal(await store.failInterruptedDeployments(b, pb.alive), 0, 'server a is alive');
      await a.close();
      assert.equal(await pb.alive(pa.id), false);
      assert.equal(await store.failInterruptedDeployments(b, pb.alive), 1, 'server a is gone');
      assert.equal((await store.getDeployment(b, did))?.status, 'interrupted');
    } finally {
      await b.exec(`DROP SCHEMA "${schema}" CASCADE`);
      await b.close();
    }
  });
});
