/**
 * An environment's stored addresses replaced by a new plan (replaceAddresses), on both databases:
 * only the difference is written (issue 24's rule: the whole-table comparison made a role
 * assignment cost O(nodes^2)), and what is stored afterwards is exactly the plan.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { openStore } from './open.js';
import { replaceAddresses } from './networks.js';
import type { VipAssignment } from '../core/networks/model.js';

const stored = (db: Awaited<ReturnType<typeof openStore>>, cluster: number) =>
  db.query<{ network: string; ip: string; node_id: number | null; vip: string | null; node_roles: unknown; is_user_defined: boolean }>(
    'SELECT network, ip, node_id, vip, node_roles, is_user_defined FROM network_addresses WHERE cluster_id = $1 ORDER BY network, ip',
    [cluster],
  );

for (const which of ['pglite', 'postgres'] as const) {
  const url = process.env.HEARTH_TEST_DATABASE_URL;
  test(`a new address plan replaces the stored one, row for row (${which})`, { skip: which === 'postgres' && !url ? 'HEARTH_TEST_DATABASE_URL not set' : false }, async () => {
    const schema = `hearth_addresses_${randomBytes(5).toString('hex')}`;
    const db = which === 'pglite' ? await openStore({ inMemory: true }) : await openStore({ databaseUrl: url, schema });
    try {
      await db.query(`INSERT INTO releases (id, name, version, operating_system, body) VALUES ('r', 'r', '1', 'x', '{}'::jsonb)`);
      const cluster = (await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes) VALUES ('c', 'r', '[]', '{}') RETURNING id`))[0].id;
      const [a, b, c] = (await db.query<{ id: number }>(`INSERT INTO nodes (name, hardware) VALUES ('a', '{}'), ('b', '{}'), ('c', '{}') RETURNING id`)).map((r) => r.id);
      const vip = (ip: string, roles: string[], user = false): VipAssignment => ({ name: 'management', network: 'management', network_role: 'mgmt/vip', namespace: 'haproxy', ip, node_roles: roles, ...(user ? { is_user_defined: true } : {}) });
      await replaceAddresses(db, cluster, [{ nodeId: a, network: 'management', ip: '192.168.0.2' }, { nodeId: b, network: 'management', ip: '192.168.0.3' }], [vip('192.168.0.9', ['controller'])]);
      assert.deepEqual((await stored(db, cluster)).map((r) => [r.ip, r.node_id, r.vip, r.node_roles]), [
        ['192.168.0.2', a, null, null],
        ['192.168.0.3', b, null, null],
        ['192.168.0.9', null, 'management', ['controller']],
      ]);
      // b gone, c added, a unchanged, the VIP's roles changed and fixed by hand; a's address moved to another network.
      await replaceAddresses(db, cluster, [{ nodeId: a, network: 'management', ip: '192.168.0.2' }, { nodeId: c, network: 'management', ip: '192.168.0.3' }, { nodeId: a, network: 'storage', ip: '192.168.1.2' }], [vip('192.168.0.9', ['controller', 'primary-controller'], true)]);
      assert.deepEqual((await stored(db, cluster)).map((r) => [r.network, r.ip, r.node_id, r.vip, r.node_roles, r.is_user_defined]), [
        ['management', '192.168.0.2', a, null, null, false],
        ['management', '192.168.0.3', c, null, null, false],
        ['management', '192.168.0.9', null, 'management', ['controller', 'primary-controller'], true],
        ['storage', '192.168.1.2', a, null, null, false],
      ]);
      // The same plan again writes nothing: an unchanged row keeps its place (no delete-and-insert).
      await db.query(`UPDATE network_addresses SET namespace = namespace WHERE cluster_id = $1`, [cluster]);
      const before = await db.query<{ ctid: string }>('SELECT ctid::text AS ctid FROM network_addresses WHERE cluster_id = $1 ORDER BY network, ip', [cluster]);
      await replaceAddresses(db, cluster, [{ nodeId: a, network: 'management', ip: '192.168.0.2' }, { nodeId: c, network: 'management', ip: '192.168.0.3' }, { nodeId: a, network: 'storage', ip: '192.168.1.2' }], [vip('192.168.0.9', ['controller', 'primary-controller'], true)]);
      assert.deepEqual(await db.query<{ ctid: string }>('SELECT ctid::text AS ctid FROM network_addresses WHERE cluster_id = $1 ORDER BY network, ip', [cluster]), before);
      // An empty plan empties the environment's addresses.
      await replaceAddresses(db, cluster, [], []);
      assert.deepEqual(await stored(db, cluster), []);
    } finally {
      if (which === 'postgres') await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await db.close();
    }
  });
}
