/**
 * A server killed in the middle of a real deployment (hosts 10 and 11): the next server to start
 * fails the run as interrupted, and `resume` runs only what it did not finish.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { killed, startChild, type ChildServer } from '../server/support/child.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const GRAPH = ['a', 'b', 'c']
  .map((id, i) => `- id: ${id}\n  type: shell\n  version: 2.1.0\n  roles: ['*']\n${i ? `  requires: [${['a', 'b'][i - 1]}]\n` : ''}  parameters: {cmd: "bash record.sh ${id}${id === 'b' ? '; sleep 12' : ''}", timeout: 60}\n`)
  .join('');

describe('a server killed mid-deployment, then resume', { skip: hosts && hosts.addresses.length >= 11 ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-kill-'));
  let server: ChildServer | undefined;
  after(async () => {
    if (server) await killed(server.process, 'SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server!.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${server!.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  test('interrupted, then resumed: finished tasks are not run again', async () => {
    for (const i of [10, 11]) await onHost(i, 'rm -rf /var/lib/hearth/* /etc/hearth/*');
    const made = createPlugin('killtest', { releasePlugin: true, parentDir: dir });
    const release = join(made.dir!, 'killtest-release');
    writeFileSync(join(release, 'graphs', 'deployment.yaml'), GRAPH);
    writeFileSync(join(release, 'deployment_scripts', 'record.sh'), 'mkdir -p /var/lib/hearth && echo "$(date +%s.%N) $1" >> /var/lib/hearth/ran\n');
    const data = join(dir, 'data');
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data });
    assert.equal((await call('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const releaseId = (await call('GET', '/releases')).body.find((r: any) => r.id.startsWith('killtest')).id;
    const cluster = (await call('POST', '/clusters', { name: 'kill', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] })).body.id;
    const ids: number[] = [];
    for (const i of [10, 11]) ids.push((await call('POST', '/nodes', { address: hosts!.addresses[i - 1], cluster_id: cluster })).body.node.id);
    assert.equal((await call('POST', `/clusters/${cluster}/nodes`, { assignments: [{ node_id: ids[0], roles: ['controller'] }, { node_id: ids[1], roles: ['compute'] }] })).status, 200);
    const first = (await call('POST', `/clusters/${cluster}/deploy`)).body;
    assert.equal(first.mode, 'real');
    const until = Date.now() + 60_000;
    // Running in the records and started on both hosts: the database says a task runs a moment
    // before its command reaches the host, and a kill in between leaves nothing to cut short.
    const bStarted = async (i: number) => (await onHost(i, 'grep -c " b$" /var/lib/hearth/ran 2>/dev/null || true')).trim() === '1';
    while ((await call('GET', `/deployments/${first.id}/tasks?task=b&status=running`)).body.length < 2 || !(await bStarted(10)) || !(await bStarted(11))) {
      assert.ok(Date.now() < until, 'b never ran on both nodes');
      await new Promise((r) => setTimeout(r, 200));
    }
    const orphan = join(tmpdir(), `hearth-deployment-${first.id}-${server.process.pid}`);
    await killed(server.process, 'SIGKILL');
    assert.ok(existsSync(orphan), 'a killed server leaves its run\'s working folder');
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data });
    const interrupted = (await call('GET', `/clusters/${cluster}/deployments/${first.id}`)).body;
    assert.equal(interrupted.status, 'interrupted');
    assert.match(interrupted.message, /interrupted/);
    // What the killed server's records say, in the lifecycle's words: b was running (killed with
    // its connection), c never started (stopped), and the nodes are in error, not "deploying" for ever.
    const left = (await call('GET', `/deployments/${first.id}/tasks`)).body as Array<{ task_id: string; outcome: string; message: string | null }>;
    assert.deepEqual(left.filter((t) => t.task_id === 'b').map((t) => t.outcome), ['killed', 'killed']);
    assert.deepEqual(left.filter((t) => t.task_id === 'c').map((t) => t.outcome), ['stopped', 'stopped']);
    assert.equal(interrupted.counts.killed, 2);
    assert.deepEqual((await call('GET', `/clusters/${cluster}/nodes`)).body.map((n: any) => n.status), ['error', 'error']);
    const resumed = await call('POST', `/clusters/${cluster}/deploy`, { resume: true });
    assert.equal(resumed.status, 202, JSON.stringify(resumed.body));
    let d = resumed.body;
    while (d.status === 'running') {
      await new Promise((r) => setTimeout(r, 300));
      d = (await call('GET', `/clusters/${cluster}/deployments/${d.id}`)).body;
    }
    // A failure carries its failed tasks' own words (status, message, output).
    if (d.status !== 'succeeded') d.failed_tasks = (await call('GET', `/deployments/${d.id}/tasks?outcome=failed&output=true`)).body;
    assert.equal(d.status, 'succeeded', JSON.stringify(d));
    assert.ok(!existsSync(orphan), 'the next run on this machine removed the killed server\'s working folder');
    for (const i of [10, 11]) {
      const names = (await onHost(i, 'cat /var/lib/hearth/ran')).trim().split('\n').map((l) => l.split(' ')[1]);
      assert.deepEqual(names, ['a', 'b', 'b', 'c'], `host ${i}: a ran once; b, cut short, again; then c`);
    }
    assert.equal((await call('GET', `/clusters/${cluster}`)).body.status, 'operational');
    assert.deepEqual((await call('GET', `/clusters/${cluster}/nodes`)).body.map((n: any) => n.status), ['ready', 'ready']);
  });
});
