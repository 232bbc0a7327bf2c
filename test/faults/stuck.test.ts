/**
 * An environment stuck in `deploying` (issue 20, item 2). The start-up sweep used to fail an
 * interrupted deployment in three statements outside a transaction: a SIGKILL between them left the
 * deployment `failed` and its environment `deploying`, and nothing looked at it again (deploy,
 * delete and settings answered 409 across restarts). Here that state is written into a real data
 * folder (or database), as such a kill left it, and a restart must repair it; then a sweep over
 * many interrupted runs is killed at random moments, and whatever it leaves must be consistent.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Database } from '../../src/store/index.js';
import { hearthBin } from '../support/serve.js';
import { TOKEN, checkInvariants, freshDatabase, serve, type Api } from './support.js';

const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));
const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];
const pgUrl = process.env.HEARTH_TEST_DATABASE_URL;

const engines = [
  { name: 'PGlite', skip: built ? false : 'dist/ is not built' },
  { name: 'PostgreSQL', skip: !built ? 'dist/ is not built' : pgUrl ? false : 'HEARTH_TEST_DATABASE_URL not set (CI sets it)' },
] as const;

/** Environments deploying with no running deployment, and running deployments whose environment is not deploying. */
async function inconsistencies(db: Database): Promise<string[]> {
  const stuck = await db.query<{ id: number }>(`SELECT id FROM clusters c WHERE status = 'deploying' AND NOT EXISTS (SELECT 1 FROM deployments d WHERE d.cluster_id = c.id AND d.status = 'running')`);
  const orphan = await db.query<{ id: number }>(`SELECT d.id FROM deployments d JOIN clusters c ON c.id = d.cluster_id WHERE d.status = 'running' AND c.status <> 'deploying'`);
  const halfSkipped = await db.query<{ id: number }>(`SELECT DISTINCT d.id FROM deployments d JOIN deployment_tasks t ON t.deployment_id = d.id WHERE d.status IN ('failed', 'interrupted') AND t.status IN ('pending', 'running')`);
  return [...stuck.map((r) => `environment ${r.id} deploying with no run`), ...orphan.map((r) => `run ${r.id} running in an environment not deploying`), ...halfSkipped.map((r) => `failed run ${r.id} with tasks still pending`)];
}

for (const engine of engines) {
  describe(`an environment stuck deploying on ${engine.name}`, { skip: engine.skip }, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-stuck-'));
    const env: Record<string, string> = {};
    let drop: (() => Promise<void>) | undefined;
    let api: Api | undefined;
    const open = () => openStore(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { dataDir });
    after(async () => {
      await api?.server.stop();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('a deployment failed while its environment stayed deploying is repaired at start: deploy, settings and delete answer again', async () => {
      if (engine.name === 'PostgreSQL') {
        const fresh = await freshDatabase(pgUrl!, 'hearth_stuck');
        env.DATABASE_URL = fresh.url;
        drop = fresh.drop;
      }
      api = await serve(dataDir, env);
      const release = ((await api.call('GET', '/api/v1/releases')).json as Array<{ id: string }>)[0].id;
      const created = await api.call('POST', '/api/v1/clusters', { name: 'stuck', release_id: release, components: BASE });
      assert.equal(created.status, 201, created.text);
      const cluster = (created.json as { id: number }).id;
      const nodes = ((await api.call('POST', '/api/v1/nodes', { simulate: { count: 5 } })).json as { ids: number[] }).ids;
      const assign = await api.call('POST', `/api/v1/clusters/${cluster}/nodes`, {
        assignments: [{ node_id: nodes[0], roles: ['controller'] }, { node_id: nodes[1], roles: ['database', 'messaging'] }, ...nodes.slice(2).map((id) => ({ node_id: id, roles: ['ceph-osd'] }))],
      });
      assert.equal(assign.status, 200, assign.text);
      await api.server.stop();
      api = undefined;

      // What a kill between the sweep's statements left: the run failed, the environment deploying.
      const db = await open();
      await db.query(`INSERT INTO deployments (cluster_id, graph_type, status, total, owner, message, finished_at) VALUES ($1, 'default', 'interrupted', 0, 1, 'interrupted: the server running it stopped', now())`, [cluster]);
      await db.query(`UPDATE clusters SET status = 'deploying' WHERE id = $1`, [cluster]);
      await db.close();

      api = await serve(dataDir, env);
      await checkInvariants(api);
      const shown = (await api.call('GET', `/api/v1/clusters/${cluster}`)).json as { status: string };
      assert.equal(shown.status, 'error', 'the environment is put in error, ready to be deployed again');
      const settings = (await api.call('GET', `/api/v1/clusters/${cluster}/attributes`)).json as { editable: Record<string, unknown> };
      const saved = await api.call('PUT', `/api/v1/clusters/${cluster}/attributes`, { editable: settings.editable });
      assert.equal(saved.status, 200, `settings: ${saved.text}`);
      const deploy = await api.call('POST', `/api/v1/clusters/${cluster}/deploy`);
      assert.equal(deploy.status, 202, `deploy: ${deploy.text}`);
      const deadline = Date.now() + 120_000;
      while (((await api.call('GET', `/api/v1/clusters/${cluster}`)).json as { status: string }).status === 'deploying' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const deleted = await api.call('DELETE', `/api/v1/clusters/${cluster}`);
      assert.ok(deleted.status === 200 || deleted.status === 204, `delete: ${deleted.status} ${deleted.text}`);
      await api.server.stop();
      api = undefined;
    });

    test('a start-up sweep over 40 interrupted deployments killed at any moment leaves each whole', async () => {
      // Forty environments deploying, each with a run owned by a server that is gone.
      const db = await open();
      const release = (await db.query<{ id: string }>('SELECT id FROM releases LIMIT 1'))[0].id;
      for (let i = 0; i < 40; i++) {
        const [{ id }] = await db.query<{ id: number }>(`INSERT INTO clusters (name, release_id, components, attributes, status) VALUES ($1, $2, '[]'::jsonb, '{}'::jsonb, 'deploying') RETURNING id`, [`sweep${i}`, release]);
        const [run] = await db.query<{ id: number }>(`INSERT INTO deployments (cluster_id, graph_type, status, total, owner) VALUES ($1, 'default', 'running', 2, 7) RETURNING id`, [id]);
        await db.query(`INSERT INTO deployment_tasks (deployment_id, node, task_id, position, status) VALUES ($1, 'n1', 'a', 0, 'ready'), ($1, 'n1', 'b', 1, 'pending')`, [run.id]);
      }
      assert.deepEqual(await inconsistencies(db), []);
      await db.close();
      // Kill a starting server at spread moments: before, during and after its sweep (serve()
      // answers only once the server listens, after the sweep, so the process is spawned here).
      for (const ms of [400, 1000, 1600, 2400, 3500, 5000]) {
        const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir], {
          env: { ...process.env, DATABASE_URL: '', ...env, HEARTH_ADMIN_TOKEN: TOKEN },
          stdio: 'ignore',
        });
        const exited = new Promise((r) => child.once('exit', r));
        await new Promise((r) => setTimeout(r, ms));
        child.kill('SIGKILL');
        await exited;
        const check = await open();
        const wrong = await inconsistencies(check);
        await check.close();
        assert.deepEqual(wrong, [], `after a kill ${ms} ms into a start`);
      }
      api = await serve(dataDir, env);
      await checkInvariants(api);
    });
  });
}
