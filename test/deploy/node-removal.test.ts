/**
 * Removing deployed nodes on real test hosts 26 and 27 (issue 25): the release's deletion graph
 * runs on the node removed and on no other, the node is `removing` meanwhile and back in the pool
 * (`discovered`, no environment) only when it succeeded; a failing deletion keeps it in the
 * environment as `error` with the reason in the run's output; `clean: false` forgets it and leaves
 * the host as it was; a node never deployed leaves at once; `hearth node unassign --wait` prints
 * the outcome; deleting a deployed environment asks, and with clean=true cleans every host first.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const TOKEN = 'node-removal-token-0123456789';
const hosts = testHosts();
const DIR = '/var/lib/hearth-removal';
const DEPLOY = `- id: mark
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "mkdir -p ${DIR} && hostname > ${DIR}/marker", timeout: 60}
`;
// Refuses where a 'refuse' file says so; otherwise takes 3 s (so `removing` can be seen) and removes the marker.
const DELETION = `- id: erase
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "if [ -e ${DIR}/refuse ]; then echo erase refused on $(hostname); exit 3; fi; sleep 3; rm -f ${DIR}/marker; echo erased $(hostname)", timeout: 60}
`;
const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

describe('removing deployed nodes runs the deletion graph on them', { skip: hosts && hosts.addresses.length >= 27 ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-node-removal-'));
  let server: RunningServer;
  let envId = 0;
  let ctl = 0;
  let cmp = 0;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const waitFor = async (id: number) => {
    const until = Date.now() + 180_000;
    for (;;) {
      const d = (await call('GET', `/deployments/${id}`)).body;
      if (d.status !== 'running') return d;
      if (Date.now() > until) throw new Error(`run ${id} still running`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const node = async (id: number) => (await call('GET', `/nodes/${id}`)).body;
  const marker = async (i: number) => (await onHost(i, `cat ${DIR}/marker 2>/dev/null || echo gone`)).trim();
  const deploy = async () => {
    const d = await call('POST', `/clusters/${envId}/deploy`);
    assert.equal(d.status, 202, JSON.stringify(d.body));
    assert.equal((await waitFor(d.body.id)).status, 'succeeded');
  };
  const assignCompute = async () => assert.equal((await call('POST', `/clusters/${envId}/nodes`, { assignments: [{ node_id: cmp, roles: ['compute'] }] })).status, 200);
  /** The CLI from the sources, run as a child that is killed on every path. */
  const hearth = (...args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: TOKEN } });
      let out = '';
      let err = '';
      child.stdout.on('data', (b) => (out += b));
      child.stderr.on('data', (b) => (err += b));
      const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, out, err })));
    });

  before(async () => {
    for (const i of [26, 27]) await onHost(i, `rm -rf ${DIR} /var/lib/hearth/* /etc/hearth/* /etc/astute.yaml`);
    const made = createPlugin('removal', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    writeFileSync(join(made.dir!, 'removal-release', 'graphs', 'deployment.yaml'), DEPLOY);
    writeFileSync(join(made.dir!, 'removal-release', 'graphs', 'deletion.yaml'), DELETION);
    mkdirSync(join(dir, 'data', 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startServer({ port: 0, host: '10.77.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 });
    assert.equal((await call('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const releaseId = (await call('GET', '/releases')).body[0].id;
    const env = await call('POST', '/clusters', { name: 'removal-env', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    envId = env.body.id;
    for (const i of [26, 27]) {
      const res = await call('POST', '/nodes', { address: hosts!.addresses[i - 1], cluster_id: envId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      if (i === 26) ctl = res.body.node.id;
      else cmp = res.body.node.id;
    }
    assert.equal((await call('POST', `/clusters/${envId}/nodes`, { assignments: [{ node_id: ctl, roles: ['controller'] }, { node_id: cmp, roles: ['compute'] }] })).status, 200);
    await deploy();
    assert.equal(await marker(26), 'hearth-test-26');
    assert.equal(await marker(27), 'hearth-test-27');
  });
  after(async () => {
    await server?.close();
    for (const i of [26, 27]) await onHost(i, `rm -rf ${DIR}`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a failing deletion keeps the node in the environment as error, the run saying why', async () => {
    await onHost(27, `touch ${DIR}/refuse`);
    try {
      const removal = await call('DELETE', `/clusters/${envId}/nodes`, { node_ids: [cmp] });
      assert.equal(removal.status, 202, JSON.stringify(removal.body));
      assert.deepEqual(removal.body.cleaning, [{ id: cmp, name: 'hearth-test-27' }]);
      const d = await waitFor(removal.body.deployment.id);
      assert.equal(d.status, 'failed');
      assert.equal(d.graph_type, 'deletion');
      const n = await node(cmp);
      assert.equal(n.cluster_id, envId, 'still in the environment');
      assert.equal(n.status, 'error');
      assert.deepEqual(n.roles, ['compute']);
      const tasks = (await call('GET', `/deployments/${d.id}/tasks?output=true`)).body;
      assert.equal(tasks.length, 1, 'the deletion graph ran on the node removed alone');
      assert.equal(tasks[0].outcome, 'failed');
      assert.match(JSON.stringify(tasks[0]), /erase refused on hearth-test-27/);
      assert.equal(await marker(27), 'hearth-test-27');
      assert.equal(await marker(26), 'hearth-test-26');
    } finally {
      await onHost(27, `rm -f ${DIR}/refuse`);
    }
  });

  test('a deployed node removed: deletion graph on that host only, removing meanwhile, back in the pool after', async () => {
    const removal = await call('DELETE', `/clusters/${envId}/nodes`, { node_ids: [cmp] });
    assert.equal(removal.status, 202, JSON.stringify(removal.body));
    assert.deepEqual(removal.body.left, []);
    assert.match(removal.body.message, /the deletion graph runs on 'hearth-test-27' \(deployment \d+\)/);
    assert.equal(removal.body.nodes.find((n: any) => n.id === cmp).status, 'removing');
    const during = await node(cmp);
    assert.equal(during.status, 'removing');
    assert.equal(during.cluster_id, envId, 'still in the environment while the deletion graph runs');
    const d = await waitFor(removal.body.deployment.id);
    assert.equal(d.status, 'succeeded', JSON.stringify(d));
    const n = await node(cmp);
    assert.equal(n.status, 'discovered');
    assert.equal(n.cluster_id, null);
    assert.deepEqual([n.roles, n.pending_roles], [[], []]);
    assert.equal(await marker(27), 'gone', 'the deletion graph cleaned the host removed');
    assert.equal(await marker(26), 'hearth-test-26', 'and touched no other host');
    assert.equal((await node(ctl)).status, 'ready');
    assert.equal((await call('GET', `/clusters/${envId}`)).body.status, 'operational', 'the environment is as it was');
  });

  test('clean: false forgets a deployed node, its host untouched, said plainly', async () => {
    await assignCompute();
    await deploy();
    assert.equal(await marker(27), 'hearth-test-27');
    const removal = await call('POST', `/clusters/${envId}/nodes/unassign`, { node_ids: [cmp], clean: false });
    assert.equal(removal.status, 200, JSON.stringify(removal.body));
    assert.deepEqual(removal.body.map((n: any) => n.id), [ctl], 'the legacy route answers the nodes left in the environment');
    const n = await node(cmp);
    assert.equal(n.cluster_id, null);
    assert.equal(n.status, 'discovered');
    assert.equal(await marker(27), 'hearth-test-27', 'nothing ran on the host');
    // Said plainly, by the new route too (a node never deployed now: it leaves at once).
    await assignCompute();
    const plain = await call('DELETE', `/clusters/${envId}/nodes`, { node_ids: [cmp], clean: false });
    assert.equal(plain.status, 200);
    assert.equal(plain.body.deployment, null);
  });

  test('a node never deployed leaves at once, nothing run', async () => {
    await onHost(27, `rm -f ${DIR}/marker`);
    await assignCompute();
    const before = (await call('GET', `/clusters/${envId}/deployments`)).body.length;
    const removal = await call('DELETE', `/clusters/${envId}/nodes`, { node_ids: [cmp] });
    assert.equal(removal.status, 200, JSON.stringify(removal.body));
    assert.deepEqual(removal.body.left, [{ id: cmp, name: 'hearth-test-27' }]);
    assert.equal(removal.body.deployment, null);
    assert.match(removal.body.message, /'hearth-test-27' left environment 'removal-env' \(nothing was deployed on it\)/);
    assert.equal((await node(cmp)).cluster_id, null);
    assert.equal((await call('GET', `/clusters/${envId}/deployments`)).body.length, before, 'no run');
  });

  test('hearth node unassign --wait prints the outcome; --no-clean says the host keeps what was deployed', async () => {
    await assignCompute();
    await deploy();
    const waited = await hearth('node', 'unassign', 'removal-env', 'hearth-test-27', '--wait');
    assert.equal(waited.code, 0, waited.err + waited.out);
    assert.match(waited.out, /^hearth-test-27 is removing: the deletion graph runs on it \(deployment \d+\)/m);
    assert.match(waited.out, /^hearth-test-27 cleaned and back in the pool \(discovered\)$/m);
    assert.match(waited.out, /^deployment \d+: succeeded, 1\/1 tasks succeeded/m);
    assert.equal(await marker(27), 'gone');
    await assignCompute();
    await deploy();
    const forgot = await hearth('node', 'unassign', 'removal-env', String(cmp), '--no-clean');
    assert.equal(forgot.code, 0, forgot.err);
    assert.match(forgot.out, /hearth-test-27 left environment 'removal-env': not cleaned: the host keeps what was deployed/);
    assert.equal(await marker(27), 'hearth-test-27');
  });

  test('deleting a deployed environment asks; clean=true cleans every host, then deletes it', async () => {
    await assignCompute();
    await deploy();
    const asked = await call('DELETE', `/clusters/${envId}`);
    assert.equal(asked.status, 409);
    assert.equal(asked.body.code, 'cluster/deployed-nodes');
    assert.match(asked.body.details.hint, /clean=true/);
    const removal = await call('DELETE', `/clusters/${envId}?clean=true`);
    assert.equal(removal.status, 202, JSON.stringify(removal.body));
    assert.equal((await call('GET', `/clusters/${envId}`)).body.status, 'removing');
    assert.equal((await call('POST', `/clusters/${envId}/deploy`)).status, 409, 'no deployment while it is removed');
    const until = Date.now() + 180_000;
    while ((await call('GET', `/clusters/${envId}`)).status !== 404) {
      assert.ok(Date.now() < until, 'the environment was not deleted');
      await new Promise((r) => setTimeout(r, 300));
    }
    for (const id of [ctl, cmp]) assert.deepEqual([(await node(id)).cluster_id, (await node(id)).status], [null, 'discovered']);
    assert.equal(await marker(26), 'gone');
    assert.equal(await marker(27), 'gone');
  });
});
