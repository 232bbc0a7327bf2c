/**
 * The audit log (issue 29), on a real app over each engine: a change and a refusal are recorded
 * with who asked (a user by session, a personal token, the admin token, nobody), the route's
 * pattern and what it acted on; secrets never appear; GET /audit is for admins, filters and pages;
 * a deployment knows who asked for it and its entry names the run.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { readPluginFolder, storePlugin } from '../../src/server/domain/plugins.js';
import { exportDatabase, importDatabase, type Database } from '../../src/store/index.js';
import { insertRealNode, recordHostKeyAcceptance } from '../../src/store/real-nodes.js';
import { describeNode } from '../../src/cli/client/nodes.js';
import { SshTransport } from '../../src/deploy/ssh.js';
import { engines } from './support/engines.js';
import { TOKEN, bundledRelease } from './support/app.js';

const admin = { authorization: `Bearer ${TOKEN}` };

for (const engine of engines()) {
  describe(`the audit log (${engine.name})`, () => {
    let db: Database;
    let app: FastifyInstance;
    const call = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
      app.inject({ method: method as never, url, headers, remoteAddress: '10.9.8.7', ...(payload === undefined ? {} : { payload: payload as never }) });
    const signIn = async (name: string) => {
      const res = await call('POST', '/api/v1/session', {}, { name, password: `${name} secret password` });
      assert.equal(res.statusCode, 200, res.body);
      return { cookie: String(res.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': res.json().csrf_token as string };
    };
    const audit = async (query = '') => {
      const res = await call('GET', `/api/v1/audit${query}`, admin);
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Array<Record<string, unknown>>;
    };

    before(async () => {
      db = await engine.open();
      await storePlugin(db, readPluginFolder(bundledRelease), { kind: 'bundled', path: bundledRelease });
      // An SSH identity, so a run on a real node starts (the only one here is at a port that refuses).
      const transport = new SshTransport({ keyFile: '/nonexistent/id_ed25519', connectTimeoutS: 5 });
      app = await buildApp({ db, adminToken: TOKEN, deploy: { sliceDelayMs: 0, sliceSize: 100 }, ssh: { keyFile: '/nonexistent/id_ed25519', publicKey: 'ssh-ed25519 AAAA', fingerprint: 'SHA256:none', transport } });
      for (const [name, role] of [['alice', 'operator'], ['bob', 'viewer']]) {
        assert.equal((await call('POST', '/api/v1/users', admin, { name, role, password: `${name} secret password` })).statusCode, 201);
      }
    });
    after(async () => {
      await app?.close();
      await db?.close();
      await engine.dispose();
    });

    test("a user's change names the user, the session, the route as declared and the environment it made", async () => {
      const alice = await signIn('alice');
      const releases = (await call('GET', '/api/v1/releases', admin)).json();
      const made = await call('POST', '/api/v1/clusters', alice, { name: 'audited', release_id: releases[0].id });
      assert.equal(made.statusCode, 201, made.body);
      const renamed = await call('PATCH', `/api/v1/clusters/${made.json().id}`, alice, { name: 'audited-2' });
      assert.equal(renamed.statusCode, 200, renamed.body);
      const [rename, create] = await audit('?actor=alice&object=environment');
      assert.deepEqual(
        { actor: rename.actor, via: rename.via, method: rename.method, route: rename.route, object: rename.object, outcome: rename.outcome, status: rename.status, address: rename.address },
        { actor: 'alice', via: 'session', method: 'PATCH', route: '/api/v1/clusters/:id', object: `environment/${made.json().id}`, outcome: 'done', status: 200, address: '10.9.8.7' },
      );
      assert.equal(create.route, '/api/v1/clusters');
      assert.equal(create.object, `environment/${made.json().id}`, 'a creation names what it made');
      assert.deepEqual((await audit(`?object=environment/${made.json().id}`)).map((e) => e.method), ['PATCH', 'POST']);
    });

    test('refusals are recorded: a role too low (403, with its code) and no credential at all (401, nobody)', async () => {
      const bob = await signIn('bob');
      assert.equal((await call('POST', '/api/v1/clusters', bob, { name: 'nope', release_id: 'x' })).statusCode, 403);
      assert.equal((await call('DELETE', '/api/v1/plugins/some-plugin')).statusCode, 401);
      const [refusal] = await audit('?actor=bob');
      assert.equal(refusal.outcome, 'refused');
      assert.equal(refusal.status, 403);
      assert.equal(refusal.code, 'auth/forbidden');
      const anonymous = (await audit('?object=plugin/some-plugin'))[0];
      assert.equal(anonymous.actor, null);
      assert.equal(anonymous.via, 'none');
      assert.equal(anonymous.status, 401);
    });

    test('the audit log is for admins: a viewer and an operator are refused it', async () => {
      assert.equal((await call('GET', '/api/v1/audit', await signIn('bob'))).statusCode, 403);
      assert.equal((await call('GET', '/api/v1/audit', await signIn('alice'))).statusCode, 403);
      assert.equal((await call('GET', '/api/v1/audit')).statusCode, 401);
    });

    test('a personal token is named, and no password, token or body ever reaches the log', async () => {
      const alice = await signIn('alice');
      const made = await call('POST', '/api/v1/tokens', alice, { name: 'ci', role: 'viewer' });
      assert.equal(made.statusCode, 201, made.body);
      const secret = made.json().token as string;
      assert.equal((await call('POST', '/api/v1/nodes', { authorization: `Bearer ${secret}` }, { simulate: { count: 1 } })).statusCode, 403);
      const [byToken] = await audit('?actor=alice');
      assert.equal(byToken.via, 'token');
      assert.equal(byToken.token_name, 'ci');
      const everything = JSON.stringify(await db.query('SELECT * FROM audit_log'));
      for (const s of [secret, 'secret password', TOKEN, 'audited']) assert.ok(!everything.includes(s), `the log holds '${s}'`);
      assert.ok((await audit('?object=token')).some((e) => e.object === 'token/ci'), 'the token made is named by its name');
    });

    test('pages newest first with limit and marker, and since filters by time', async () => {
      const first = await audit('?limit=2');
      assert.equal(first.length, 2);
      assert.ok((first[0].id as number) > (first[1].id as number));
      const next = await call('GET', `/api/v1/audit?limit=2&marker=${first[1].id}`, admin);
      assert.ok((next.json()[0].id as number) < (first[1].id as number));
      assert.match(String((await call('GET', '/api/v1/audit?limit=2', admin)).headers.link), /marker=/);
      assert.deepEqual(await audit('?since=2999-01-01T00:00:00Z'), []);
      assert.ok((await audit('?since=1h')).length > 0);
      assert.equal((await call('GET', '/api/v1/audit?since=yesterday', admin)).json().code, 'audit/bad-since');
      assert.equal((await call('GET', '/api/v1/audit?object=galaxy', admin)).json().code, 'audit/bad-object');
    });

    test('a deployment knows who asked, and its entry names the run', async () => {
      const alice = await signIn('alice');
      const releases = (await call('GET', '/api/v1/releases', admin)).json();
      const env = (await call('POST', '/api/v1/clusters', alice, { name: 'who-asked', release_id: releases[0].id })).json();
      const ids = (await call('POST', '/api/v1/nodes', alice, { simulate: { count: 1 } })).json().ids as number[];
      assert.equal((await call('POST', `/api/v1/clusters/${env.id}/nodes`, alice, { assignments: [{ node_id: ids[0], roles: ['controller', 'database', 'messaging'] }] })).statusCode, 200);
      const started = await call('POST', `/api/v1/clusters/${env.id}/deploy`, alice, { dry_run: true });
      assert.equal(started.statusCode, 202, started.body);
      assert.equal(started.json().requested_by, 'alice');
      const listed = (await call('GET', `/api/v1/clusters/${env.id}/deployments`, admin)).json();
      assert.equal(listed[0].requested_by, 'alice');
      const [entry] = await audit(`?object=environment/${env.id}`);
      assert.equal(entry.route, '/api/v1/clusters/:id/deploy');
      assert.equal(entry.deployment_id, started.json().id);
    });

    test('a change and its record cannot part: one entry each, and a refused record leaves the change undone', async () => {
      const made = await call('POST', '/api/v1/tokens', admin, { name: 'parting', user: 'bob' });
      assert.equal(made.statusCode, 201, made.body);
      const secret = made.json().token as string;
      // The entry is in the database as soon as the answer is, without the recorder's flush.
      const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE route = '/api/v1/tokens' AND object_id = 'parting' AND outcome = 'done'`);
      assert.equal(rows[0]!.n, 1);
      await db.query(`ALTER TABLE audit_log ADD CONSTRAINT test_no_revocations CHECK (route <> '/api/v1/tokens/:name' OR outcome <> 'done')`);
      try {
        const refused = await call('DELETE', '/api/v1/tokens/parting?user=bob', admin);
        assert.equal(refused.statusCode, 500, refused.body);
        assert.equal((await call('GET', '/api/v1/session', { authorization: `Bearer ${secret}` })).statusCode, 200, 'not revoked: its record could not be written');
        const deletedNode = (await call('POST', '/api/v1/nodes', admin, { simulate: { count: 1 } })).json().ids[0] as number;
        await db.query(`ALTER TABLE audit_log ADD CONSTRAINT test_no_node_deletions CHECK (route <> '/api/v1/nodes/:id' OR outcome <> 'done')`);
        assert.equal((await call('DELETE', `/api/v1/nodes/${deletedNode}`, admin)).statusCode, 500);
        assert.equal((await call('GET', `/api/v1/nodes/${deletedNode}`, admin)).statusCode, 200, 'the node is still there');
      } finally {
        await db.query('ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS test_no_revocations');
        await db.query('ALTER TABLE audit_log DROP CONSTRAINT IF EXISTS test_no_node_deletions');
      }
      assert.equal((await call('DELETE', '/api/v1/tokens/parting?user=bob', admin)).statusCode, 204);
      assert.equal((await call('GET', '/api/v1/session', { authorization: `Bearer ${secret}` })).statusCode, 401);
      await app.audit.flush();
      const entries = await audit('?object=token/parting');
      assert.deepEqual(entries.map((e) => [e.method, e.outcome]), [['DELETE', 'done'], ['DELETE', 'failed'], ['POST', 'done']], 'one entry a request');
    });

    test('who accepted a changed host key, and when: GET /nodes/:id, the list and hearth node show', async () => {
      const id = await insertRealNode(db, { name: 'key-accepted', address: '127.0.0.1', sshUser: 'root', sshPort: 2, hostKey: 'ssh-ed25519 AAAA', facts: null, hardware: {} });
      const before = (await call('GET', `/api/v1/nodes/${id}`, admin)).json();
      assert.equal(before.host_key_accepted_by, null);
      assert.doesNotMatch(describeNode(before), /changed key accepted/);
      // As POST /nodes/:id/refresh {accept_host_key} records it (reaching a host is the SSH tests' part).
      await recordHostKeyAcceptance(db, id, 'alice (token ci)');
      const one = (await call('GET', `/api/v1/nodes/${id}`, admin)).json();
      assert.equal(one.host_key_accepted_by, 'alice (token ci)');
      assert.ok(Math.abs(Date.parse(one.host_key_accepted_at) - Date.now()) < 60_000, one.host_key_accepted_at);
      const listed = ((await call('GET', '/api/v1/nodes', admin)).json() as Array<Record<string, unknown>>).find((n) => n.id === id)!;
      assert.deepEqual([listed.host_key_accepted_by, listed.host_key_accepted_at], [one.host_key_accepted_by, one.host_key_accepted_at]);
      assert.match(describeNode(one), new RegExp(`^host key: .*\\(changed key accepted by alice \\(token ci\\) at ${one.host_key_accepted_at.replace(/[.]/g, '\\.')}\\)$`, 'm'));
      assert.equal((await call('DELETE', `/api/v1/nodes/${id}`, admin)).statusCode, 204);
    });

    test('deleting an environment with cleaning: the deletion run knows who asked', async () => {
      const alice = await signIn('alice');
      const releases = (await call('GET', '/api/v1/releases', admin)).json();
      const env = (await call('POST', '/api/v1/clusters', alice, { name: 'who-deletes', release_id: releases[0].id })).json();
      // A real node, as registration leaves one (no host is reached: port 1 on this machine refuses at once).
      const id = await insertRealNode(db, { name: 'deleted-with-env', address: '127.0.0.1', sshUser: 'root', sshPort: 1, hostKey: 'ssh-ed25519 AAAA', facts: {}, hardware: {}, clusterId: env.id });
      // ... and deployed (as a finished deployment leaves it).
      await db.query(`UPDATE nodes SET roles = '["controller", "database", "messaging"]'::jsonb, status = 'ready' WHERE id = $1`, [id]);
      const removal = await call('DELETE', `/api/v1/clusters/${env.id}?clean=true`, alice);
      assert.equal(removal.statusCode, 202, removal.body);
      assert.equal(removal.json().deployment.requested_by, 'alice');
      const listed = (await call('GET', `/api/v1/clusters/${env.id}/deployments`, admin)).json();
      assert.equal(listed[0].requested_by, 'alice');
      // Its end (the host refused) before the next test.
      for (let i = 0; i < 600 && (await call('GET', `/api/v1/deployments/${removal.json().deployment.id}`, admin)).json().status === 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    });

    test('db export carries the audit log and db import restores it, its ids going on after the last', async () => {
      await app.audit.flush();
      const dump = await exportDatabase(db);
      const rows = dump.tables.audit_log ?? [];
      assert.ok(rows.length > 5, `${rows.length} audit rows exported`);
      const target = await engine.open();
      try {
        await importDatabase(target, JSON.parse(JSON.stringify(dump)));
        const back = await target.query<{ n: number; top: string }>('SELECT count(*)::int AS n, max(id)::text AS top FROM audit_log');
        assert.equal(back[0].n, rows.length);
        const [next] = await target.query<{ id: string }>(`INSERT INTO audit_log (via, method, route, status, outcome) VALUES ('none', 'POST', '/x', 200, 'done') RETURNING id::text AS id`);
        assert.ok(Number(next.id) > Number(back[0].top), 'a new entry does not collide with an imported one');
      } finally {
        await target.close();
      }
    });
  });
}
