/**
 * The plan, then the run, on real hosts (issue 25): the release skeleton of
 * `hearth plugin create --release-plugin`, unchanged, deployed for real on a controller (test host
 * 28) and a compute (29); then a compute (30) is added. The plan says the new compute's tasks and
 * the controller's node list run, and the old compute's and the controller's own setup do not,
 * each with its reason; the deployment that follows runs exactly those, as the hosts' own records
 * show (the skeleton's tasks.log lines and the files' modification times).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const TOKEN = 'plan-hosts-token-0123456789abcdef';
const hosts = testHosts();
const [CONTROLLER, COMPUTE, ADDED] = [28, 29, 30];
const NAME = 'plansk';
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

describe('the plan, then the run, on real hosts', { skip: hosts && hosts.addresses.length >= ADDED ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-plan-hosts-'));
  let server: RunningServer;
  let envId = 0;
  const ids: Record<number, number> = {};
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const hearth = (args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: TOKEN } });
      let out = '';
      let err = '';
      child.stdout.on('data', (b) => (out += b));
      child.stderr.on('data', (b) => (err += b));
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('error', reject);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, out, err })));
    });
  const deploy = async () => {
    const started = await api('POST', `/clusters/${envId}/deploy`, { dry_run: false });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const until = Date.now() + 180_000;
    for (;;) {
      const d = (await api('GET', `/deployments/${started.body.id}`)).body;
      if (d.status !== 'running') return d;
      assert.ok(Date.now() < until, `deployment ${d.id} still running`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const clean = `rm -rf /etc/hearth/* /etc/astute.yaml /etc/hearth-release/${NAME} /var/log/hearth-release/${NAME}`;
  /** "<task> <event>" lines of the skeleton's record() on a host. */
  const taskLog = async (i: number) => (await onHost(i, `cat /var/log/hearth-release/${NAME}/tasks.log 2>/dev/null || true`)).trim().split('\n').filter(Boolean).map((l) => l.split(' ').slice(1).join(' '));
  /** Modification times (ns) of the release's files on a host, by file name. */
  const mtimes = async (i: number) => Object.fromEntries((await onHost(i, `cd /etc/hearth-release/${NAME} && stat -c '%n %.9Y' *`)).trim().split('\n').map((l) => l.split(' ')));

  before(async () => {
    for (const i of [CONTROLLER, COMPUTE, ADDED]) await onHost(i, clean);
    const made = createPlugin(NAME, { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    mkdirSync(join(dir, 'data', 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startServer({ port: 0, host: '10.77.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 });
    assert.equal((await api('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const release = (await api('GET', '/releases')).body[0].id;
    const env = await api('POST', '/clusters', { name: 'plan-hosts', release_id: release, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    envId = env.body.id;
    for (const i of [CONTROLLER, COMPUTE, ADDED]) {
      const res = await api('POST', '/nodes', { address: hosts!.addresses[i - 1] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids[i] = res.body.node.id;
    }
  });
  after(async () => {
    await server?.close();
    for (const i of [CONTROLLER, COMPUTE, ADDED]) await onHost(i, clean).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test('adding a compute: the plan names what runs and why, and the run runs exactly that', async () => {
    const assigned = await api('POST', `/clusters/${envId}/nodes`, { assignments: [{ node_id: ids[CONTROLLER], roles: ['controller'] }, { node_id: ids[COMPUTE], roles: ['compute'] }] });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    const first = await deploy();
    assert.equal(first.status, 'succeeded', JSON.stringify(first));
    assert.deepEqual(await taskLog(CONTROLLER), ['controller-services start', 'controller-services done']);
    assert.deepEqual(await taskLog(COMPUTE), ['compute-services start', 'compute-services done']);
    const before = { controller: await mtimes(CONTROLLER), compute: await mtimes(COMPUTE) };
    assert.deepEqual(Object.keys(before.controller).sort(), ['controller.conf', 'nodes.json']);
    assert.deepEqual(Object.keys(before.compute).sort(), ['compute.conf', 'controllers.json']);

    assert.equal((await api('POST', `/clusters/${envId}/nodes`, { assignments: [{ node_id: ids[ADDED], roles: ['compute'] }] })).status, 200);
    const plan = (await api('GET', `/clusters/${envId}/deploy/plan`)).body;
    const runs = (i: number) => plan.nodes.find((n: { id: number }) => n.id === ids[i]).tasks.filter((t: { runs: boolean }) => t.runs).map((t: { id: string }) => t.id);
    const reason = (i: number, task: string) => plan.nodes.find((n: { id: number }) => n.id === ids[i]).tasks.find((t: { id: string }) => t.id === task).reason;
    assert.deepEqual(runs(CONTROLLER), ['controller-nodes']);
    assert.deepEqual(runs(COMPUTE), []);
    assert.deepEqual(runs(ADDED), ['compute-controllers', 'compute-services']);
    assert.equal(reason(CONTROLLER, 'controller-nodes'), `changed($.network_metadata.nodes): 1 node added (node-${ids[ADDED]} 'hearth-test-${ADDED}')`);
    assert.equal(reason(CONTROLLER, 'controller-services'), `changed($.uid): unchanged since the last deployment (${first.id})`);
    assert.match(reason(COMPUTE, 'compute-services'), /is false: changed\(\$\.uid\): unchanged since the last deployment \(\d+\); changed\(\$\.network_metadata\.nodes.*\): unchanged/);
    assert.match(reason(ADDED, 'compute-services'), /^changedAny\(.*: the node is new$/);
    const printed = await hearth(['env', 'deploy', 'plan-hosts', '--plan']);
    assert.equal(printed.code, 0, printed.err);
    assert.match(printed.out, new RegExp(`^hearth-test-${ADDED} \\(node ${ids[ADDED]}; compute; new\\):\\n {2}\\+ compute-controllers\\n {2}\\+ compute-services\\n`, 'm'));
    assert.match(printed.out, /^3 tasks run on 2 nodes; 6 skipped$/m);

    const second = await deploy();
    assert.equal(second.status, 'succeeded', JSON.stringify(second));
    // The run's records: exactly the planned tasks ran.
    const records = (await api('GET', `/deployments/${second.id}/tasks`)).body as Array<{ node: string; task_id: string; outcome: string }>;
    const ran = records.filter((r) => r.outcome === 'succeeded').map((r) => `${r.node} ${r.task_id}`).sort();
    const planned = plan.nodes.flatMap((n: { id: number; tasks: Array<{ id: string; runs: boolean }> }) => n.tasks.filter((t) => t.runs).map((t) => `${n.id} ${t.id}`)).sort();
    assert.deepEqual(ran, planned);
    // And the hosts say so: the controller's setup and the old compute did not run again; the
    // controller's node list was written again, with the new compute; the new compute was set up.
    assert.deepEqual(await taskLog(CONTROLLER), ['controller-services start', 'controller-services done']);
    assert.deepEqual(await taskLog(COMPUTE), ['compute-services start', 'compute-services done']);
    assert.deepEqual(await taskLog(ADDED), ['compute-services start', 'compute-services done']);
    const after = { controller: await mtimes(CONTROLLER), compute: await mtimes(COMPUTE) };
    assert.deepEqual(after.compute, before.compute, "the old compute's files were not written again");
    assert.equal(after.controller['controller.conf'], before.controller['controller.conf']);
    assert.ok(Number(after.controller['nodes.json']) > Number(before.controller['nodes.json']), 'the node list was written again');
    assert.match(await onHost(CONTROLLER, `cat /etc/hearth-release/${NAME}/nodes.json`), new RegExp(hosts!.addresses[ADDED - 1].replace(/\./g, '\\.')));
    assert.equal(await onHost(ADDED, `cat /etc/hearth-release/${NAME}/controllers.json`), JSON.stringify([hosts!.addresses[CONTROLLER - 1]]));
  });
});
