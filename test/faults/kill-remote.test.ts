/**
 * A server SIGKILLed while a task runs on a node (host 21; issue 24): the task's processes on the
 * node die with the connection within seconds (they kept running, and `--resume` started the task
 * again beside them), and the resumed run runs the task once more, alone: the first attempt never
 * finished, and no two attempts overlap.
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
const HOST = 21;
// b records its start, works 25 s (a process of its own, as a real tool would be), records its end.
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
  parameters: {cmd: "bash record.sh b-start; bash -c 'exec -a hearth-long-work sleep 25'; bash record.sh b-end", timeout: 120}
`;

describe('a server killed while a task runs on a node', { skip: hosts && hosts.addresses.length >= HOST ? false : HOSTS_NOTE, timeout: 400_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-killremote-'));
  let server: ChildServer | undefined;
  after(async () => {
    if (server) await killed(server.process, 'SIGKILL');
    await onHost(HOST, 'pkill -fx "hearth-long-work 25" || true').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server!.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${server!.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const working = async () => (await onHost(HOST, 'pgrep -fx "hearth-long-work 25" | wc -l')).trim();

  test('the remote task dies with the connection, and the resumed run runs it alone', async () => {
    await onHost(HOST, 'rm -rf /var/lib/hearth/* /etc/hearth/*; pkill -fx "hearth-long-work 25" || true');
    const made = createPlugin('killremote', { releasePlugin: true, parentDir: dir });
    const release = join(made.dir!, 'killremote-release');
    writeFileSync(join(release, 'graphs', 'deployment.yaml'), GRAPH);
    writeFileSync(join(release, 'deployment_scripts', 'record.sh'), 'mkdir -p /var/lib/hearth && echo "$(date +%s.%N) $1" >> /var/lib/hearth/ran\n');
    const data = join(dir, 'data');
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data });
    assert.equal((await call('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const releaseId = (await call('GET', '/releases')).body.find((r: any) => r.id.startsWith('killremote')).id;
    const cluster = (await call('POST', '/clusters', { name: 'killremote', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] })).body.id;
    const node = (await call('POST', '/nodes', { address: hosts!.addresses[HOST - 1], cluster_id: cluster })).body.node.id;
    assert.equal((await call('POST', `/clusters/${cluster}/nodes`, { assignments: [{ node_id: node, roles: ['controller'] }] })).status, 200);
    const first = (await call('POST', `/clusters/${cluster}/deploy`)).body;
    assert.equal(first.mode, 'real', JSON.stringify(first));
    let until = Date.now() + 90_000;
    while ((await working()) !== '1') {
      assert.ok(Date.now() < until, 'b never started its work on the node');
      await new Promise((r) => setTimeout(r, 300));
    }
    // Reports are written in batches (every 250 ms): a task that ended just before the kill may not
    // be recorded yet, and a resumed run rightly does it again. The kill waits until a is recorded,
    // so what is checked is b's attempts.
    until = Date.now() + 30_000;
    for (;;) {
      const tasks: Array<{ task_id: string; outcome: string }> = (await call('GET', `/deployments/${first.id}/tasks`)).body;
      if (tasks.find((t) => t.task_id === 'a')?.outcome === 'succeeded' && tasks.find((t) => t.task_id === 'b')?.outcome === 'running') break;
      assert.ok(Date.now() < until, `a was never recorded succeeded with b running: ${JSON.stringify(tasks)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await killed(server.process, 'SIGKILL');
    const killedAt = Date.now();
    until = killedAt + 15_000;
    while ((await working()) !== '0') {
      if (Date.now() > until) console.log(await onHost(HOST, 'ps -eo pid,ppid,pgid,sid,args'));
      assert.ok(Date.now() < until, 'the task kept running on the node 15 s after its server was killed');
      await new Promise((r) => setTimeout(r, 300));
    }
    const goneAfter = Date.now() - killedAt;
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data });
    assert.equal((await call('GET', `/clusters/${cluster}/deployments/${first.id}`)).body.status, 'interrupted');
    const resumed = await call('POST', `/clusters/${cluster}/deploy`, { resume: true });
    assert.equal(resumed.status, 202, JSON.stringify(resumed.body));
    let d = resumed.body;
    until = Date.now() + 180_000;
    while (d.status === 'running') {
      assert.ok(Date.now() < until, 'the resumed run never ended');
      assert.ok(Number(await working()) <= 1, 'two attempts of b run at once');
      await new Promise((r) => setTimeout(r, 1000));
      d = (await call('GET', `/clusters/${cluster}/deployments/${d.id}`)).body;
    }
    assert.equal(d.status, 'succeeded', JSON.stringify(d));
    const names = (await onHost(HOST, 'cat /var/lib/hearth/ran')).trim().split('\n').map((l) => l.split(' ')[1]);
    assert.deepEqual(names, ['a', 'b-start', 'b-start', 'b-end'], `the first attempt of b never finished (its work was gone ${goneAfter} ms after the kill)`);
  });
});
