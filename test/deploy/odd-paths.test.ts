/**
 * A data folder named with spaces, quotes, `%`, `${...}` and non-ASCII (host 20; issue 24): the
 * server reaches a real node through it (facts, deployment data, scripts by rsync, tasks), and ssh
 * writes nothing outside it (the operator's ~/.ssh/known_hosts is untouched; no stray file in the
 * server's folder). ssh's option values once split such a path (UserKnownHostsFile takes a list).
 * The same run proves a task printing a NUL byte and failing with exit 7 is recorded as it ended.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { killed, startChild, type ChildServer } from '../server/support/child.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const HOST = 20;
const ODD = `d ir 'q" é%h \${HOME} ü`;
const GRAPH = `- id: nul
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "bash record.sh nul; printf 'before\\\\000after\\\\n'; exit 7", timeout: 60}
- id: fine
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "bash record.sh fine; echo fine", timeout: 60}
`;

describe('a data folder with an odd name, on a real node', { skip: hosts && hosts.addresses.length >= HOST ? false : HOSTS_NOTE, timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-odd-'));
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

  test('facts, delivery and tasks work; nothing is written outside the data folder; a NUL in output loses no report', async () => {
    await onHost(HOST, 'rm -rf /var/lib/hearth/* /etc/hearth/*');
    const knownHosts = join(homedir(), '.ssh', 'known_hosts');
    const knownBefore = existsSync(knownHosts) ? readFileSync(knownHosts, 'utf8') : undefined;
    const cwdBefore = new Set(readdirSync(process.cwd()));
    const made = createPlugin('oddpath', { releasePlugin: true, parentDir: dir });
    const release = join(made.dir!, 'oddpath-release');
    writeFileSync(join(release, 'graphs', 'deployment.yaml'), GRAPH);
    writeFileSync(join(release, 'deployment_scripts', 'record.sh'), 'mkdir -p /var/lib/hearth && echo "$1" >> /var/lib/hearth/ran\n');
    const data = join(dir, ODD);
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startChild({ HEARTH_CHILD_DATA_DIR: data });
    assert.equal((await call('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const releaseId = (await call('GET', '/releases')).body.find((r: any) => r.id.startsWith('oddpath')).id;
    const cluster = (await call('POST', '/clusters', { name: 'odd', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] })).body.id;
    const added = await call('POST', '/nodes', { address: hosts!.addresses[HOST - 1], cluster_id: cluster });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const node = added.body.node.id;
    assert.equal((await call('POST', `/clusters/${cluster}/nodes`, { assignments: [{ node_id: node, roles: ['controller'] }] })).status, 200);
    let d = (await call('POST', `/clusters/${cluster}/deploy`)).body;
    assert.equal(d.mode, 'real', JSON.stringify(d));
    const until = Date.now() + 120_000;
    while (d.status === 'running') {
      assert.ok(Date.now() < until, 'the run never ended');
      await new Promise((r) => setTimeout(r, 300));
      d = (await call('GET', `/clusters/${cluster}/deployments/${d.id}`)).body;
    }
    const tasks = Object.fromEntries(((await call('GET', `/deployments/${d.id}/tasks?output=true`)).body as Array<{ task_id: string; status: string; exit_status: number | null; message: string | null; output?: string }>).map((t) => [t.task_id, t]));
    assert.equal(tasks.nul.status, 'error', JSON.stringify(tasks.nul));
    assert.equal(tasks.nul.exit_status, 7);
    assert.equal(d.status, 'failed', JSON.stringify(d));
    assert.match(d.message, /nul on node/);
    assert.deepEqual((await onHost(HOST, 'cat /var/lib/hearth/ran')).trim().split('\n').sort(), ['fine', 'nul'].filter((t) => t === 'nul' || tasks.fine.status === 'ready').sort());
    assert.equal(tasks.nul.output, 'before\uFFFDafter\n');
    // Nothing of ssh's outside the data folder.
    assert.equal(existsSync(knownHosts) ? readFileSync(knownHosts, 'utf8') : undefined, knownBefore, '~/.ssh/known_hosts is untouched');
    const stray = readdirSync(process.cwd()).filter((f) => !cwdBefore.has(f) && ODD.split(' ').some((part) => f.includes(part.slice(0, 3))));
    assert.deepEqual(stray, [], 'no file made from a piece of the data folder\'s name');
    assert.deepEqual(readdirSync(dir).sort(), [ODD, 'oddpath'].sort(), 'nothing beside the data folder');
    assert.ok(readdirSync(join(data, 'ssh', 'control')).some((f) => f.endsWith('.known')), 'host keys are kept in the data folder');
  });
});
