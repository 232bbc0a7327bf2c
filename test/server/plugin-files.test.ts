/**
 * A plugin installed from a package keeps its files: the package is stored in the database in
 * chunks, and any server sharing the database (here: two PluginFiles with data folders of their
 * own) unpacks the same files from it; uninstall removes the rows and what the server unpacked.
 * A stored package that was damaged, or was never kept (installed before Hearth kept packages), is
 * not unpacked: the answer says why. On each engine (bytea travels differently through PGlite and pg).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildPlugin } from '../../src/package/build/index.js';
import { createPlugin } from '../../src/package/create/index.js';
import { PluginFiles } from '../../src/server/domain/plugin-files.js';
import * as store from '../../src/store/index.js';
import { engines } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';

for (const engine of engines()) {
  describe(`plugin package files on ${engine.name}`, () => {
    let t: TestApp;
    const work = mkdtempSync(join(tmpdir(), 'hearth-plugin-files-'));
    const big = randomBytes(2.5 * 1024 * 1024);
    let pkg: Buffer;
    const install = async (bytes: Buffer) => {
      const res = await t.call('POST', '/api/v1/plugins', bytes, { 'content-type': 'application/octet-stream' });
      return { status: res.statusCode, body: res.json() };
    };
    const plugin = async () => (await store.getPlugin(t.db, 'packed@1.0.0'))!;
    const count = async (table: string) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

    before(async () => {
      t = await testApp(engine, { withRelease: false });
      const made = createPlugin('packed', { releasePlugin: true, parentDir: work });
      assert.ok(made.ok);
      // Incompressible, so the package spans several 1 MiB chunks.
      writeFileSync(join(made.dir!, 'packed-release', 'repositories', 'ubuntu', 'blob.bin'), big);
      const built = await buildPlugin(made.dir!, { outDir: join(work, 'out'), runHook: false });
      assert.ok(built.ok, JSON.stringify(built.findings));
      pkg = readFileSync(built.path!);
      rmSync(made.dir!, { recursive: true, force: true });
    });
    after(async () => {
      await t.close();
      await engine.dispose();
      rmSync(work, { recursive: true, force: true });
    });

    test('installed from a package: kept in chunks, unpacked whole by each server that needs it, once', async () => {
      const res = await install(pkg);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(await count('plugin_package_chunks'), Math.ceil(pkg.length / (1024 * 1024)));
      const servers = [new PluginFiles(join(work, 'server-a')), new PluginFiles(join(work, 'server-b'))];
      for (const files of servers) {
        // Asked twice at once: one unpacking, one folder.
        const [first, second] = await Promise.all([files.rootOf(t.db, await plugin()), files.rootOf(t.db, await plugin())]);
        assert.ok('root' in first, JSON.stringify(first));
        assert.deepEqual(second, first);
        assert.deepEqual(readFileSync(join(first.root, 'packed-release', 'repositories', 'ubuntu', 'blob.bin')), big);
        assert.ok(existsSync(join(first.root, 'packed-release', 'deployment_scripts', 'controller.sh')));
        assert.deepEqual(readdirSync(files.dir!).length, 1, `only the unpacked folder is left in ${files.dir}: ${readdirSync(files.dir!).join(', ')}`);
        assert.deepEqual(await files.rootOf(t.db, await plugin()), first, 'the next use finds it unpacked');
      }
    });

    test('the kept package travels with `hearth db export | import`, and unpacks from the new database', async () => {
      const dump = JSON.parse(JSON.stringify(await store.exportDatabase(t.db)));
      const target = await engine.open();
      try {
        await store.importDatabase(target, store.checkDump(dump));
        const moved = (await store.getPlugin(target, 'packed@1.0.0'))!;
        const where = await new PluginFiles(join(work, 'server-moved')).rootOf(target, moved);
        assert.ok('root' in where, JSON.stringify(where));
        assert.deepEqual(readFileSync(join(where.root, 'packed-release', 'repositories', 'ubuntu', 'blob.bin')), big);
      } finally {
        await target.close();
      }
    });

    test('a server\'s leftovers (a crash mid-unpacking, a plugin uninstalled elsewhere) go at its first use', async () => {
      const dir = join(work, 'server-c');
      mkdirSync(join(dir, 'gone-1.0.0-0123456789abcdef', 'gone'), { recursive: true });
      writeFileSync(join(dir, '.packed-1.0.0-0a1b2c.tar.gz'), 'partial');
      mkdirSync(join(dir, 'hearth-package-old'));
      const twoHoursAgo = new Date(Date.now() - 7_200_000);
      for (const old of ['.packed-1.0.0-0a1b2c.tar.gz', 'hearth-package-old']) utimesSync(join(dir, old), twoHoursAgo, twoHoursAgo);
      // Young ones may be another unpacking's, under way: they stay.
      mkdirSync(join(dir, 'hearth-package-young'));
      const files = new PluginFiles(dir);
      const where = await files.rootOf(t.db, await plugin());
      assert.ok('root' in where);
      assert.deepEqual(readdirSync(dir).map((e) => e.replace(/-[0-9a-f]{16}$/, '')).sort(), ['hearth-package-young', 'packed-1.0.0']);
    });

    test('asked at once through a transaction and outside it: neither waits for the other (one connection), one folder', async () => {
      const files = new PluginFiles(join(work, 'server-f'));
      const record = await plugin();
      const both = Promise.all([files.rootOf(t.db, record), t.db.transaction(async (tx) => files.rootOf(tx, record))]);
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the two waited for each other')), 60_000)));
      try {
        const [outside, inside] = await Promise.race([both, stuck]);
        assert.ok('root' in outside && 'root' in inside);
        assert.equal(outside.root, inside.root);
        assert.equal(readdirSync(files.dir!).length, 1, readdirSync(files.dir!).join(', '));
      } finally {
        clearTimeout(timer);
      }
    });

    test('a damaged stored package, or none stored, is not unpacked: the answer says why', async () => {
      const saved = await t.db.query<{ bytes: Uint8Array }>(`SELECT bytes FROM plugin_package_chunks WHERE plugin_id = 'packed@1.0.0' AND seq = 1`);
      await t.db.query(`UPDATE plugin_package_chunks SET bytes = $1 WHERE plugin_id = 'packed@1.0.0' AND seq = 1`, [Buffer.from('not what was stored')]);
      const damaged = await new PluginFiles(join(work, 'server-d')).rootOf(t.db, await plugin());
      assert.ok('unusable' in damaged);
      assert.match(damaged.unusable, /^the stored package of plugin packed@1\.0\.0 cannot be unpacked: /);
      assert.deepEqual(readdirSync(join(work, 'server-d')), [], 'nothing half-unpacked is left');
      await t.db.query(`UPDATE plugin_package_chunks SET bytes = $1 WHERE plugin_id = 'packed@1.0.0' AND seq = 1`, [Buffer.from(saved[0].bytes)]);
      assert.ok('root' in (await new PluginFiles(join(work, 'server-e')).rootOf(t.db, await plugin())), 'restored, it unpacks again');

      const noFolder = await new PluginFiles(undefined).rootOf(t.db, await plugin());
      assert.ok('unusable' in noFolder && /has no data folder/.test(noFolder.unusable));
    });

    test('uninstall removes the stored package and what this server unpacked; installing again works', async () => {
      const files = new PluginFiles(join(work, 'server-a'));
      const { uninstallPlugin } = await import('../../src/server/domain/plugins.js');
      await uninstallPlugin(t.db, 'packed@1.0.0', files);
      assert.equal(await count('plugin_packages'), 0);
      assert.equal(await count('plugin_package_chunks'), 0);
      assert.deepEqual(readdirSync(files.dir!), []);
      assert.equal((await install(pkg)).status, 201);
      // A plugin whose package was never kept (installed by an older Hearth) says to install it again.
      await t.db.query(`DELETE FROM plugin_packages WHERE plugin_id = 'packed@1.0.0'`);
      const old = await files.rootOf(t.db, await plugin());
      assert.ok('unusable' in old);
      assert.match(old.unusable, /installed from a package before Hearth kept package files; install the package again/);
    });
  });
}
