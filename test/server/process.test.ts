/**
 * A real server process on a real socket: the CLI client against it, SIGTERM shutdown, and the
 * crash test (SIGKILL during plugin installs; after a restart each plugin is fully there or not
 * at all). On PGlite (a data folder) and on PostgreSQL when HEARTH_TEST_DATABASE_URL is set.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { bundledRelease, repoRoot } from './support/app.js';
import { killed, startChild } from './support/child.js';
import { testDatabaseUrl } from './support/engines.js';
import { writePlugin } from './support/plugins.js';

/** Copies of the bundled release plugin under other names: installing one writes a plugin and a release. */
function releasePluginCopies(parent: string, count: number): string[] {
  const dirs: string[] = [];
  for (let i = 0; i < count; i++) {
    const dir = join(parent, `crash-${i}`);
    cpSync(bundledRelease, dir, { recursive: true });
    const meta = readFileSync(join(dir, 'metadata.yaml'), 'utf8').replace(/^name: .*$/m, `name: crash-${i}`).replace(/release_name: .*$/m, `release_name: Crash release ${i}`);
    writeFileSync(join(dir, 'metadata.yaml'), meta);
    dirs.push(dir);
  }
  return dirs;
}

async function api(server: { url: string; token: string }, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const setups: Array<{ name: string; env: () => Record<string, string>; cleanup: () => void | Promise<void> }> = [];
{
  const dir = mkdtempSync(join(tmpdir(), 'hearth-process-'));
  setups.push({ name: 'pglite', env: () => ({ HEARTH_CHILD_DATA_DIR: join(dir, 'data') }), cleanup: () => rmSync(dir, { recursive: true, force: true }) });
}
if (testDatabaseUrl) {
  const schema = `hearth_p_${randomBytes(5).toString('hex')}`;
  setups.push({
    name: 'postgres',
    env: () => ({ HEARTH_CHILD_DATABASE_URL: testDatabaseUrl!, HEARTH_CHILD_SCHEMA: schema }),
    cleanup: async () => {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  });
}

for (const setup of setups) {
  describe(`server process on ${setup.name}`, () => {
    after(() => setup.cleanup());

    test('crash during plugin installs: after a restart each plugin is complete or absent', async () => {
      const parent = mkdtempSync(join(tmpdir(), 'hearth-crash-'));
      try {
        const dirs = releasePluginCopies(parent, 12);
        let server = await startChild(setup.env());
        // Fire the installs together and kill the server while they run.
        const pending = dirs.map((path) => api(server, 'POST', '/plugins/folders', { path }).catch(() => ({ status: 0, body: undefined })));
        await new Promise((r) => setTimeout(r, 300 + Math.random() * 300));
        await killed(server.process, 'SIGKILL');
        const answers = await Promise.all(pending);
        const acknowledged = dirs.map((_, i) => `crash-${i}`).filter((_, i) => answers[i].status === 201);
        assert.ok(acknowledged.length < dirs.length, 'the kill landed while installs were running');

        server = await startChild(setup.env());
        try {
          const plugins = (await api(server, 'GET', '/plugins')).body as Array<{ id: string; name: string }>;
          const releases = (await api(server, 'GET', '/releases')).body as Array<{ id: string; plugin_id: string }>;
          for (let i = 0; i < dirs.length; i++) {
            const plugin = plugins.find((p) => p.name === `crash-${i}`);
            const release = releases.find((r) => r.id.startsWith(`crash-release-${i}@`));
            assert.equal(Boolean(plugin), Boolean(release), `crash-${i}: plugin and release together or neither`);
            if (release) assert.equal(release.plugin_id, plugin!.id);
          }
          for (const name of acknowledged) assert.ok(plugins.some((p) => p.name === name), `${name} was acknowledged (201) so it must survive`);
          // The survivors work, and an interrupted install can simply be retried.
          for (let i = 0; i < dirs.length; i++) {
            if (plugins.some((p) => p.name === `crash-${i}`)) continue;
            const retry = await api(server, 'POST', '/plugins/folders', { path: dirs[i] });
            assert.equal(retry.status, 201, JSON.stringify(retry.body).slice(0, 600));
          }
          assert.equal((await api(server, 'GET', '/releases')).body.filter((r: { id: string }) => r.id.startsWith('crash-')).length, dirs.length);
        } finally {
          await killed(server.process, 'SIGTERM');
        }
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    });

    test('the CLI drives the scenario against the real server; SIGTERM stops it cleanly', async () => {
      const server = await startChild(setup.env());
      const env = { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: server.token };
      const hearth = (...args: string[]) => {
        const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'src', 'cli', 'main.ts'), ...args], { env, encoding: 'utf8', timeout: 60_000 });
        return { status: r.status, out: r.stdout, err: r.stderr };
      };
      try {
        const releases = JSON.parse(hearth('release', 'list', '--json').out);
        const release = releases.find((r: { id: string }) => r.id.startsWith('hearth-openstack'))!.id;
        assert.match(hearth('release', 'show', release).out, /controller/);
        const plugin = writePlugin({ name: 'cliplug' });
        assert.equal(hearth('plugin', 'install', '--folder', plugin).status, 0);
        assert.match(hearth('plugin', 'list').out, /cliplug@1\.0\.0/);
        const components = 'hypervisor:qemu,network:neutron:core:ml2,network:neutron:ml2:vlan,storage:block:ceph,additional_service:cliplug';
        const created = hearth('env', 'create', 'cli-env', '--release', release, '--components', components);
        assert.equal(created.status, 0, created.err);
        const refused = hearth('env', 'create', 'cli-bad', '--release', release, '--components', 'hypervisor:qemu');
        assert.equal(refused.status, 1);
        assert.match(refused.err, /component\/required-type-missing/);
        // No --components: the release's default components, as the API reads an absent list (issue 31).
        const plain = hearth('env', 'create', 'cli-defaults', '--release', release, '--json');
        assert.equal(plain.status, 0, plain.err);
        const defaults = JSON.parse(hearth('release', 'show', release, '--json').out).components.filter((c: { default?: boolean }) => c.default).map((c: { name: string }) => c.name);
        assert.ok(defaults.length > 0);
        assert.deepEqual([...JSON.parse(plain.out).components].sort(), [...defaults].sort());
        const ids: number[] = JSON.parse(hearth('node', 'add', '--count', '8', '--json').out).ids;
        const assign = hearth('node', 'assign', 'cli-env', `--node=${ids[0]}=controller`, `--node=${ids[1]}=compute`, `--node=${ids[2]}=database,messaging`, `--node=${ids[3]}=cliplug-node`, ...ids.slice(4, 7).map((id) => `--node=${id}=ceph-osd`));
        assert.equal(assign.status, 0, assign.err);
        const conflict = hearth('node', 'assign', 'cli-env', `--node=${ids[7]}=controller,compute`);
        assert.equal(conflict.status, 1);
        assert.match(conflict.err, /role\/conflict/);
        assert.match(hearth('env', 'graph', 'cli-env', '--format', 'dot').out, /^digraph/);
        const deploy = hearth('env', 'deploy', 'cli-env');
        assert.equal(deploy.status, 0, deploy.err);
        assert.match(deploy.out, /succeeded/);
        const show = JSON.parse(hearth('env', 'show', 'cli-env', '--json').out);
        assert.equal(show.status, 'operational');
        const uninstall = hearth('plugin', 'uninstall', 'cliplug@1.0.0');
        assert.equal(uninstall.status, 1);
        assert.match(uninstall.err, /plugin\/in-use/);
        const noToken = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'src', 'cli', 'main.ts'), 'node', 'add', '--count', '1'], { env: { ...env, HEARTH_TOKEN: '' }, encoding: 'utf8' });
        assert.equal(noToken.status, 1);
        assert.match(noToken.stderr, /auth\/missing-token/);
        const unreachable = hearth('env', 'list', '--server', 'http://127.0.0.1:9');
        assert.equal(unreachable.status, 1);
        assert.match(unreachable.err, /cannot reach/);
      } finally {
        const exit = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
        server.process.kill('SIGTERM');
        assert.equal(await exit, 0, 'SIGTERM ends the server with status 0');
      }
    });
  });
}
