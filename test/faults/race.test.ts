/**
 * Two Hearth servers on one PostgreSQL, clients racing to give a role limited to `max: 1` to
 * different nodes through both at once: never more than one assignment may be accepted, and the
 * database must end with at most one node holding the role. Needs HEARTH_TEST_DATABASE_URL (CI
 * sets it); each run creates a database of its own and drops it after.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePlugin } from '../server/support/plugins.js';
import { freshDatabase, serve, type Api } from './support.js';

const url = process.env.HEARTH_TEST_DATABASE_URL;
const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));
const skip = !built ? 'dist/ is not built' : url ? false : 'HEARTH_TEST_DATABASE_URL not set (CI sets it)';
const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

let drop: (() => Promise<void>) | undefined;
const servers: Api[] = [];
const plugins = mkdtempSync(join(tmpdir(), 'hearth-race-'));

before(async () => {
  if (skip || !url) return;
  // A database of its own, so the two servers share it with nobody else.
  const db = await freshDatabase(url, 'hearth_race');
  drop = db.drop;
  const databaseUrl = db.url;
  // Started one after the other: the second finds the schema migrated and the token stored.
  for (let i = 0; i < 2; i++) servers.push(await serve(mkdtempSync(join(plugins, 'data-')), { DATABASE_URL: databaseUrl }));
});

after(async () => {
  for (const s of servers) await s.server.stop();
  await drop?.();
  rmSync(plugins, { recursive: true, force: true });
});

test('two servers, one PostgreSQL: a role with max 1 is given to one node only, whatever the race', { skip }, async () => {
  const [a, b] = servers;
  const installed = await a.call('POST', '/api/v1/plugins/folders', { path: writePlugin({ name: 'solo', role: 'solo-node', roleMax: 1 }, plugins) });
  assert.equal(installed.status, 201, installed.text);
  const release = ((await b.call('GET', '/api/v1/releases')).json as Array<{ id: string }>)[0].id;
  const cluster = await b.call('POST', '/api/v1/clusters', { name: 'race', release_id: release, components: [...BASE, 'additional_service:solo'] });
  assert.equal(cluster.status, 201, cluster.text);
  const clusterId = (cluster.json as { id: number }).id;

  for (let round = 0; round < 5; round++) {
    const ids = ((await a.call('POST', '/api/v1/nodes', { simulate: { count: 16, prefix: `r${round}-` } })).json as { ids: number[] }).ids;
    const results = await Promise.all(ids.map((id, i) => (i % 2 ? a : b).call('POST', `/api/v1/clusters/${clusterId}/nodes`, { assignments: [{ node_id: id, roles: ['solo-node'] }] })));
    const accepted = results.filter((r) => r.status === 200).length;
    for (const r of results) assert.ok(r.status === 200 || (r.status >= 400 && r.status < 500), `no 5xx in the race: ${r.status} ${r.text}`);
    const holders = ((await a.call('GET', `/api/v1/clusters/${clusterId}/nodes`)).json as Array<{ pending_roles?: string[]; roles?: string[] }>).filter((n) => [...(n.pending_roles ?? []), ...(n.roles ?? [])].includes('solo-node'));
    assert.ok(holders.length <= 1, `round ${round}: ${holders.length} nodes hold a role limited to one`);
    assert.ok(accepted <= (round === 0 ? 1 : 0), `round ${round}: ${accepted} assignments were accepted`);
    if (round === 0) assert.equal(accepted, 1, 'the first round gives the role to exactly one node');
  }
});
