/**
 * The deploy layer on real hosts (1-3), without a server: core's graph for a small release of real
 * shell scripts, walked over SSH. Each task appends "<time> <task>" to /var/lib/hearth/ran on its
 * host; the hosts share this machine's clock, so order across hosts is read from the times.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildDeploymentGraph, fuelConditions } from '../../src/core/graph/index.js';
import type { Task } from '../../src/core/tasks/model.js';
import { DryRunTransport, SshTransport, runDeployment, type DeploymentPlan, type RunSummary, type TaskOutcome, type VertexState } from '../../src/deploy/index.js';
import { HOSTS_NOTE, host, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const HOSTILE = `it's "$(touch /tmp/pwned)" \`touch /tmp/pwned\`; touch /tmp/pwned`;

function task(id: string, fields: Partial<Task> & { fail_on_error?: boolean } = {}): Task {
  const { fail_on_error, ...rest } = fields;
  return { id, type: 'shell', version: '2.1.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'release' }, ...(fail_on_error === false ? { extra: { fail_on_error } } : {}), ...rest };
}
const sh = (id: string, cmd: string, fields: Partial<Task> & { fail_on_error?: boolean } = {}) => {
  const { parameters, ...rest } = fields;
  return task(id, { roles: '*', ...rest, parameters: { ...parameters, cmd } });
};
const mark = (name: string) => `bash record.sh ${name}`;

const TASKS: Task[] = [
  sh('prepare', `${mark('prepare')} && test -s /etc/hearth/deployment.yaml && cmp /etc/hearth/deployment.yaml /etc/astute.yaml && grep -q "^uid:" /etc/astute.yaml`),
  sh('ctl-write', `${mark('ctl-write')} && sleep 1`, { roles: ['controller'], requires: ['prepare'] }),
  task('ctl-config', { type: 'upload_file', roles: ['controller'], requires: ['ctl-write'], parameters: { path: `/etc/hearth/odd name ${HOSTILE}.conf`, data: { yaql_exp: "'uid=' + $.uid" } } }),
  sh('compute-after-controller', mark('compute-after-controller'), { roles: ['compute'], requires: ['prepare'], crossDepends: [{ name: 'ctl-config', role: ['controller'] }] }),
  task('copy', { type: 'copy_files', roles: ['compute'], requires: ['prepare'], parameters: { files: [{ src: 'files/motd', dst: '/etc/hearth/motd' }], permissions: '0600', dir_permissions: '0750' } }),
  task('tree', { type: 'sync', roles: ['compute'], requires: ['copy'], parameters: { src: 'tree', dst: '/var/lib/hearth/tree' } }),
  sh('fails', `${mark('fails')}; exit 7`, { roles: ['compute'], requires: ['tree'] }),
  sh('after-fails', mark('after-fails'), { roles: ['compute'], requires: ['fails'] }),
  sh('independent', mark('independent'), { roles: ['compute'], requires: ['tree'] }),
  sh('tolerated', `${mark('tolerated')}; exit 3`, { roles: ['controller'], requires: ['ctl-config'], fail_on_error: false }),
  sh('after-tolerated', mark('after-tolerated'), { roles: ['controller'], requires: ['tolerated'] }),
  sh('flaky', `${mark('flaky')}; n=$(cat /tmp/flaky 2>/dev/null || echo 0); echo $((n+1)) > /tmp/flaky; [ "$n" -ge 1 ]`, { roles: ['controller'], requires: ['after-tolerated'], parameters: { retries: 2, interval: 0 } }),
  sh('slow', 'sleep 30', { roles: ['controller'], requires: ['flaky'], parameters: { timeout: 2 } }),
  sh('hostile-cwd', 'touch /tmp/ran-in-hostile-cwd', { roles: ['controller'], requires: ['flaky'], parameters: { cwd: HOSTILE } }),
  task('on-master', { type: 'master_shell', roles: ['controller'], requires: ['flaky'], parameters: { cmd: 'echo "master ran for $(pwd)" > master.txt' } }),
  task('unknown', { type: 'teleport', roles: ['controller'], requires: ['flaky'] }),
];

describe('deploying a small release on test hosts over SSH', { skip: hosts && hosts.addresses.length >= 3 ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-run-'));
  const states = new Map<string, { state: VertexState; outcome?: TaskOutcome }>();
  let summary: RunSummary;
  let ssh: SshTransport;
  let wall = 0;

  before(async () => {
    // Fresh hosts: what an earlier run left is removed.
    for (const i of [1, 2, 3]) await onHost(i, 'rm -rf /var/lib/hearth/* /etc/hearth/* /etc/astute.yaml /tmp/flaky /tmp/pwned /tmp/ran-in-hostile-cwd');
    const scripts = join(dir, 'scripts');
    mkdirSync(join(scripts, 'files'), { recursive: true });
    mkdirSync(join(scripts, 'tree', 'sub'), { recursive: true });
    writeFileSync(join(scripts, 'record.sh'), 'mkdir -p /var/lib/hearth && echo "$(date +%s.%N) $1 $(pwd)" >> /var/lib/hearth/ran\n');
    writeFileSync(join(scripts, 'files', 'motd'), 'welcome\n');
    writeFileSync(join(scripts, 'tree', 'sub', 'leaf'), 'leaf\n');
    mkdirSync(join(dir, 'work'));
    const graph = buildDeploymentGraph({ tasks: TASKS, nodes: [{ id: '1', roles: ['controller'] }, { id: '2', roles: ['compute'] }, { id: '3', roles: ['compute'] }], roles: { controller: { has_primary: true } } });
    assert.equal(graph.cycle, undefined);
    ssh = new SshTransport({ keyFile: hosts!.keyFile });
    const targets = new Map([1, 2, 3].map((i) => [String(i), host(hosts!, i)!]));
    const plan: DeploymentPlan = {
      graph,
      targets,
      data: new Map([1, 2, 3].map((i) => [String(i), { uid: String(i), password: 'hunter2-secret' }])),
      sources: new Map([['release', { folder: 'test-release-1.0.0', localDir: scripts }]]),
      workDir: join(dir, 'work'),
      secrets: ['hunter2-secret'],
    };
    const started = Date.now();
    summary = await runDeployment(plan, { transport: ssh, events: { finished: (v, state, outcome) => states.set(`${v.node}/${v.task.id}`, { state, ...(outcome ? { outcome } : {}) }) }, sleep: async () => undefined });
    wall = Date.now() - started;
  });
  after(async () => {
    await ssh?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ran = async (i: number) => (await onHost(i, 'cat /var/lib/hearth/ran 2>/dev/null || true')).trim().split('\n').filter(Boolean).map((l) => { const [t, name, cwd] = l.split(' '); return { t: Number(t), name, cwd }; });
  const state = (node: number, id: string) => states.get(`${node}/${id}`)?.state;

  test('each host ran its tasks, in the graph\'s order, in the scripts folder delivered to it', async () => {
    const ctl = await ran(1);
    const c2 = await ran(2);
    assert.deepEqual(ctl.map((r) => r.name), ['prepare', 'ctl-write', 'tolerated', 'after-tolerated', 'flaky', 'flaky'], JSON.stringify([...states]));
    assert.equal(c2[0]?.name, 'prepare');
    assert.deepEqual(c2.map((r) => r.name).sort(), ['compute-after-controller', 'fails', 'independent', 'prepare']);
    for (const r of [...ctl, ...c2]) assert.equal(r.cwd, '/etc/hearth/plugins/test-release-1.0.0');
    // Across hosts: the compute task started after the controller's upload finished (after ctl-write).
    const ctlWrite = ctl.find((r) => r.name === 'ctl-write')!.t;
    for (const i of [2, 3]) {
      const mine = (await ran(i)).find((r) => r.name === 'compute-after-controller');
      assert.ok(mine && mine.t > ctlWrite + 1, `host ${i}: compute-after-controller at ${mine?.t}, ctl-write at ${ctlWrite}`);
    }
    assert.ok(wall < 120_000, `wall ${wall} ms`);
  });

  test('files: deployment data (0600), upload_file with YAQL data at a hostile path, copy_files modes, sync', async () => {
    assert.equal((await onHost(1, 'stat -c %a /etc/hearth/deployment.yaml /etc/astute.yaml')).trim(), '600\n600');
    assert.match(await onHost(1, 'cat /etc/hearth/deployment.yaml'), /password: hunter2-secret/);
    assert.equal(await onHost(1, `cat "/etc/hearth/odd name ${HOSTILE.replace(/(["$`\\])/g, '\\$1')}.conf"`), 'uid=1');
    assert.equal((await onHost(2, 'cat /etc/hearth/motd; stat -c %a /etc/hearth/motd /etc/hearth')).trim(), 'welcome\n600\n750');
    assert.equal((await onHost(3, 'cat /var/lib/hearth/tree/sub/leaf')).trim(), 'leaf');
    for (const i of [1, 2, 3]) assert.equal((await onHost(i, 'ls /tmp/pwned 2>/dev/null || echo clean')).trim(), 'clean', `host ${i}`);
  });

  test('a failure stops its dependents only; fail_on_error false, retries, a timeout, an unknown type', async () => {
    for (const i of [2, 3]) {
      assert.equal(state(i, 'fails'), 'error');
      assert.equal(states.get(`${i}/fails`)!.outcome!.exitCode, 7);
      assert.equal(state(i, 'after-fails'), 'stopped');
      assert.match(states.get(`${i}/after-fails`)!.outcome!.message!, /fails failed on node/);
      assert.equal(state(i, 'independent'), 'ready');
    }
    assert.equal(state(1, 'tolerated'), 'error');
    assert.equal(state(1, 'after-tolerated'), 'ready');
    assert.equal(states.get('1/flaky')!.outcome!.attempts, 2);
    assert.equal(state(1, 'flaky'), 'ready');
    const slow = states.get('1/slow')!;
    assert.equal(slow.state, 'error');
    assert.equal(slow.outcome!.timedOut, true);
    assert.match(slow.outcome!.message!, /timed out after 2 s/);
    assert.equal(state(1, 'hostile-cwd'), 'error', 'the hostile folder does not exist: cd fails, nothing else runs');
    assert.equal((await onHost(1, 'ls /tmp/ran-in-hostile-cwd 2>/dev/null || echo no')).trim(), 'no');
    assert.equal(state(1, 'unknown'), 'error');
    assert.match(states.get('1/unknown')!.outcome!.message!, /task type 'teleport' cannot run/);
    assert.deepEqual(summary.failed.map((f) => `${f.node}/${f.task.id}`).sort(), ['1/hostile-cwd', '1/slow', '1/unknown', '2/fails', '3/fails']);
    assert.deepEqual(summary.tolerated.map((f) => f.task.id), ['tolerated']);
  });

  test('master_shell ran in the deployment folder on the server; secrets never in output', () => {
    assert.match(readFileSync(join(dir, 'work', 'master.txt'), 'utf8'), /master ran for .*work/);
    for (const { outcome } of states.values()) assert.doesNotMatch(outcome?.output ?? '', /hunter2-secret/);
  });
});

describe('the dry-run transport walks the same plan and touches nothing', () => {
  test('records the commands, answers success', async () => {
    const graph = buildDeploymentGraph({ tasks: [sh('a', 'echo a'), sh('b', 'echo b', { requires: ['a'] })], nodes: [{ id: '1', roles: ['x'] }] });
    const dry = new DryRunTransport();
    const finished: string[] = [];
    const summary = await runDeployment(
      { graph, targets: new Map([['1', { id: '1', name: 'n', address: '10.77.0.250', port: 22, user: 'root' }]]), data: new Map(), sources: new Map([['release', { folder: 'r-1' }]]), workDir: tmpdir(), secrets: [] },
      { transport: dry, events: { finished: (v, s) => finished.push(`${v.task.id}:${s}`) } },
    );
    assert.deepEqual(finished, ['a:ready', 'b:ready']);
    assert.equal(summary.failed.length, 0);
    assert.match(dry.calls[0].command, /deployment\.yaml/);
    assert.deepEqual(dry.calls.slice(2).map((c) => /exec bash --noprofile --norc -c ('[^']*')/.exec(c.command)?.[1]), ["'echo a'", "'echo b'"]);
  });
});

describe('reboot and puppet on test hosts', { skip: hosts && hosts.addresses.length >= 3 ? false : HOSTS_NOTE }, () => {
  test('a reboot task waits for the host to go and come back; a puppet manifest applies with its modules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-reboot-'));
    const ssh = new SshTransport({ keyFile: hosts!.keyFile });
    try {
      mkdirSync(join(dir, 'manifests'));
      mkdirSync(join(dir, 'modules', 'marker', 'manifests'), { recursive: true });
      writeFileSync(join(dir, 'manifests', 'site.pp'), "include marker\n");
      writeFileSync(join(dir, 'modules', 'marker', 'manifests', 'init.pp'), "class marker {\n  file { '/var/lib/hearth/puppet-ran': content => \"applied by puppet\\n\" }\n}\n");
      await onHost(2, 'rm -f /var/lib/hearth/after-reboot; nohup sleep 1000 >/dev/null 2>&1 &');
      await onHost(3, 'rm -f /var/lib/hearth/puppet-ran');
      const graph = buildDeploymentGraph({
        tasks: [
          task('restart', { type: 'reboot', roles: ['rebooted'], parameters: { timeout: 60 } }),
          sh('after-reboot', 'pgrep -x sleep && exit 9; date > /var/lib/hearth/after-reboot', { roles: ['rebooted'], requires: ['restart'] }),
          task('apply', { type: 'puppet', roles: ['puppet'], parameters: { puppet_manifest: 'manifests/site.pp', puppet_modules: 'modules', timeout: 600 } }),
        ],
        nodes: [{ id: '2', roles: ['rebooted'] }, { id: '3', roles: ['puppet'] }],
      });
      const states = new Map<string, { state: VertexState; outcome?: TaskOutcome }>();
      await runDeployment(
        { graph, targets: new Map([2, 3].map((i) => [String(i), host(hosts!, i)!])), data: new Map(), sources: new Map([['release', { folder: 'reboot-test-1.0.0', localDir: dir }]]), workDir: dir, secrets: [] },
        { transport: ssh, events: { finished: (v, state, outcome) => states.set(`${v.node}/${v.task.id}`, { state, ...(outcome ? { outcome } : {}) }) } },
      );
      assert.equal(states.get('2/restart')?.state, 'ready', JSON.stringify([...states]));
      assert.equal(states.get('2/after-reboot')?.state, 'ready', 'the sleep started before the reboot is gone: every process of the host ended');
      assert.match(await onHost(2, 'cat /var/lib/hearth/after-reboot'), /\d/);
      assert.equal(states.get('3/apply')?.state, 'ready', JSON.stringify(states.get('3/apply')));
      assert.equal(await onHost(3, 'cat /var/lib/hearth/puppet-ran'), 'applied by puppet\n');
    } finally {
      await ssh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a host that disappears mid-run', { skip: hosts && hosts.addresses.length >= 3 ? false : HOSTS_NOTE }, () => {
  const script = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;
  after(async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync(script, ['plug', '1']);
  });

  test('its running task fails with the SSH error in words, its dependents stop, the other host goes on', async () => {
    const { execFileSync } = await import('node:child_process');
    const ssh = new SshTransport({ keyFile: hosts!.keyFile, connectTimeoutS: 5 });
    try {
      const graph = buildDeploymentGraph({
        tasks: [sh('long', 'sleep 40', { roles: ['gone'], parameters: { timeout: 120 } }), sh('after', 'true', { roles: ['gone'], requires: ['long'] }), sh('short', 'true', { roles: ['other'] })],
        nodes: [{ id: '1', roles: ['gone'] }, { id: '2', roles: ['other'] }],
      });
      const states = new Map<string, { state: VertexState; outcome?: TaskOutcome }>();
      await onHost(1, 'pkill -x sleep; true');
      const started = Date.now();
      await runDeployment(
        { graph, targets: new Map([1, 2].map((i) => [String(i), host(hosts!, i)!])), data: new Map(), sources: new Map([['release', { folder: 'gone-1.0.0' }]]), workDir: tmpdir(), secrets: [] },
        {
          transport: ssh,
          events: {
            started: (v) => {
              if (v.task.id !== 'long') return;
              // Unplugged once the command runs there (not while the node is being prepared).
              const poll = async (): Promise<void> => {
                if ((await onHost(1, 'pgrep -fx "sleep 40" >/dev/null && echo yes || echo no')).trim() === 'yes') execFileSync(script, ['unplug', '1']);
                else await new Promise((r) => setTimeout(r, 200)).then(poll);
              };
              void poll();
            },
            finished: (v, state, outcome) => states.set(`${v.node}/${v.task.id}`, { state, ...(outcome ? { outcome } : {}) }),
          },
        },
      );
      const long = states.get('1/long')!;
      assert.equal(long.state, 'error', JSON.stringify([...states]));
      assert.match(long.outcome!.message ?? '', /stopped answering|cannot be reached/);
      assert.equal(states.get('1/after')?.state, 'stopped');
      assert.equal(states.get('2/short')?.state, 'ready');
      assert.ok(Date.now() - started < 40_000, 'noticed before the command would have ended');
    } finally {
      execFileSync(script, ['plug', '1']);
      await ssh.close();
    }
  });
});

describe('strategies on test hosts: parallel amounts as a share and as YAQL', { skip: hosts && hosts.addresses.length >= 3 ? false : HOSTS_NOTE }, () => {
  test('"34%" of three computes runs one at a time; a YAQL amount giving 2 runs two, then the third', async () => {
    for (const i of [1, 2, 3]) await onHost(i, 'rm -rf /var/lib/hearth/*');
    const dir = mkdtempSync(join(tmpdir(), 'hearth-pace-'));
    const ssh = new SshTransport({ keyFile: hosts!.keyFile });
    try {
      const step = (name: string) => `mkdir -p /var/lib/hearth && echo "$(date +%s.%N) ${name} start" >> /var/lib/hearth/paced && sleep 1 && echo "$(date +%s.%N) ${name} end" >> /var/lib/hearth/paced`;
      const nodes = [1, 2, 3].map((i) => ({ id: String(i), roles: ['compute'] }));
      // Two runs, so that the second task's nodes start together if nothing paces them.
      for (const t of [sh('share', step('share'), { roles: ['compute'], strategy: { type: 'parallel', amount: '34%' } }), sh('yaql', step('yaql'), { roles: ['compute'], strategy: { type: 'parallel', amount: '$.batch' } })]) {
        const graph = buildDeploymentGraph({ tasks: [t], nodes, conditions: fuelConditions({ common: { batch: 2 } }) });
        const summary = await runDeployment(
          { graph, targets: new Map([1, 2, 3].map((i) => [String(i), host(hosts!, i)!])), data: new Map(), sources: new Map([['release', { folder: 'pace-1.0.0' }]]), workDir: dir, secrets: [] },
          { transport: ssh, events: { finished: () => undefined } },
        );
        assert.equal(summary.failed.length, 0);
      }
      const spans = new Map<string, Array<{ start: number; end: number }>>();
      for (const i of [1, 2, 3]) {
        const lines = (await onHost(i, 'cat /var/lib/hearth/paced')).trim().split('\n').map((l) => l.split(' '));
        for (const name of ['share', 'yaql']) {
          const start = Number(lines.find((l) => l[1] === name && l[2] === 'start')![0]);
          const end = Number(lines.find((l) => l[1] === name && l[2] === 'end')![0]);
          (spans.get(name) ?? spans.set(name, []).get(name)!).push({ start, end });
        }
      }
      const share = spans.get('share')!.sort((a, b) => a.start - b.start);
      for (let k = 1; k < share.length; k++) assert.ok(share[k].start >= share[k - 1].end, `share: node ${k + 1} started before node ${k} ended: ${JSON.stringify(share)}`);
      // Which two nodes go first is the scheduler's choice: read them in the order they started.
      const [a, b, c] = spans.get('yaql')!.sort((x, y) => x.start - y.start);
      assert.ok(a.start < b.end && b.start < a.end, `yaql: the first two nodes ran together: ${JSON.stringify([a, b])}`);
      assert.ok(c.start >= Math.min(a.end, b.end), `yaql: the third waited for one of them: ${JSON.stringify([a, b, c])}`);
    } finally {
      await ssh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
