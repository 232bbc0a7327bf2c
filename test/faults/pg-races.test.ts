/**
 * Races on PostgreSQL (issue 20, items 3 and 4): two Hearth servers on one database, requests fired
 * at the same instant through both. The loser of a race is told so with 409 and a message, never
 * 200 for a change that did not hold and never 500: one node in one environment only, no
 * assignment of a deleted node, one copy of a plugin installed twice, no environment naming a
 * plugin uninstalled under it, no two environments with one name. Needs HEARTH_TEST_DATABASE_URL.
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
const ROUNDS = 10;

let drop: (() => Promise<void>) | undefined;
const servers: Api[] = [];
const folders = mkdtempSync(join(tmpdir(), 'hearth-pg-races-'));
let release = '';

before(async () => {
  if (skip || !url) return;
  const db = await freshDatabase(url, 'hearth_pg_races');
  drop = db.drop;
  for (let i = 0; i < 2; i++) servers.push(await serve(mkdtempSync(join(folders, 'data-')), { DATABASE_URL: db.url }));
  release = ((await servers[0].call('GET', '/api/v1/releases')).json as Array<{ id: string }>)[0].id;
});

after(async () => {
  for (const s of servers) await s.server.stop();
  await drop?.();
  rmSync(folders, { recursive: true, force: true });
});

type Answer = Awaited<ReturnType<Api['call']>>;
const noServerError = (answers: Answer[]) => {
  for (const r of answers) assert.ok(r.status < 500, `no 5xx in a race: ${r.status} ${r.text}`);
};
/** A 409 in the one error shape, with a message and a hint. */
const isConflict = (r: Answer) => r.status === 409 && typeof (r.json as { code?: unknown }).code === 'string' && typeof (r.json as { message?: unknown }).message === 'string';

async function environment(api: Api, name: string, components = BASE): Promise<number> {
  const created = await api.call('POST', '/api/v1/clusters', { name, release_id: release, components });
  assert.equal(created.status, 201, created.text);
  return (created.json as { id: number }).id;
}

test('one node given to two environments through two servers at once: one 200, one 409, the node in one environment', { skip }, async () => {
  const [a, b] = servers;
  const envA = await environment(a, 'left');
  const envB = await environment(b, 'right');
  for (let round = 0; round < ROUNDS; round++) {
    const [node] = ((await a.call('POST', '/api/v1/nodes', { simulate: { count: 1, prefix: `both${round}` } })).json as { ids: number[] }).ids;
    const answers = await Promise.all([
      a.call('POST', `/api/v1/clusters/${envA}/nodes`, { assignments: [{ node_id: node, roles: ['compute'] }] }),
      b.call('POST', `/api/v1/clusters/${envB}/nodes`, { assignments: [{ node_id: node, roles: ['compute'] }] }),
    ]);
    noServerError(answers);
    const won = answers.filter((r) => r.status === 200);
    assert.equal(won.length, 1, `round ${round}: ${answers.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join(' | ')}`);
    assert.ok(answers.some(isConflict), `round ${round}: the loser gets 409: ${answers.map((r) => r.status).join(', ')}`);
    const stored = ((await a.call('GET', '/api/v1/nodes')).json as Array<{ id: number; cluster_id: number | null }>).find((n) => n.id === node);
    assert.equal(stored?.cluster_id, answers[0].status === 200 ? envA : envB, `round ${round}: the node is in the winner's environment`);
  }
});

test('a node assigned while another request deletes it: never 200 for a node that is gone', { skip }, async () => {
  const [a, b] = servers;
  const env = await environment(a, 'assign-delete');
  for (let round = 0; round < ROUNDS; round++) {
    const [node] = ((await a.call('POST', '/api/v1/nodes', { simulate: { count: 1, prefix: `gone${round}` } })).json as { ids: number[] }).ids;
    const [assigned, deleted] = await Promise.all([a.call('POST', `/api/v1/clusters/${env}/nodes`, { assignments: [{ node_id: node, roles: ['compute'] }] }), b.call('DELETE', `/api/v1/nodes/${node}`)]);
    noServerError([assigned, deleted]);
    const stored = ((await a.call('GET', '/api/v1/nodes')).json as Array<{ id: number; cluster_id: number | null }>).find((n) => n.id === node);
    if (assigned.status === 200) {
      assert.ok(isConflict(deleted), `round ${round}: assigned, so the delete is refused: ${deleted.status} ${deleted.text}`);
      assert.equal(stored?.cluster_id, env, `round ${round}: the node answered as assigned exists, in the environment`);
    } else {
      assert.equal(deleted.status, 204, `round ${round}: neither request won: ${assigned.status} ${assigned.text} | ${deleted.status} ${deleted.text}`);
      assert.ok(assigned.status === 404 || isConflict(assigned), `round ${round}: the assignment of a deleted node: ${assigned.status} ${assigned.text}`);
      assert.equal(stored, undefined);
    }
  }
});

test('one plugin installed through two servers at once: one 201, one 409, one copy', { skip }, async () => {
  const [a, b] = servers;
  for (let round = 0; round < ROUNDS; round++) {
    const path = writePlugin({ name: `twice${round}` }, folders);
    const answers = await Promise.all([a.call('POST', '/api/v1/plugins/folders', { path }), b.call('POST', '/api/v1/plugins/folders', { path })]);
    noServerError(answers);
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409], `round ${round}: ${answers.map((r) => `${r.status} ${r.text.slice(0, 160)}`).join(' | ')}`);
    assert.ok(answers.some(isConflict));
    const copies = ((await a.call('GET', '/api/v1/plugins')).json as Array<{ id: string }>).filter((p) => p.id.startsWith(`twice${round}@`));
    assert.equal(copies.length, 1);
  }
});

test("an environment created with a plugin's component while the plugin is uninstalled: one of them wins, never both", { skip }, async () => {
  const [a, b] = servers;
  for (let round = 0; round < ROUNDS; round++) {
    const name = `fleeting${round}`;
    const installed = await a.call('POST', '/api/v1/plugins/folders', { path: writePlugin({ name }, folders) });
    assert.equal(installed.status, 201, installed.text);
    const id = (installed.json as { plugin: { id: string } }).plugin.id;
    const [created, removed] = await Promise.all([
      a.call('POST', '/api/v1/clusters', { name: `with-${name}`, release_id: release, components: [...BASE, `additional_service:${name}`] }),
      b.call('DELETE', `/api/v1/plugins/${encodeURIComponent(id)}`),
    ]);
    noServerError([created, removed]);
    const plugin = await a.call('GET', `/api/v1/plugins/${encodeURIComponent(id)}`);
    const envs = ((await a.call('GET', '/api/v1/clusters')).json as Array<{ name: string }>).filter((c) => c.name === `with-${name}`);
    if (created.status === 201) {
      assert.ok(isConflict(removed), `round ${round}: the environment enables the plugin, so it stays: ${removed.status} ${removed.text}`);
      assert.equal(plugin.status, 200);
      assert.equal(envs.length, 1);
    } else {
      assert.ok(removed.status === 200 || removed.status === 204, `round ${round}: neither won: ${created.status} ${created.text} | ${removed.status} ${removed.text}`);
      assert.ok(created.status === 400 || isConflict(created), `round ${round}: creating with a component of an uninstalled plugin: ${created.status} ${created.text}`);
      assert.equal(plugin.status, 404);
      assert.equal(envs.length, 0);
    }
  }
});

test('two environments renamed to one name at once: one 200, one 409', { skip }, async () => {
  const [a, b] = servers;
  for (let round = 0; round < ROUNDS; round++) {
    const first = await environment(a, `first${round}`);
    const second = await environment(b, `second${round}`);
    const answers = await Promise.all([a.call('PATCH', `/api/v1/clusters/${first}`, { name: `same${round}` }), b.call('PATCH', `/api/v1/clusters/${second}`, { name: `same${round}` })]);
    noServerError(answers);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], `round ${round}: ${answers.map((r) => `${r.status} ${r.text.slice(0, 160)}`).join(' | ')}`);
    const conflict = answers.find(isConflict)!.json as { code: string; message: string };
    assert.equal(conflict.code, 'cluster/name-taken');
    assert.match(conflict.message, new RegExp(`same${round}`));
  }
});

test('two environments created with one name at once: one 201, one 409, one environment', { skip }, async () => {
  const [a, b] = servers;
  for (let round = 0; round < ROUNDS; round++) {
    const name = `twin${round}`;
    const body = { name, release_id: release, components: BASE };
    const answers = await Promise.all([a.call('POST', '/api/v1/clusters', body), b.call('POST', '/api/v1/clusters', body)]);
    noServerError(answers);
    assert.deepEqual(answers.map((r) => r.status).sort(), [201, 409], `round ${round}: ${answers.map((r) => `${r.status} ${r.text.slice(0, 160)}`).join(' | ')}`);
    const conflict = answers.find(isConflict)!.json as { code: string; message: string };
    assert.equal(conflict.code, 'cluster/name-taken');
    assert.match(conflict.message, new RegExp(name));
    const listed = (await a.call('GET', '/api/v1/clusters')).json as Array<{ name: string }>;
    assert.equal(listed.filter((c) => c.name === name).length, 1);
  }
});
