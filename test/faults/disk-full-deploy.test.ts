/**
 * A full disk under the embedded database during a real deployment (host 22; issue 24): reads go
 * on, the run is failed with `server/disk-full` once space returns, every task that ran is
 * recorded as it ended (none reads as "not run"), and SIGTERM stops a server whose disk is full.
 * The data folder lives on a small tmpfs of its own (mounting it needs root).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { killed, startChild, type ChildServer } from '../server/support/child.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const HOST = 22;
const TASKS = 40;
// Each task prints 256 KiB (its report fills the database's disk quickly) and takes a moment.
const GRAPH = Array.from({ length: TASKS }, (_, i) => `- id: t${i}\n  type: shell\n  version: 2.1.0\n  roles: ['*']\n${i ? `  requires: [t${i - 1}]\n` : ''}  parameters: {cmd: "bash record.sh t${i}; head -c 262144 /dev/zero | tr '\\\\0' x; sleep 0.3", timeout: 60}\n`).join('');
const asRoot = process.getuid?.() === 0;
const skip = !asRoot ? 'mounting a small tmpfs needs root' : hosts && hosts.addresses.length >= HOST ? false : HOSTS_NOTE;

describe('a full disk during a real deployment', { skip, timeout: 600_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-fulldeploy-'));
  const mountPoint = join(dir, 'disk');
  let server: ChildServer | undefined;
  after(async () => {
    if (server) await killed(server.process, 'SIGKILL');
    spawnSync('umount', ['-l', mountPoint]);
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: string, path: string, body?: unknown, timeoutMs = 10_000) => {
    const res = await fetch(`${server!.url}/api/v1${path}`, { method, signal: AbortSignal.timeout(timeoutMs), headers: { authorization: `Bearer ${server!.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const fill = () => spawnSync('dd', ['if=/dev/zero', `of=${join(mountPoint, 'filler')}`, 'bs=1M'], { stdio: 'ignore' });

  test('reads go on, the run fails with server/disk-full once space returns, every task that ran is recorded', async () => {
    mkdirSync(mountPoint);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mountPoint]);
    assert.equal(mounted.status, 0, `could not mount a tmpfs: ${mounted.stderr}`);
    await onHost(HOST, 'rm -rf /var/lib/hearth/* /etc/hearth/*');
    const made = createPlugin('fulltest', { releasePlugin: true, parentDir: dir });
    const release = join(made.dir!, 'fulltest-release');
    writeFileSync(join(release, 'graphs', 'deployment.yaml'), GRAPH);
    writeFileSync(join(release, 'deployment_scripts', 'record.sh'), 'mkdir -p /var/lib/hearth && echo "$1" >> /var/lib/hearth/ran\n');
    const data = join(mountPoint, 'data');
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data });
    assert.equal((await call('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const releaseId = (await call('GET', '/releases')).body.find((r: any) => r.id.startsWith('fulltest')).id;
    const cluster = (await call('POST', '/clusters', { name: 'full', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] })).body.id;
    const node = (await call('POST', '/nodes', { address: hosts!.addresses[HOST - 1], cluster_id: cluster })).body.node.id;
    assert.equal((await call('POST', `/clusters/${cluster}/nodes`, { assignments: [{ node_id: node, roles: ['controller'] }] })).status, 200);
    const run = (await call('POST', `/clusters/${cluster}/deploy`)).body;
    assert.equal(run.mode, 'real', JSON.stringify(run));
    let until = Date.now() + 120_000;
    while ((await call('GET', `/deployments/${run.id}/tasks?status=ready`)).body.length < 5) {
      assert.ok(Date.now() < until, 'five tasks never finished');
      await new Promise((r) => setTimeout(r, 200));
    }
    fill();
    // Full for a while: the deployment goes on or waits, the server answers reads within seconds.
    for (let i = 0; i < 10; i++) {
      const started = Date.now();
      const read = await call('GET', `/clusters/${cluster}/deployments/${run.id}`, undefined, 15_000);
      assert.equal(read.status, 200);
      assert.ok(Date.now() - started < 5000, `a read took ${Date.now() - started} ms on a full disk`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    rmSync(join(mountPoint, 'filler'));
    let d = (await call('GET', `/clusters/${cluster}/deployments/${run.id}`)).body;
    until = Date.now() + 240_000;
    while (d.status === 'running') {
      assert.ok(Date.now() < until, `the run never ended: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 500));
      d = (await call('GET', `/clusters/${cluster}/deployments/${run.id}`)).body;
    }
    assert.equal(d.status, 'failed', JSON.stringify(d));
    assert.match(d.message, /^server\/disk-full: /);
    const ran = new Set((await onHost(HOST, 'cat /var/lib/hearth/ran')).trim().split('\n'));
    const tasks = (await call('GET', `/deployments/${run.id}/tasks`)).body as Array<{ task_id: string; status: string; message: string | null }>;
    for (const t of tasks.filter((t) => /^t\d+$/.test(t.task_id))) {
      if (ran.has(t.task_id)) assert.equal(t.status, 'ready', `${t.task_id} ran, but reads ${t.status} (${t.message})`);
      else assert.notEqual(t.status, 'ready', `${t.task_id} did not run, but reads ready`);
    }
    assert.equal(server.process.exitCode, null, 'the server is still running');
  });

  test('SIGTERM stops a server whose disk is full during a deployment', async () => {
    await onHost(HOST, 'rm -rf /var/lib/hearth/*');
    const cluster = (await call('GET', '/clusters')).body[0].id;
    const run = (await call('POST', `/clusters/${cluster}/deploy`)).body;
    assert.equal(run.mode, 'real', JSON.stringify(run));
    const until = Date.now() + 120_000;
    while ((await call('GET', `/deployments/${run.id}/tasks?status=ready`)).body.length < 3) {
      assert.ok(Date.now() < until, 'three tasks never finished');
      await new Promise((r) => setTimeout(r, 200));
    }
    fill();
    await new Promise((r) => setTimeout(r, 3000));
    const started = Date.now();
    const exited = await Promise.race([killed(server!.process, 'SIGTERM').then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 60_000))]);
    assert.ok(exited, 'SIGTERM did not stop the server within 60 s');
    assert.ok(Date.now() - started < 60_000);
    rmSync(join(mountPoint, 'filler'));
    server = await startChild({ HEARTH_CHILD_DATA_DIR: join(mountPoint, 'data') });
    const d = (await call('GET', `/clusters/${cluster}/deployments/${run.id}`)).body;
    // Given up at shutdown: interrupted by the next start; or, when its end could still be
    // written, failed with the reason. Never succeeded, never running.
    if (d.status === 'failed') assert.match(d.message, /^server\/disk-full: /);
    else assert.equal(d.status, 'interrupted', JSON.stringify(d));
  });
});
