/**
 * A first start restores the database made at build time (scripts/pgdata-template.mjs: Hearth's
 * migrations applied, nothing else) rather than creating one: two new data folders then hold the
 * same cluster (PostgreSQL's system identifier, which initdb draws anew each time), already
 * migrated, and each is a working database of its own. The template is used only when the
 * migrations it holds are this Hearth's own (template-stamp.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openStore } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { schemaStamp, templateFits } from '../../src/store/template-stamp.js';

const template = join(import.meta.dirname, '..', '..', 'dist', 'pgdata-template', 'pgdata.tar.gz');

test('new data folders are restored from the build-time template, each a database of its own', { skip: existsSync(template) ? false : 'dist/pgdata-template is not built (npm run build)' }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-template-'));
  try {
    const ids: string[] = [];
    const started = Date.now();
    for (const name of ['a', 'b']) {
      const db = await openStore({ dataDir: join(root, name), thread: true });
      try {
        ids.push((await db.query<{ id: string }>('SELECT system_identifier::text AS id FROM pg_control_system()'))[0].id);
        // Every migration came with the template, applied when it was built, none at this start.
        const applied = await db.query<{ version: number; at: number }>('SELECT version, (extract(epoch FROM applied_at) * 1000)::float8 AS at FROM hearth_migrations ORDER BY version');
        assert.deepEqual(applied.map((m) => m.version), MIGRATIONS.map((m) => m.version).sort((x, y) => x - y));
        assert.ok(applied.every((m) => m.at < started), 'the migrations were applied at build time, not by this start');
        // Nothing else came with it: no release, no admin token, no SSH key, no user.
        assert.deepEqual(await db.query('SELECT key FROM hearth_meta'), []);
        assert.deepEqual(await db.query('SELECT id FROM plugins'), []);
        assert.deepEqual(await db.query('SELECT name FROM users'), []);
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

test('a template is used only when each migration it holds is this Hearth\'s own, the same SQL', () => {
  const code = schemaStamp(MIGRATIONS);
  assert.equal(templateFits(code, code), true, 'made from these migrations');
  assert.equal(templateFits(code.slice(0, 3), code), true, 'made before the later migrations: they are applied at start');
  assert.equal(templateFits(undefined, code), true, 'an empty database (a template from before) fits any code');
  const changed = code.map(([v, d], i): [number, string] => [v, i === 2 ? d.replace(/^./, (c) => (c === '0' ? '1' : '0')) : d]);
  assert.equal(templateFits(changed, code), false, 'a migration whose SQL changed since the template was made');
  assert.equal(templateFits([...code, [code.length + 1000, 'ff']], code), false, 'a migration this Hearth does not know');
  assert.equal(templateFits('1-17', code), false);
  assert.equal(templateFits([[1]], code), false);
  // The digest is the SQL's: one character changes it.
  const [first] = MIGRATIONS;
  assert.notEqual(schemaStamp([{ ...first, sql: `${first.sql} ` }])[0][1], schemaStamp([first])[0][1]);
});
