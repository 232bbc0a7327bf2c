/**
 * Races: clients assigning a role limited to `max: 1` at the same time (one wins), two creates of
 * one environment name (one wins), environments created at once (each as if alone), and two stores
 * migrating one schema at once (each migration once).
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { engines, testDatabaseUrl } from './support/engines.js';
import { appOn, testApp } from './support/app.js';
import { writePlugin } from './support/plugins.js';
import { MIGRATIONS, openStore } from '../../src/store/index.js';

const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

for (const engine of engines()) {
  describe(`races on ${engine.name}`, () => {
    after(() => engine.dispose());

    test('a role limited to max: 1 is granted once however many clients race for it', async () => {
      const t = await testApp(engine);
      try {
        assert.equal((await t.call('POST', '/api/v1/plugins/folders', { path: writePlugin({ name: 'solo', roleMax: 1 }) })).statusCode, 201);
        const release = (await t.call('GET', '/api/v1/releases')).json()[0].id;
        const env = (await t.call('POST', '/api/v1/clusters', { name: 'race', release_id: release, components: [...BASE, 'additional_service:solo'] })).json().id;
        const ids: number[] = (await t.call('POST', '/api/v1/nodes', { simulate: { count: 6 } })).json().ids;
        const answers = await Promise.all(ids.map((id) => t.call('POST', `/api/v1/clusters/${env}/nodes`, { assignments: [{ node_id: id, roles: ['solo-node'] }] })));
        assert.equal(answers.filter((a) => a.statusCode === 200).length, 1);
        for (const a of answers.filter((x) => x.statusCode !== 200)) {
          assert.equal(a.statusCode, 400);
          assert.equal(a.json().details.findings[0].code, 'role/too-many');
        }
        const holders = (await t.call('GET', `/api/v1/clusters/${env}/nodes`)).json().filter((n: { pending_roles: string[] }) => n.pending_roles.includes('solo-node'));
        assert.equal(holders.length, 1);

        // A deployment's progress is visible while it runs, and a second deploy waits for it.
        const slow = await appOn(t.db, { withRelease: false, deploy: { sliceDelayMs: 30, sliceSize: 10 } });
        try {
          await slow.call('POST', `/api/v1/clusters/${env}/nodes`, {
            assignments: [
              { node_id: ids.find((id) => id !== holders[0].id && id !== ids[2] && id !== ids[3])!, roles: ['controller'] },
              { node_id: ids[2], roles: ['compute'] },
              { node_id: ids[3], roles: ['database', 'messaging'] },
            ],
          });
          const more: number[] = (await slow.call('POST', '/api/v1/nodes', { simulate: { count: 3 } })).json().ids;
          const osd = await slow.call('POST', `/api/v1/clusters/${env}/nodes`, { assignments: more.map((id) => ({ node_id: id, roles: ['ceph-osd'] })) });
          assert.equal(osd.statusCode, 200, osd.body);
          const started = await slow.call('POST', `/api/v1/clusters/${env}/deploy`);
          assert.equal(started.statusCode, 202, started.body);
          const again = await slow.call('POST', `/api/v1/clusters/${env}/deploy`);
          assert.equal(again.statusCode, 409);
          assert.equal(again.json().code, 'cluster/deploying');
          let seenPartial = false;
          for (;;) {
            const d = (await slow.call('GET', `/api/v1/clusters/${env}/deployments/${started.json().id}`)).json();
            if (d.status === 'running' && d.done > 0 && d.done < d.total) seenPartial = true;
            if (d.status !== 'running') {
              assert.equal(d.status, 'succeeded', d.message);
              break;
            }
            await new Promise((r) => setTimeout(r, 10));
          }
          assert.ok(seenPartial, 'progress was seen between start and end');
        } finally {
          await slow.app.close();
        }

        const creates = await Promise.all([1, 2, 3].map(() => t.call('POST', '/api/v1/clusters', { name: 'same-name', release_id: release, components: BASE })));
        assert.deepEqual(creates.map((c) => c.statusCode).sort(), [201, 409, 409]);
      } finally {
        await t.close();
      }
    });

    test('environments created at once are each made as if alone: their own answer, settings, plugins and audit entry', async () => {
      const t = await testApp(engine);
      try {
        assert.equal((await t.call('POST', '/api/v1/plugins/folders', { path: writePlugin({ name: 'extra' }) })).statusCode, 201);
        const release = (await t.call('GET', '/api/v1/releases')).json()[0].id;
        const components = (i: number) => (i % 2 ? [...BASE, 'additional_service:extra'] : BASE);
        const alone = [0, 1].map(async (i) => {
          const made = await t.call('POST', '/api/v1/clusters', { name: `alone-${i}`, release_id: release, components: components(i) });
          assert.equal(made.statusCode, 201, made.body);
          return { answer: made.json(), attributes: (await t.call('GET', `/api/v1/clusters/${made.json().id}/attributes`)).json() };
        });
        const single = [await alone[0], await alone[1]];
        // Creations asked together share statements (store.createClusterBatched); 'together-3' is asked twice.
        const names = ['together-0', 'together-1', 'together-2', 'together-3', 'together-3', 'together-4', 'together-5'];
        const answers = await Promise.all(names.map((name) => t.call('POST', '/api/v1/clusters', { name, release_id: release, components: components(Number(name.split('-')[1])) })));
        assert.deepEqual(answers.map((a) => a.statusCode).sort(), [201, 201, 201, 201, 201, 201, 409]);
        const refused = answers.find((a) => a.statusCode === 409)!;
        assert.equal(refused.json().code, 'cluster/name-taken');
        const made = answers.filter((a) => a.statusCode === 201).map((a) => a.json());
        assert.equal(new Set(made.map((m) => m.id)).size, 6);
        for (const m of made) {
          const i = Number(m.name.split('-')[1]);
          const like = single[i % 2]!;
          const strip = ({ id, name, created_at, ...rest }: Record<string, unknown>) => (void id, void name, void created_at, rest);
          assert.deepEqual(strip(m), strip(like.answer), `${m.name} is answered as one made alone`);
          assert.deepEqual((await t.call('GET', `/api/v1/clusters/${m.id}/attributes`)).json(), like.attributes, `${m.name} has the settings and plugins of one made alone`);
        }
        // Each entry is written with its environment, naming it: in the database as soon as the answer, without a flush.
        const entries = await t.db.query<{ object_id: string }>(`SELECT object_id FROM audit_log WHERE route = '/api/v1/clusters' AND method = 'POST' AND outcome = 'done' AND object_kind = 'environment' ORDER BY id`);
        assert.deepEqual(entries.map((e) => Number(e.object_id)).sort((a, b) => a - b), [...single.map((s) => s.answer.id), ...made.map((m) => m.id)].sort((a, b) => a - b));

        // An entry the database refuses leaves every environment of its statement unmade.
        await t.db.query(`ALTER TABLE audit_log ADD CONSTRAINT test_no_creations CHECK (route <> '/api/v1/clusters' OR outcome <> 'done') NOT VALID`);
        try {
          const failed = await Promise.all(['unrecorded-0', 'unrecorded-1', 'unrecorded-2'].map((name) => t.call('POST', '/api/v1/clusters', { name, release_id: release, components: BASE })));
          assert.deepEqual(failed.map((f) => f.statusCode), [500, 500, 500]);
        } finally {
          await t.db.query('ALTER TABLE audit_log DROP CONSTRAINT test_no_creations');
        }
        const listed = (await t.call('GET', '/api/v1/clusters')).json() as Array<{ name: string }>;
        assert.deepEqual(listed.filter((c) => c.name.startsWith('unrecorded')), []);
      } finally {
        await t.close();
      }
    });
  });
}

describe('migrations', () => {
  test('two stores migrating one PostgreSQL schema at once apply each migration once', { skip: testDatabaseUrl ? false : 'HEARTH_TEST_DATABASE_URL not set' }, async () => {
    const schema = `hearth_m_${randomBytes(5).toString('hex')}`;
    const [a, b] = await Promise.all([openStore({ databaseUrl: testDatabaseUrl!, schema }), openStore({ databaseUrl: testDatabaseUrl!, schema })]);
    try {
      const rows = await a.query<{ version: number }>('SELECT version FROM hearth_migrations ORDER BY version');
      assert.deepEqual(rows.map((r) => r.version), MIGRATIONS.map((m) => m.version));
    } finally {
      await a.exec(`DROP SCHEMA "${schema}" CASCADE`);
      await a.close();
      await b.close();
    }
  });
});
