/**
 * Real deployments on real test hosts (scripts/test-hosts.sh), Hearth against the graph's critical
 * path (the physical limit) and against Ansible running the same scripts in the same order.
 *
 * Hosts: HEARTH_BENCH_HOSTS (comma-separated addresses, hosts no test is using meanwhile), else
 * HEARTH_TEST_HOSTS; every host listed is used, the first as the controller, the others as
 * computes (issue 30 measures 50: `sudo scripts/test-hosts.sh up 100 --from 51`, then
 * HEARTH_BENCH_HOSTS=$(seq -s, -f '10.77.0.%g' 61 110)). HEARTH_BENCH_RUNS runs of each (3).
 *
 * - order: tasks of 1-3 s with cross-node order. The controller runs c1 (2 s), c2 (3 s); each
 *   compute runs k1 (1 s) at once, k2 (2 s) once the controller's c2 is done, then k3 (3 s); the
 *   controller's c3 (1 s) waits for every compute's k3. Critical path c1 c2 k2 k3 c3, 11 s.
 * - tiny: 10 tasks of `true` a node, one after the other, no cross-node order: the per-task cost.
 *
 * Ansible (ansible-playbook on PATH; skipped without) runs the same commands with its best settings:
 * forks = hosts, pipelining, ControlMaster/ControlPersist, no fact gathering, the free strategy.
 * Cross-node order is a play boundary (every host of a play ends before the next play starts): the
 * order run is three plays (c1 c2 | k1; k2 k3; c3), which adds no wait the graph lacks (k1 ends
 * long before c2). Both tools start warm: Hearth's connections are open (as in a server whose nodes
 * are registered), Ansible's control masters too (a warm-up `ansible -m raw`). Wall time is from the
 * start to the last task's end; for Ansible that is its whole process, and its own start (an empty
 * play on every host) is printed beside it. Runs alternate Hearth and Ansible.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildDeploymentGraph, describeVertex, estimateRun } from '../src/core/graph/index.js';
import type { Task } from '../src/core/tasks/model.js';
import { SshTransport, runDeployment, type DeployTarget } from '../src/deploy/index.js';

const addresses = (process.env.HEARTH_BENCH_HOSTS || process.env.HEARTH_TEST_HOSTS || '').split(',').filter(Boolean);
if (addresses.length < 2) {
  console.log('HEARTH_BENCH_HOSTS / HEARTH_TEST_HOSTS is not set (sudo scripts/test-hosts.sh up N): skipped');
  process.exit(0);
}
const keyFile = process.env.HEARTH_TEST_HOSTS_KEY ?? '/run/hearth-test-hosts/client_key';
const runs = Number(process.env.HEARTH_BENCH_RUNS ?? 3);
const ansible = spawnSync('ansible-playbook', ['--version'], { encoding: 'utf8' }).status === 0;
const nodes = addresses.map((address, i) => ({ id: String(i + 1), address, role: i === 0 ? 'controller' : 'compute' }));

interface Step {
  id: string;
  role: 'controller' | 'compute' | 'any';
  seconds: number;
  after?: string;
  cross?: { task: string; role: 'controller' | 'compute' };
}
interface Scenario {
  name: string;
  steps: Step[];
  /** Ansible plays: task ids, in order; a play ends on every host before the next one starts. */
  plays: string[][];
}
const tiny: Step[] = Array.from({ length: 10 }, (_, i) => ({ id: `t${i + 1}`, role: 'any', seconds: 0, ...(i ? { after: `t${i}` } : {}) }));
const scenarios: Scenario[] = [
  {
    name: 'order',
    steps: [
      { id: 'c1', role: 'controller', seconds: 2 },
      { id: 'c2', role: 'controller', seconds: 3, after: 'c1' },
      { id: 'k1', role: 'compute', seconds: 1 },
      { id: 'k2', role: 'compute', seconds: 2, after: 'k1', cross: { task: 'c2', role: 'controller' } },
      { id: 'k3', role: 'compute', seconds: 3, after: 'k2' },
      { id: 'c3', role: 'controller', seconds: 1, after: 'c2', cross: { task: 'k3', role: 'compute' } },
    ],
    plays: [['c1', 'c2', 'k1'], ['k2', 'k3'], ['c3']],
  },
  { name: 'tiny', steps: tiny, plays: [tiny.map((s) => s.id)] },
];
const command = (s: Step) => (s.seconds ? `sleep ${s.seconds}` : 'true');
const rolesOf = (s: Step) => (s.role === 'any' ? ['controller', 'compute'] : [s.role]);

function graphOf(sc: Scenario) {
  const tasks: Task[] = sc.steps.map((s) => ({
    id: s.id, type: 'shell', version: '2.1.0', roles: rolesOf(s), requires: s.after ? [s.after] : [], requiredFor: [], crossDependedBy: [],
    origin: { source: 'release' }, crossDepends: s.cross ? [{ name: s.cross.task, role: [s.cross.role] }] : [],
    parameters: { cmd: command(s), timeout: 120 },
  }));
  const graph = buildDeploymentGraph({ tasks, nodes: nodes.map((n) => ({ id: n.id, roles: [n.role] })) });
  const seconds = new Map(sc.steps.map((s) => [s.id, s.seconds]));
  const est = estimateRun(graph, { duration: (v) => seconds.get(describeVertex(graph, v).task) ?? 0, marker: (v) => !seconds.has(describeVertex(graph, v).task) });
  return { graph, path: est.makespan, tasks: est.order.length };
}

async function hearth(sc: Scenario): Promise<number> {
  const { graph, tasks } = graphOf(sc);
  const ssh = new SshTransport({ keyFile });
  const targets = new Map<string, DeployTarget>();
  const failures: string[] = [];
  try {
    await Promise.all(
      nodes.map(async (n) => {
        const first: DeployTarget = { id: n.id, name: `host-${n.id}`, address: n.address, port: 22, user: 'root' };
        await ssh.exec(first, 'true');
        const known: DeployTarget = { ...first, hostKey: ssh.seenHostKey(first)! };
        // First contact goes through a connection of its own; a node with its key recorded keeps
        // its shared connection and shell open, as a server's registered node does. Without this
        // command the run's first wave opened 50 connections (about 70 ms of CPU each here) while
        // the critical path's first task started.
        await ssh.exec(known, 'true');
        targets.set(n.id, known);
      }),
    );
    const t0 = performance.now();
    const summary = await runDeployment(
      { graph, targets, data: new Map(), sources: new Map([['release', { folder: 'bench-1.0.0' }]]), workDir: tmpdir(), secrets: [] },
      { transport: ssh, events: { finished: (v, state, outcome) => void (state === 'error' && failures.push(`${v.node} ${v.task.id}: ${outcome?.message ?? ''} ${outcome?.output ?? ''}`)) } },
    );
    const wall = (performance.now() - t0) / 1000;
    if (summary.failed.length || summary.ran !== tasks) throw new Error(`Hearth ${sc.name}: ran ${summary.ran} of ${tasks}, ${summary.failed.length} failed\n${failures.join('\n')}`);
    return wall;
  } finally {
    await ssh.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-ansible-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
function ansibleSetup() {
  const hostLine = (n: (typeof nodes)[number]) => `h${n.id} ansible_host=${n.address}`;
  writeFileSync(
    join(dir, 'inventory.ini'),
    `[controller]\n${nodes.filter((n) => n.role === 'controller').map(hostLine).join('\n')}\n[compute]\n${nodes.filter((n) => n.role === 'compute').map(hostLine).join('\n')}\n` +
      `[all:vars]\nansible_user=root\nansible_python_interpreter=/usr/bin/python3\nansible_ssh_private_key_file=${keyFile}\n`,
  );
  writeFileSync(
    join(dir, 'ansible.cfg'),
    `[defaults]\ninventory = ${join(dir, 'inventory.ini')}\nforks = ${nodes.length}\nhost_key_checking = False\ngathering = explicit\nstrategy = free\ninternal_poll_interval = 0.001\nretry_files_enabled = False\n` +
      `[ssh_connection]\npipelining = True\ncontrol_path_dir = ${join(dir, 'cp')}\nssh_args = -o ControlMaster=auto -o ControlPersist=600s -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no\n`,
  );
  for (const sc of scenarios) {
    const byId = new Map(sc.steps.map((s) => [s.id, s]));
    const plays = sc.plays.map((ids) => {
      const roles = new Set(ids.flatMap((id) => rolesOf(byId.get(id)!)));
      const hosts = roles.size > 1 ? 'all' : [...roles][0];
      const tasks = ids.map((id) => {
        const s = byId.get(id)!;
        const when = hosts === 'all' && s.role !== 'any' ? `\n      when: "'${s.role}' in group_names"` : '';
        return `    - name: ${id}\n      ansible.builtin.shell: "${command(s)}"${when}`;
      });
      return `- hosts: ${hosts}\n  gather_facts: false\n  strategy: free\n  tasks:\n${tasks.join('\n')}\n`;
    });
    writeFileSync(join(dir, `${sc.name}.yml`), plays.join(''));
  }
  writeFileSync(join(dir, 'empty.yml'), `- hosts: all\n  gather_facts: false\n  tasks: []\n`);
}
const ansibleEnv = { ...process.env, ANSIBLE_CONFIG: join(dir, 'ansible.cfg') };
function ansibleRun(playbook: string): number {
  const t0 = performance.now();
  const r = spawnSync('ansible-playbook', [join(dir, playbook)], { env: ansibleEnv, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0 || /failed=[1-9]|unreachable=[1-9]/.test(r.stdout)) throw new Error(`ansible-playbook ${playbook} failed (${r.status}):\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  return wall;
}

if (ansible) {
  ansibleSetup();
  const warm = spawnSync('ansible', ['all', '-m', 'raw', '-a', 'true'], { env: ansibleEnv, encoding: 'utf8' });
  if (warm.status !== 0) throw new Error(`ansible warm-up failed:\n${warm.stdout.slice(-2000)}`);
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2 };
};
const f = (x: number, d = 2) => x.toFixed(d);
const loads: number[] = [];
const results = new Map<string, { hearth: number[]; ansible: number[]; start: number[] }>(scenarios.map((s) => [s.name, { hearth: [], ansible: [], start: [] }]));
for (let run = 0; run < runs; run++) {
  for (const sc of scenarios) {
    const r = results.get(sc.name)!;
    loads.push(loadavg()[0]);
    // Alternate which tool goes first, so neither always meets the other's aftermath.
    const order = run % 2 ? ['ansible', 'hearth'] : ['hearth', 'ansible'];
    for (const tool of order) {
      if (tool === 'hearth') r.hearth.push(await hearth(sc));
      else if (ansible) {
        r.start.push(ansibleRun('empty.yml'));
        r.ansible.push(ansibleRun(`${sc.name}.yml`));
      }
    }
  }
}

const load = stats(loads);
console.log(`${nodes.length} hosts (1 controller, ${nodes.length - 1} computes), ${runs} runs, load ${f(Math.min(...loads), 1)}-${f(Math.max(...loads), 1)} (median ${f(load.median, 1)}); min / median in seconds`);
console.log(ansible ? '' : 'ansible-playbook is not installed: the Ansible columns are skipped');
for (const sc of scenarios) {
  const { path, tasks } = graphOf(sc);
  const r = results.get(sc.name)!;
  const h = stats(r.hearth);
  const a = ansible ? stats(r.ansible) : undefined;
  const st = ansible ? stats(r.start) : undefined;
  const perNode = sc.steps.filter((s) => s.role === 'any').length;
  console.log(`\n## ${sc.name}: ${tasks} tasks, critical path ${f(path, 1)} s`);
  if (sc.name === 'tiny') {
    console.log('| tool | wall s | per task (wall / tasks a node) ms | Hearth / Ansible |');
    console.log('|---|---|---|---|');
    console.log(`| Hearth | ${f(h.min)} / ${f(h.median)} | ${f((h.min / perNode) * 1000, 0)} / ${f((h.median / perNode) * 1000, 0)} | ${a ? `${f(h.median / a.median)}x` : '-'} |`);
    if (a && st) {
      console.log(`| Ansible | ${f(a.min)} / ${f(a.median)} | ${f((a.min / perNode) * 1000, 0)} / ${f((a.median / perNode) * 1000, 0)} | |`);
      console.log(`| Ansible less its start (empty play ${f(st.median)} s) | ${f(a.min - st.median)} / ${f(a.median - st.median)} | ${f(((a.min - st.median) / perNode) * 1000, 0)} / ${f(((a.median - st.median) / perNode) * 1000, 0)} | ${f(h.median / (a.median - st.median))}x |`);
    }
  } else {
    console.log('| tool | wall s | over the critical path | Hearth / Ansible |');
    console.log('|---|---|---|---|');
    const over = (x: number) => `${f(((x - path) / path) * 100, 1)}%`;
    console.log(`| Hearth | ${f(h.min)} / ${f(h.median)} | ${over(h.min)} / ${over(h.median)} | ${a ? `${f(h.median / a.median)}x` : '-'} |`);
    if (a && st) {
      console.log(`| Ansible | ${f(a.min)} / ${f(a.median)} | ${over(a.min)} / ${over(a.median)} | |`);
      console.log(`| Ansible less its start (empty play ${f(st.median)} s) | ${f(a.min - st.median)} / ${f(a.median - st.median)} | ${over(a.min - st.median)} / ${over(a.median - st.median)} | ${f(h.median / (a.median - st.median))}x |`);
    }
  }
  console.log(`runs, Hearth: ${r.hearth.map((x) => f(x)).join(' ')}${ansible ? `; Ansible: ${r.ansible.map((x) => f(x)).join(' ')}; Ansible's empty play: ${r.start.map((x) => f(x)).join(' ')}` : ''}`);
}
