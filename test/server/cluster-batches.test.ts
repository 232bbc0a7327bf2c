/**
 * Creations of environments share statements (store.createClusterBatched, group commit): what
 * must hold whatever shares a statement with what. Store-level tests put creations in one batch
 * for certain (asked in one tick, before the first drain starts); API-level tests send bursts
 * and check only outcomes, which no interleaving may change: every creation answered 201 is in
 * the database with its own audit entry and actor, one name is won once and the others get the
 * 409 a lone request gets, and a creation the database refuses fails alone. On PGlite and, when
 * HEARTH_TEST_DATABASE_URL is set, on PostgreSQL, with two servers sharing one schema.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { engines, testDatabaseUrl } from './support/engines.js';
import { testApp, type TestApp } from './support/app.js';
import { openStore, type Database } from '../../src/store/index.js';
import { createClusterBatched, type NewCluster } from '../../src/store/clusters.js';
import { AUDIT_COLUMNS, type AuditEntry } from '../../src/store/audit.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { conflictFrom } from '../../src/store/conflicts.js';

const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

/** An audit entry as the route writes it with its creation: the object's id is the new environment's. */
const entryBy = (actor: string): AuditEntry => ({ at: new Date(), actor, via: 'token', address: '10.0.0.1', method: 'POST', route: '/api/v1/clusters', object: { kind: 'environment' }, status: 201, outcome: 'done' });

const creation = (name: string, releaseId: string, actor = `actor-of-${name}`): NewCluster => ({ name, releaseId, components: BASE, attributes: { tree: name }, plugins: {}, audit: entryBy(actor) });

async function releaseOf(db: Database): Promise<string> {
  await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r-1', 'r', '1', 'ubuntu', '{}'::jsonb) ON CONFLICT DO NOTHING`);
  const [row] = await db.query<{ id: string }>('SELECT id FROM releases ORDER BY id LIMIT 1');
  assert.ok(row, 'a release to create environments with');
  return row.id;
}

/** name → [id, actor of its audit entry] for every environment made, and the entries naming none. */
async function madeWithEntries(db: Database) {
  const rows = await db.query<{ id: number; name: string; actor: string | null; entries: string }>(
    `SELECT c.id, c.name, min(a.actor) AS actor, count(a.id)::text AS entries FROM clusters c LEFT JOIN audit_log a ON a.object_kind = 'environment' AND a.object_id = c.id::text AND a.method = 'POST' AND a.outcome = 'done' GROUP BY c.id, c.name ORDER BY c.id`,
  );
  return rows;
}

/** Settles a list of creations: the environment's id, 'taken' (undefined) or the error's code. */
const outcomes = async (asked: Array<Promise<unknown>>) =>
  (await Promise.allSettled(asked)).map((a) => (a.status === 'rejected' ? `error ${(conflictFrom(a.reason)?.code ?? (a.reason as { code?: string }).code ?? String(a.reason))}` : a.value === undefined ? 'taken' : (a.value as { id: number }).id));

for (const engine of engines()) {
  describe(`creations of environments sharing statements (${engine.name})`, () => {
  after(() => engine.dispose());

  describe('in the store', () => {

    async function withDb(work: (db: Database, release: string) => Promise<void>) {
      const db = await engine.open();
      try {
        await work(db, await releaseOf(db));
      } finally {
        await db.close();
      }
    }

    test('creations asked in one tick are each made, ids in the order asked, each with its own audit entry and actor', () =>
      withDb(async (db, release) => {
        const names = Array.from({ length: 30 }, (_, i) => `env-${i}`);
        const ids = await outcomes(names.map((n) => createClusterBatched(db, creation(n, release))));
        assert.ok(ids.every((id) => typeof id === 'number'), String(ids));
        assert.deepEqual([...ids].sort((a, b) => Number(a) - Number(b)), ids, 'ids ascend in the order asked');
        const rows = await madeWithEntries(db);
        assert.deepEqual(
          rows.map((r) => [r.id, r.name, r.actor, r.entries]),
          names.map((n, i) => [ids[i], n, `actor-of-${n}`, '1']),
        );
        const trees = await db.query<{ name: string; attributes: unknown }>('SELECT name, attributes FROM clusters ORDER BY id');
        assert.deepEqual(trees.map((t) => t.attributes), names.map((n) => ({ tree: n })), 'each keeps its own settings');
      }));

    test('one name asked several times in one tick and across batches is made once; the others are told it is taken', () =>
      withDb(async (db, release) => {
        const asked = ['dup', 'other', 'dup', 'dup', 'third', 'other'].map((n, i) => createClusterBatched(db, creation(n, release, `asker-${i}`)));
        const got = await outcomes(asked);
        assert.deepEqual(got.map((g) => (typeof g === 'number' ? 'made' : g)), ['made', 'made', 'taken', 'taken', 'made', 'taken']);
        const rows = await madeWithEntries(db);
        assert.deepEqual(rows.map((r) => [r.name, r.actor, r.entries]), [['dup', 'asker-0', '1'], ['other', 'asker-1', '1'], ['third', 'asker-4', '1']]);
        assert.deepEqual(await outcomes([createClusterBatched(db, creation('dup', release))]), ['taken'], 'a later batch finds it taken too');
        const [{ n }] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM audit_log`);
        assert.equal(n, '3', 'a creation left out writes no entry of its own');
      }));

    test('a creation the database refuses fails alone: the others of its statement are made, with their entries', () =>
      withDb(async (db, release) => {
        // A release that does not exist breaks the foreign key: the statement holding it is refused.
        const asked = [creation('good-0', release), creation('bad', 'no-such-release'), creation('good-1', release), creation('good-2', release)].map((c) => createClusterBatched(db, c));
        const got = await outcomes(asked);
        assert.deepEqual(got.map((g) => (typeof g === 'number' ? 'made' : g)), ['made', 'error release/gone', 'made', 'made']);
        const rows = await madeWithEntries(db);
        assert.deepEqual(rows.map((r) => [r.name, r.actor, r.entries]), [['good-0', 'actor-of-good-0', '1'], ['good-1', 'actor-of-good-1', '1'], ['good-2', 'actor-of-good-2', '1']]);
        // And the next creation is written: nothing waits on the failed batch.
        assert.equal(typeof (await outcomes([createClusterBatched(db, creation('after', release))]))[0], 'number');
      }));

    test('a statement that fails for another reason (the database gone) answers every creation of it with the error', () =>
      withDb(async (db, release) => {
        let statements = 0;
        const gone = {
          ...db,
          query: async () => {
            statements++;
            throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
          },
        } as unknown as Database;
        const got = await outcomes(['a', 'b', 'c'].map((n) => createClusterBatched(gone, creation(n, release))));
        assert.deepEqual(got, ['error ECONNRESET', 'error ECONNRESET', 'error ECONNRESET']);
        assert.equal(statements, 1, 'not written again one by one: the statement may have been committed');
      }));
  });

  describe('POST /clusters in bursts', () => {

    const withApp = async (work: (t: TestApp, release: string) => Promise<void>) => {
      const t = await testApp(engine);
      try {
        await work(t, (await t.call('GET', '/api/v1/releases')).json()[0].id as string);
      } finally {
        await t.close();
      }
    };

    test('many creations at once, by two users: every one answered 201 is committed with one entry naming its own actor', () =>
      withApp(async (t, release) => {
        assert.equal((await t.call('POST', '/api/v1/users', { name: 'alice', role: 'operator', password: 'alice secret password' })).statusCode, 201);
        const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/session', payload: { name: 'alice', password: 'alice secret password' } });
        assert.equal(signIn.statusCode, 200, signIn.body);
        const alice = { cookie: String(signIn.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': signIn.json().csrf_token as string };
        const names = Array.from({ length: 40 }, (_, i) => `burst-${i}`);
        const answers = await Promise.all(
          names.map((name, i) =>
            i % 2 ? t.app.inject({ method: 'POST', url: '/api/v1/clusters', headers: alice, payload: { name, release_id: release, components: BASE } }) : t.call('POST', '/api/v1/clusters', { name, release_id: release, components: BASE }),
          ),
        );
        for (const a of answers) assert.equal(a.statusCode, 201, a.body);
        const made = answers.map((a) => a.json() as { id: number; name: string });
        assert.deepEqual(made.map((m) => m.name), names, 'each answer is its own creation');
        // Read straight from the database, no flush: an answer 201 means its creation and entry are committed.
        const rows = await madeWithEntries(t.db);
        assert.deepEqual(
          rows.map((r) => [r.id, r.name, r.entries, r.actor]).sort((a, b) => Number(a[0]) - Number(b[0])),
          made.map((m, i) => [m.id, m.name, '1', i % 2 ? 'alice' : 'admin-token']).sort((a, b) => Number(a[0]) - Number(b[0])),
        );
        const listed = (await t.call('GET', '/api/v1/clusters')).json() as Array<{ id: number }>;
        assert.deepEqual(listed.map((c) => c.id).sort((a, b) => a - b), made.map((m) => m.id).sort((a, b) => a - b));
      }));

    test('one name asked many times at once is made once; every other asker gets the 409 a lone request gets', () =>
      withApp(async (t, release) => {
        const answers = await Promise.all(Array.from({ length: 12 }, () => t.call('POST', '/api/v1/clusters', { name: 'contested', release_id: release, components: BASE })));
        assert.equal(answers.filter((a) => a.statusCode === 201).length, 1);
        const lone = await t.call('POST', '/api/v1/clusters', { name: 'contested', release_id: release, components: BASE });
        assert.equal(lone.statusCode, 409);
        for (const a of answers.filter((x) => x.statusCode !== 201)) {
          assert.equal(a.statusCode, 409, a.body);
          assert.deepEqual(a.json(), lone.json());
        }
        const rows = await madeWithEntries(t.db);
        assert.deepEqual(rows.map((r) => [r.name, r.entries]), [['contested', '1']]);
        await t.app.audit.flush();
        const refusals = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM audit_log WHERE route = '/api/v1/clusters' AND status = 409 AND code = 'cluster/name-taken'`);
        assert.equal(refusals[0]!.n, '12', 'every refusal recorded, the lone one included');
      }));

    test('a burst mixing valid and invalid creations: the valid are made with their entries, each invalid is answered as when asked alone', () =>
      withApp(async (t, release) => {
        assert.equal((await t.call('POST', '/api/v1/clusters', { name: 'exists', release_id: release, components: BASE })).statusCode, 201);
        // A name the database refuses (a CHECK), so its statement fails there, after every check of the route.
        await t.db.query(`ALTER TABLE clusters ADD CONSTRAINT test_no_poison CHECK (name <> 'poison') NOT VALID`);
        const invalid = [
          { name: 'exists', release_id: release, components: BASE },
          { name: 'unknown-release', release_id: 'no-such-release', components: BASE },
          { name: 'bad-component', release_id: release, components: [...BASE, 'no:such:component'] },
          { name: 42, release_id: release },
          { name: 'poison', release_id: release, components: BASE },
        ];
        const alone: Array<{ status: number; code: string }> = [];
        for (const body of invalid) {
          const a = await t.call('POST', '/api/v1/clusters', body);
          alone.push({ status: a.statusCode, code: a.json().code as string });
        }
        assert.ok(alone.every((a) => a.status >= 400), JSON.stringify(alone));
        assert.equal(alone[4]!.status, 500, 'the database refused the poisoned name');
        const valid = Array.from({ length: 10 }, (_, i) => ({ name: `mixed-${i}`, release_id: release, components: BASE }));
        // Interleaved, so that whatever shares a statement, valid and invalid are side by side.
        const burst = valid.flatMap((v, i) => (i < invalid.length ? [v, invalid[i]!, invalid[i]!] : [v]));
        const answers = await Promise.all(burst.map((body) => t.call('POST', '/api/v1/clusters', body)));
        answers.forEach((a, i) => {
          const body = burst[i]!;
          const k = invalid.indexOf(body as (typeof invalid)[number]);
          if (k < 0) assert.equal(a.statusCode, 201, a.body);
          else assert.deepEqual({ status: a.statusCode, code: a.json().code }, alone[k], `${JSON.stringify(body)}: ${a.body}`);
        });
        const rows = await madeWithEntries(t.db);
        // Concurrent requests reach the database in no set order: compared by name.
        const byName = (a: string[], b: string[]) => a[0]!.localeCompare(b[0]!);
        assert.deepEqual(rows.map((r) => [r.name, r.entries]).sort(byName), [['exists', '1'], ...valid.map((v) => [v.name, '1'])].sort(byName));
      }));
  });
  });
}

describe('two servers on one PostgreSQL creating the same names at once', { skip: testDatabaseUrl ? false : 'HEARTH_TEST_DATABASE_URL not set' }, () => {
  test("each name is made once, whichever server's statement wins, the other's told it is taken (its statement waits for the first and is not refused: no deadlock, no retry), with one entry", async () => {
    const schema = `hearth_b_${randomBytes(5).toString('hex')}`;
    const a = await openStore({ databaseUrl: testDatabaseUrl!, schema });
    const b = await openStore({ databaseUrl: testDatabaseUrl!, schema });
    // A batch's statement the database refused (a deadlock with the other server's, a duplicate key
    // it committed meanwhile) is told here: its creations were then written again one by one.
    const refused: string[] = [];
    for (const db of [a, b]) {
      const query = db.query.bind(db);
      db.query = <T,>(sql: string, params?: readonly unknown[]) =>
        query<T>(sql, params).catch((err: unknown) => {
          refused.push(String(conflictFrom(err)?.code ?? (err as { code?: string }).code ?? err));
          throw err;
        });
    }
    try {
      const release = await releaseOf(a);
      for (let round = 0; round < 5; round++) {
        const names = Array.from({ length: 8 }, (_, i) => `r${round}-${i}`);
        // Crossed orders: each server's batch takes the names' index entries in the other order.
        const fromA = names.map((n) => createClusterBatched(a, creation(n, release, `a:${n}`)));
        const fromB = [...names].reverse().map((n) => createClusterBatched(b, creation(n, release, `b:${n}`)));
        const got = [...(await outcomes(fromA)), ...(await outcomes(fromB))];
        for (const g of got) assert.ok(typeof g === 'number' || g === 'taken', String(g));
        assert.equal(got.filter((g) => typeof g === 'number').length, names.length, `round ${round}: ${got.join(' ')}`);
        assert.deepEqual(refused, [], `round ${round}: no statement refused, none written again one by one`);
      }
      const rows = await madeWithEntries(a);
      assert.equal(rows.length, 40);
      for (const r of rows) {
        assert.equal(r.entries, '1', r.name);
        assert.ok(r.actor === `a:${r.name}` || r.actor === `b:${r.name}`, `${r.name}'s entry names its own asker: ${r.actor}`);
      }
    } finally {
      await a.exec(`DROP SCHEMA "${schema}" CASCADE`);
      await a.close();
      await b.close();
    }
  });
});

// The function that writes a batch of creations (migration 16) spells out the audit entry's
// columns, as store/audit.ts writes them for every other entry: a column added there and not
// here would be left empty for every environment made, without any error.
test('the creation function writes every column of an audit entry that audit.ts writes', () => {
  const definitions = MIGRATIONS.filter((m) => m.sql.includes('FUNCTION hearth_create_clusters'));
  assert.ok(definitions.length > 0, 'a migration defines hearth_create_clusters');
  const latest = definitions.at(-1)!.sql;
  assert.ok(latest.includes(`jsonb_to_record(x.audit) AS e(${AUDIT_COLUMNS})`), `migration ${definitions.at(-1)!.version} reads the entry with AUDIT_COLUMNS (${AUDIT_COLUMNS})`);
  const names = AUDIT_COLUMNS.split(',').map((c) => c.trim().split(' ')[0]);
  assert.ok(latest.includes(`INSERT INTO audit_log (${names.join(', ')})`), 'and inserts each of them');
});
