/**
 * A first start restores the empty database made at build time (scripts/pgdata-template.mjs)
 * rather than creating one: two new data folders then hold the same cluster (PostgreSQL's system
 * identifier, which initdb draws anew each time), and each is a working, migrated database of its own.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore } from '../../src/store/index.js';

const template = join(import.meta.dirname, '..', '..', 'dist', 'pgdata-template', 'pgdata.tar.gz');

test('new data folders are restored from the build-time template, each a database of its own', { skip: existsSync(template) ? false : 'dist/pgdata-template is not built (npm run build)' }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-template-'));
  try {
    const ids: string[] = [];
    for (const name of ['a', 'b']) {
      const db = await openStore({ dataDir: join(root, name), thread: true });
      try {
        ids.push((await db.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()'))[0].id);
        await db.query(`INSERT INTO hearth_meta (key, value) VALUES ('mine', to_jsonb($1::text))`, [name]);
      } finally {
        await db.close();
      }
    }
    assert.equal(ids[0], ids[1], 'both folders come from one template (initdb would give each its own identifier)');
    // Reopened, each folder holds only what was written into it.
    for (const name of ['a', 'b']) {
      const db = await openStore({ dataDir: join(root, name), thread: true });
      try {
        const rows = await db.query<{ value: string }>(`SELECT value FROM hearth_meta WHERE key = 'mine'`);
        assert.deepEqual(rows.map((r) => r.value), [name]);
      } finally {
        await db.close();
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a restore that an earlier start left half-done is started over, and the folder is the owner\'s alone', { skip: existsSync(template) ? false : 'dist/pgdata-template is not built (npm run build)' }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-template-'));
  try {
    // What a start killed while it unpacked the template leaves: the files beside the data folder.
    mkdirSync(join(root, 'pgdata.part', 'base'), { recursive: true });
    writeFileSync(join(root, 'pgdata.part', 'base', 'stray'), 'half a file');
    const db = await openStore({ dataDir: root, thread: true });
    try {
      assert.deepEqual(await db.query(`SELECT 1 AS one`), [{ one: 1 }]);
    } finally {
      await db.close();
    }
    assert.equal(existsSync(join(root, 'pgdata.part')), false);
    assert.equal(existsSync(join(root, 'pgdata', 'base', 'stray')), false);
    const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? [join(dir, e.name), ...walk(join(dir, e.name))] : [join(dir, e.name)]));
    const open = walk(join(root, 'pgdata')).filter((p) => (statSync(p).mode & 0o077) !== 0);
    assert.deepEqual(open, [], 'no file or folder of the database is readable by others');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
