/**
 * SIGKILL `hearth serve` in the middle of each kind of write, restart it on the same data folder,
 * and check that nothing is half-done: a plugin is installed whole or not at all, an environment
 * exists whole or not at all, a role assignment of several nodes lands on all of them or none, and
 * a deployment cut short is marked failed and can be started again. PGlite here; the same checks
 * run on PostgreSQL when HEARTH_TEST_DATABASE_URL is set.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePlugin } from '../server/support/plugins.js';
import { checkInvariants, freshDatabase, killDuring, serve, type Api } from './support.js';

const built = existsSync(new URL('../../dist/server/start.js', import.meta.url));
const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];
/** Moments to kill at, in ms after the request is sent: before, during and after the write. */
const MOMENTS = [2, 15, 60];

interface Engine {
  name: string;
  env: Record<string, string>;
  skip: string | false;
}
const engines: Engine[] = [
  { name: 'PGlite', env: {}, skip: built ? false : 'dist/ is not built' },
  {
    name: 'PostgreSQL',
    env: {},
    skip: !built ? 'dist/ is not built' : process.env.HEARTH_TEST_DATABASE_URL ? false : 'HEARTH_TEST_DATABASE_URL not set (CI sets it)',
  },
];

for (const engine of engines) {
  describe(`SIGKILL during writes on ${engine.name}`, { skip: engine.skip }, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-faults-'));
    const plugins = mkdtempSync(join(tmpdir(), 'hearth-faults-plugins-'));
    let api: Api;
    let release: string;
    const restart = async (stillRunning: 'refuse' | 'allow' = 'refuse') => {
      api = await serve(dataDir, engine.env);
      return checkInvariants(api, { stillRunning });
    };
    let drop: (() => Promise<void>) | undefined;
    before(async () => {
      if (engine.name !== 'PostgreSQL' || !process.env.HEARTH_TEST_DATABASE_URL) return;
      const db = await freshDatabase(process.env.HEARTH_TEST_DATABASE_URL, 'hearth_faults');
      engine.env.DATABASE_URL = db.url;
      drop = db.drop;
    });
    after(async () => {
      await api?.server.stop();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(plugins, { recursive: true, force: true });
    });

    test('start: the bundled release is installed', async () => {
      await restart();
      release = ((await api.call('GET', '/api/v1/releases')).json as Array<{ id: string }>)[0].id;
      assert.ok(release);
    });

    test('a plugin install cut short is all there or not there at all', async () => {
      for (const [i, ms] of MOMENTS.entries()) {
        const path = writePlugin({ name: `crash${i}`, role: `crash${i}-node`, tasks: [`crash${i}-task`] }, plugins);
        await killDuring(api, ms, () => api.call('POST', '/api/v1/plugins/folders', { path }));
        await restart();
        const again = await api.call('POST', '/api/v1/plugins/folders', { path });
        assert.ok(again.status === 201 || again.status === 409, `installing again after the crash: ${again.status} ${again.text}`);
        const listed = ((await api.call('GET', '/api/v1/plugins')).json as Array<{ id: string }>).filter((p) => p.id.startsWith(`crash${i}@`));
        assert.equal(listed.length, 1, 'exactly one copy of the plugin');
        await checkInvariants(api);
      }
    });

    test('an environment creation cut short leaves a whole environment or none', async () => {
      for (const [i, ms] of MOMENTS.entries()) {
        const before = ((await api.call('GET', '/api/v1/clusters')).json as unknown[]).length;
        const outcome = await killDuring(api, ms, () => api.call('POST', '/api/v1/clusters', { name: `env${i}`, release_id: release, components: BASE }));
        const { clusters } = await restart();
        assert.ok(clusters === before || clusters === before + 1, `after a crash (${outcome}) ${clusters - before} environments were added`);
        const again = await api.call('POST', '/api/v1/clusters', { name: `env${i}`, release_id: release, components: BASE });
        assert.ok(again.status === 201 || again.status === 409, `creating again: ${again.status} ${again.text}`);
      }
    });

    test('a role assignment of three nodes cut short lands on all three or none', async () => {
      const clusters = (await api.call('GET', '/api/v1/clusters')).json as Array<{ id: number }>;
      const cluster = clusters[0].id;
      for (const ms of MOMENTS) {
        const ids = ((await api.call('POST', '/api/v1/nodes', { simulate: { count: 3 } })).json as { ids: number[] }).ids;
        const assignments = ids.map((id) => ({ node_id: id, roles: ['compute'] }));
        await killDuring(api, ms, () => api.call('POST', `/api/v1/clusters/${cluster}/nodes`, { assignments }));
        await restart();
        const nodes = (await api.call('GET', '/api/v1/nodes')).json as Array<{ id: number; cluster_id: number | null; pending_roles?: string[]; roles?: string[] }>;
        const mine = nodes.filter((n) => ids.includes(n.id));
        const assigned = mine.filter((n) => n.cluster_id === cluster && [...(n.pending_roles ?? []), ...(n.roles ?? [])].includes('compute')).length;
        assert.ok(assigned === 0 || assigned === 3, `${assigned} of 3 nodes were assigned: the assignment was cut in half`);
      }
    });

    test('a deployment cut short is marked failed, and a new one can start', async () => {
      // PostgreSQL frees a killed server's presence lock when its session ends, which may be just
      // after the restart; the dead run is then failed when the environment is deployed again.
      const stillRunning = engine.name === 'PostgreSQL' ? 'allow' : 'refuse';
      const clusters = (await api.call('GET', '/api/v1/clusters')).json as Array<{ id: number }>;
      const cluster = clusters[0].id;
      const nodes = ((await api.call('POST', '/api/v1/nodes', { simulate: { count: 5 } })).json as { ids: number[] }).ids;
      const assign = await api.call('POST', `/api/v1/clusters/${cluster}/nodes`, {
        assignments: [
          { node_id: nodes[0], roles: ['controller'] },
          { node_id: nodes[1], roles: ['database', 'messaging'] },
          ...nodes.slice(2).map((id) => ({ node_id: id, roles: ['ceph-osd'] })),
        ],
      });
      assert.equal(assign.status, 200, assign.text);
      const dry = await api.call('POST', `/api/v1/clusters/${cluster}/deploy`);
      assert.equal(dry.status, 202, `the environment deploys at all: ${dry.text}`);
      // Killed a moment after it was accepted: the deployment is under way.
      await killDuring(api, 20, async () => undefined);
      const first = await restart(stillRunning);
      if (stillRunning === 'refuse') assert.ok(first.deployments.some((d) => d.status === 'interrupted' && /interrupt/i.test(String(d.message))), 'the cut deployment is marked interrupted');
      for (const ms of [30, 150]) {
        await killDuring(api, ms, () => api.call('POST', `/api/v1/clusters/${cluster}/deploy`));
        const { deployments } = await restart(stillRunning);
        for (const d of deployments) assert.ok(['interrupted', 'failed', 'succeeded', ...(stillRunning === 'allow' ? ['running'] : [])].includes(String(d.status)), `deployment ${String(d.id)} is ${String(d.status)}`);
        const cut = deployments.filter((d) => d.status === 'failed' || d.status === 'interrupted');
        for (const d of cut) assert.match(String(d.message ?? ''), /interrupt|stopped|fail/i);
        const again = await api.call('POST', `/api/v1/clusters/${cluster}/deploy`);
        assert.equal(again.status, 202, `a new deployment starts after the crash: ${again.text}`);
        const after = (await api.call('GET', `/api/v1/clusters/${cluster}/deployments`)).json as Array<{ id: number; status: string }>;
        assert.equal(after.filter((d) => d.status === 'running').length, 1, `only the new deployment runs: ${JSON.stringify(after)}`);
        // Let it run a little, then the next round kills the server again.
        await new Promise((r) => setTimeout(r, 50));
      }
      // The last run was not cut: let it end (a busy machine slows the simulated orchestrator), then nothing may be left running.
      const deadline = Date.now() + 120_000;
      for (;;) {
        const list = (await api.call('GET', `/api/v1/clusters/${cluster}/deployments`)).json as Array<{ status: string }>;
        if (!list.some((d) => d.status === 'running') || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      await checkInvariants(api);
    });
  });
}
