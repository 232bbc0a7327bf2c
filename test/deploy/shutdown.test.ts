/**
 * A server asked to shut down (SIGTERM) in the middle of a real deployment on hosts 24 and 25:
 * nothing new starts after the signal (the hosts' own clocks say so), the running task is killed
 * when the shutdown's grace period ends and recorded as killed by the shutdown, its dependents as
 * stopped, the run as interrupted; the next server started with --resume-interrupted resumes it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { killed, startChild, type ChildServer } from '../server/support/child.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const HOSTS = [24, 25];
const GRAPH = `- id: a
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "bash record.sh a", timeout: 60}
- id: b
  type: shell
  version: 2.1.0
  roles: ['*']
  requires: [a]
  parameters: {cmd: "bash record.sh b; echo started-b; sleep 20; bash record.sh b-finished", timeout: 60}
- id: c
  type: shell
  version: 2.1.0
  roles: ['*']
  requires: [b]
  parameters: {cmd: "bash record.sh c", timeout: 60}
`;

describe('SIGTERM during a real deployment', { skip: hosts && hosts.addresses.length >= Math.max(...HOSTS) ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-shutdown-'));
  let server: ChildServer | undefined;
  after(async () => {
    if (server) await killed(server.process, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server!.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${server!.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const ran = async (i: number) => (await onHost(i, 'cat /var/lib/hearth/ran 2>/dev/null || true')).trim().split('\n').filter(Boolean).map((l) => ({ t: Number(l.split(' ')[0]), name: l.split(' ')[1] }));

  test('nothing starts after the signal; the running task is killed by the shutdown and recorded so; the run resumes on the next start', async () => {
    for (const i of HOSTS) await onHost(i, 'rm -rf /var/lib/hearth/* /etc/hearth/*');
    const made = createPlugin('shuttest', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    const release = join(made.dir!, 'shuttest-release');
    writeFileSync(join(release, 'graphs', 'deployment.yaml'), GRAPH);
    writeFileSync(join(release, 'deployment_scripts', 'record.sh'), 'mkdir -p /var/lib/hearth && echo "$(date +%s.%N) $1" >> /var/lib/hearth/ran\n');
    const data = join(dir, 'data');
    mkdirSync(join(data, 'ssh'), { recursive: true, mode: 0o700 });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data, HEARTH_CHILD_SHUTDOWN_GRACE_MS: '1500' });
    assert.equal((await call('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const releaseId = (await call('GET', '/releases')).body.find((r: any) => r.id.startsWith('shuttest')).id;
    const cluster = (await call('POST', '/clusters', { name: 'shutdown', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] })).body.id;
    const ids: number[] = [];
    for (const i of HOSTS) {
      const added = await call('POST', '/nodes', { address: hosts!.addresses[i - 1], cluster_id: cluster });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      ids.push(added.body.node.id);
    }
    assert.equal((await call('POST', `/clusters/${cluster}/nodes`, { assignments: [{ node_id: ids[0], roles: ['controller'] }, { node_id: ids[1], roles: ['compute'] }] })).status, 200);
    const first = (await call('POST', `/clusters/${cluster}/deploy`)).body;
    assert.equal(first.mode, 'real', JSON.stringify(first));
    const until = Date.now() + 90_000;
    // Running in the records and started on the hosts (the records say so a moment earlier).
    const bOnHosts = async () => (await Promise.all(HOSTS.map(ran))).every((r) => r.some((x) => x.name === 'b'));
    while ((await call('GET', `/deployments/${first.id}/tasks?task=b&status=running`)).body.length < 2 || !(await bOnHosts())) {
      assert.ok(Date.now() < until, 'b never ran on both nodes');
      await new Promise((r) => setTimeout(r, 200));
    }
    const signalledAt = Date.now() / 1000;
    const exited = new Promise<number | null>((resolve) => server!.process.once('exit', (code) => resolve(code)));
    server.process.kill('SIGTERM');
    const code = await exited;
    assert.equal(code, 0, `the server ended cleanly: ${server.stderr()}`);
    for (const i of HOSTS) {
      const names = await ran(i);
      assert.deepEqual(names.map((r) => r.name), ['a', 'b'], `host ${i}: c never started, and b was killed before it finished`);
      assert.ok(names.every((r) => r.t < signalledAt), `host ${i}: nothing started after the signal`);
    }
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data, HEARTH_CHILD_RESUME_INTERRUPTED: '1' });
    const interrupted = (await call('GET', `/clusters/${cluster}/deployments/${first.id}`)).body;
    assert.equal(interrupted.status, 'interrupted', JSON.stringify(interrupted));
    assert.match(interrupted.message, /server shut down/);
    const tasks = (await call('GET', `/deployments/${first.id}/tasks`)).body as Array<{ task_id: string; outcome: string; message: string | null }>;
    const of = (id: string) => tasks.filter((t) => t.task_id === id);
    assert.deepEqual(of('a').map((t) => t.outcome), ['succeeded', 'succeeded']);
    assert.deepEqual(of('b').map((t) => t.outcome), ['killed', 'killed']);
    for (const t of of('b')) assert.match(t.message ?? '', /killed: the grace period ended after the server shut down/);
    assert.deepEqual(of('c').map((t) => t.outcome), ['stopped', 'stopped']);
    assert.equal(interrupted.counts.killed, 2);
    assert.equal(interrupted.done, interrupted.counts.succeeded);
    // --resume-interrupted: the new server resumed it by itself, running only what did not succeed.
    let resumed: any;
    const until2 = Date.now() + 120_000;
    for (;;) {
      const list = (await call('GET', `/clusters/${cluster}/deployments`)).body;
      resumed = list.find((d: any) => d.id > first.id);
      if (resumed && resumed.status !== 'running') break;
      assert.ok(Date.now() < until2, `no resumed run ended: ${JSON.stringify(list)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.equal(resumed.status, 'succeeded', JSON.stringify(resumed));
    for (const i of HOSTS) assert.deepEqual((await ran(i)).map((r) => r.name), ['a', 'b', 'b', 'b-finished', 'c'], `host ${i}: a once; b again in full; then c`);
    assert.equal((await call('GET', `/clusters/${cluster}`)).body.status, 'operational');
    assert.deepEqual((await call('GET', `/clusters/${cluster}/nodes`)).body.map((n: any) => n.status), ['ready', 'ready']);
  });
});
