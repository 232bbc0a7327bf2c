/**
 * PGlite in its own thread (store/pglite-thread.ts), as `hearth serve` runs it: PostgreSQL's error
 * fields cross the thread (a duplicate is a conflict the API answers with 409), a transaction that
 * throws leaves nothing, one that commits is seen by the next query, queries wait for an open
 * transaction, a closed database refuses work in words, and settling once ready (collecting the
 * start-up's garbage) changes no answer.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { StoreConflict, conflictFrom, openStore } from '../../src/store/index.js';

test('PGlite in a thread: errors keep their fields, transactions commit or leave nothing, order holds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-thread-'));
  const db = await openStore({ dataDir: join(dir, 'data'), thread: true });
  try {
    assert.equal(db.engine, 'pglite');
    await db.exec('CREATE TABLE t (name text PRIMARY KEY, n integer NOT NULL)');
    await db.query('INSERT INTO t VALUES ($1, $2)', ['a', 1]);
    const duplicate = await db.query('INSERT INTO t VALUES ($1, $2)', ['a', 2]).then(
      () => undefined,
      (err: unknown) => err,
    );
    // The store words a duplicate from its SQLSTATE (23505) and constraint, which crossed the thread.
    assert.ok(duplicate instanceof StoreConflict, `a conflict (409), not a bug: ${String(duplicate)}`);
    assert.match(duplicate.message, /already|exists|duplicate|same/i);

    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES ($1, $2)', ['b', 2]);
        throw new Error('changed my mind');
      }),
      /changed my mind/,
    );
    assert.deepEqual(await db.query('SELECT name FROM t ORDER BY name'), [{ name: 'a' }], 'a transaction that threw leaves nothing');

    // A query sent while a transaction is open runs after it ends, and sees what it committed.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = db.transaction(async (q) => {
      await q.query('UPDATE t SET n = 10 WHERE name = $1', ['a']);
      await held;
      return 'done';
    });
    await new Promise((r) => setTimeout(r, 50));
    const read = db.query<{ n: number }>('SELECT n FROM t WHERE name = $1', ['a']);
    release();
    assert.equal(await tx, 'done');
    assert.deepEqual(await read, [{ n: 10 }]);

    // A failing statement inside a transaction rolls the whole of it back.
    await assert.rejects(
      db.transaction(async (q) => {
        await q.query('UPDATE t SET n = 20 WHERE name = $1', ['a']);
        await q.query('INSERT INTO t VALUES ($1, $2)', ['a', 3]);
      }),
      (err: unknown) => conflictFrom(err) !== undefined,
    );
    assert.deepEqual(await db.query('SELECT n FROM t'), [{ n: 10 }]);
  } finally {
    await db.close();
  }
  await assert.rejects(db.query('SELECT 1'), /embedded database stopped/, 'a closed database says so');
  // The folder's lock was given back: it opens again.
  const again = await openStore({ dataDir: join(dir, 'data'), thread: true });
  assert.deepEqual(await again.query('SELECT n FROM t'), [{ n: 10 }], 'what was committed is kept');
  await again.close();
  rmSync(dir, { recursive: true, force: true });
});

test('PGlite in a thread: an 8MB page cache and shared memory for one session (an idle server 130 MB lighter), HEARTH_PGLITE_SHARED_BUFFERS sets another cache, a bad one is refused by name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-thread-buffers-'));
  const before = process.env.HEARTH_PGLITE_SHARED_BUFFERS;
  try {
    const db = await openStore({ dataDir: join(dir, 'data'), thread: true });
    try {
      assert.deepEqual(await db.query('SHOW shared_buffers'), [{ shared_buffers: '8MB' }]);
      assert.deepEqual(await db.query('SHOW max_connections'), [{ max_connections: '4' }]);
    } finally {
      await db.close();
    }
    process.env.HEARTH_PGLITE_SHARED_BUFFERS = '32MB';
    const bigger = await openStore({ dataDir: join(dir, 'data'), thread: true });
    try {
      assert.deepEqual(await bigger.query('SHOW shared_buffers'), [{ shared_buffers: '32MB' }]);
    } finally {
      await bigger.close();
    }
    process.env.HEARTH_PGLITE_SHARED_BUFFERS = 'lots';
    await assert.rejects(openStore({ dataDir: join(dir, 'data'), thread: true }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'store/open-failed');
      assert.match(err.message, /HEARTH_PGLITE_SHARED_BUFFERS is 'lots', not a size such as 16MB/);
      return true;
    });
  } finally {
    if (before === undefined) delete process.env.HEARTH_PGLITE_SHARED_BUFFERS;
    else process.env.HEARTH_PGLITE_SHARED_BUFFERS = before;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('PGlite in a thread: settling (the garbage collected once the server is ready) keeps an open transaction, what it commits and every later answer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-thread-settle-'));
  const db = await openStore({ dataDir: join(dir, 'data'), thread: true });
  try {
    assert.ok(db.settle, 'the threaded database can give start-up memory back');
    await db.exec('CREATE TABLE t (name text PRIMARY KEY)');
    // Settled while a transaction is open and the thread holds its rows: nothing is lost or doubled.
    const settled = await db.transaction(async (q) => {
      await q.query('INSERT INTO t VALUES ($1)', ['before']);
      await db.settle!();
      await q.query('INSERT INTO t VALUES ($1)', ['after']);
      return 'committed';
    });
    assert.equal(settled, 'committed');
    await db.settle!();
    assert.deepEqual(await db.query('SELECT name FROM t ORDER BY name'), [{ name: 'after' }, { name: 'before' }]);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  await db.settle!();
});
