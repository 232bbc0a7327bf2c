/**
 * The lifecycle cannot lie (issue 25): random sequences of real runs (some with a failing task),
 * dry runs, stops, server shutdowns (SIGTERM) and crashes (SIGKILL) while a task runs, resumes, and
 * nodes going offline and back, against a real server in a child process (test/support/
 * model-server.ts: the server over a real embedded database in a folder) whose transport is
 * scripted: it reaches no host, but each task's command is started, held and killed as SSH's would be.
 * After every step: the built CLI's `--json` says what the API says; dry runs changed no real state; every run's counts sum to its tasks and its
 * `done` is what succeeded; no task started after a stop or a shutdown; a resume ran exactly what
 * had not succeeded; each node's state follows its own tasks, and the environment's the run.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { createPlugin } from '../../src/package/create/index.js';
import { ENVIRONMENT_STATES, NODE_STATES, environmentStateAfterRun, nodeStateAfterRun, type NodeState, type TaskOutcome } from '../../src/core/lifecycle/index.js';
import { runs } from './options.js';
import { hearthBin } from '../support/serve.js';

const execFileAsync = promisify(execFile);

const TOKEN = 'model-admin-token-0123456789';
const TASKS = ['a', 'b', 'c'] as const;
const GRAPH = TASKS.map((id, i) => `- id: ${id}\n  type: shell\n  version: 2.1.0\n  roles: ['*']\n${i ? `  requires: [${TASKS[i - 1]}]\n` : ''}  parameters: {cmd: "echo T:${id}", timeout: 60}\n`).join('');
const MODEL_SERVER = join(import.meta.dirname, '..', 'support', 'model-server.ts');
/** Epoch milliseconds, comparable with the child's. */
const now = () => performance.timeOrigin + performance.now();

/** A server process: its URL, its API, what its scripted transport started and holds. */
interface Server {
  child: ChildProcess;
  url: string;
  call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Every task command started: node, task, when (epoch ms, the child's clock). */
  started: Array<{ node: string; task: string; at: number }>;
  /** How many commands the transport holds now. */
  held: number;
  /** `node task` pairs that exit 7, and the task held on every node until killed. */
  script(failing: string[], holding?: string): void;
  /** The database, as a node's reachability is recorded (the server's own code, in the child). */
  db(op: 'insertRealNode' | 'recordReachError' | 'markReachable', ...args: unknown[]): Promise<any>;
  /** Ends with the signal, and waits until the process is gone. */
  signal(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

let dir = '';
let dataDir = '';
let releaseFolder = '';
const children = new Set<ChildProcess>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-model-'));
  dataDir = join(dir, 'data');
  const made = createPlugin('modelrel', { releasePlugin: true, parentDir: dir });
  assert.ok(made.ok, JSON.stringify(made.findings));
  releaseFolder = made.dir!;
  writeFileSync(join(made.dir!, 'modelrel-release', 'graphs', 'deployment.yaml'), GRAPH);
});
after(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a server on the test's data folder (taking over the lock a killed one left). */
async function startServerProcess(): Promise<Server> {
  // Without the minute's reachability check: its `true` succeeds on the scripted transport, so once
  // a sequence ran past a minute (a loaded machine) it brought a node the model holds offline back
  // online behind the model's back, and a deploy the model expected refused was accepted. The
  // steps set reachability themselves (Reach).
  const child = fork(MODEL_SERVER, [dataDir, TOKEN], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, HEARTH_NODE_CHECK_SECONDS: '0' } });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => (children.delete(child), resolve())));
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const server: Server = {
    child,
    url: '',
    started: [],
    held: 0,
    async call(method, url, body) {
      const res = await fetch(`${server.url}/api/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    script(failing, holding) {
      child.send({ op: 'script', failing, holding });
    },
    db(op, ...args) {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, op, args });
      });
    },
    async signal(signal) {
      child.kill(signal);
      // A shutdown that hangs is a failure of its own, and the process must not outlive the test.
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
      assert.ok(signal === 'SIGKILL' || child.exitCode === 0, `the server ended with ${child.exitCode ?? child.signalCode} after ${signal}: ${stderr}`);
    },
  };
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the model server did not start in 90 s: ${stderr}`)), 90_000);
    void exited.then(() => (clearTimeout(timer), reject(new Error(`the model server ended: ${stderr}`))));
    child.on('message', (m: any) => {
      if (m.event === 'ready') {
        server.url = m.url;
        clearTimeout(timer);
        resolve();
      } else if (m.event === 'started') server.started.push({ node: m.node, task: m.task, at: m.at });
      else if (m.event === 'held') server.held = m.count;
      else if (m.id !== undefined) {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.error) p?.reject(new Error(m.error));
        else p?.resolve(m.result);
      }
    });
  });
  try {
    await ready;
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return server;
}

/** What the model knows of the world, beside what the server says. */
interface Model {
  cluster: number;
  nodes: number[];
  offline: Set<number>;
  /** The last real run of the default graph: each (node task) outcome, its status; none yet. */
  lastReal?: { id: number; status: string; outcomes: Map<string, TaskOutcome> };
}

interface Real {
  server: Server;
}

const waitEnd = async (s: Server, id: number): Promise<any> => {
  const until = Date.now() + 30_000;
  for (;;) {
    const d = (await s.call('GET', `/deployments/${id}`)).body;
    if (d.status !== 'running') return d;
    assert.ok(Date.now() < until, `run ${id} never ended`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The real state a dry run must leave alone. */
const realState = async (s: Server, m: Model) => ({
  cluster: (({ status, deployed_at }) => ({ status, deployed_at }))((await s.call('GET', `/clusters/${m.cluster}`)).body),
  nodes: (await s.call('GET', `/clusters/${m.cluster}/nodes`)).body.map((n: any) => [n.id, n.status, n.roles, n.pending_roles]),
});

const outcomesOf = async (s: Server, id: number) => new Map<string, TaskOutcome>((await s.call('GET', `/deployments/${id}/tasks`)).body.map((t: any) => [`${t.node} ${t.task_id}`, t.outcome]));

/** The built CLI's `--json` answer (as a script reads it), against this server. */
async function cliJson(s: Server, ...args: string[]): Promise<any> {
  const { stdout } = await execFileAsync(process.execPath, [hearthBin, ...args, '--json', '--server', s.url, '--token', TOKEN], { timeout: 60_000 });
  return JSON.parse(stdout);
}

/** The CLI's `--json` says what the API says: the environment's and its nodes' states, each run's status and counts. */
async function cliAgrees(s: Server, m: Model): Promise<void> {
  const [env, runsSeen] = await Promise.all([cliJson(s, 'env', 'show', String(m.cluster)), cliJson(s, 'deployment', 'list', '--env', String(m.cluster))]);
  const cluster = (await s.call('GET', `/clusters/${m.cluster}`)).body;
  const nodes = (await s.call('GET', `/clusters/${m.cluster}/nodes`)).body as Array<{ id: number; status: string }>;
  const history = (await s.call('GET', `/clusters/${m.cluster}/deployments`)).body as Array<{ id: number; status: string; counts: unknown; done: number }>;
  assert.equal(env.status, cluster.status, 'the CLI and the API say the same environment state');
  assert.deepEqual(env.nodes.map((n: any) => [n.id, n.status]), nodes.map((n) => [n.id, n.status]), 'the CLI and the API say the same node states');
  const view = (d: { id: number; status: string; counts: unknown; done: number }) => [d.id, d.status, d.counts, d.done];
  assert.deepEqual(runsSeen.map(view).sort(), history.map(view).sort(), 'the CLI and the API say the same runs');
}

/** Checked after every step. */
async function invariants(r: Real, m: Model, nodesBefore: Map<number, NodeState>, ran?: { id: number }): Promise<void> {
  const s = r.server;
  await cliAgrees(s, m);
  for (const d of (await s.call('GET', `/clusters/${m.cluster}/deployments`)).body) {
    assert.equal(Object.values(d.counts as Record<string, number>).reduce((a, b) => a + b, 0), d.total, `run ${d.id}: counts sum to its tasks`);
    assert.equal(d.done, d.counts.succeeded, `run ${d.id}: done is what succeeded`);
  }
  const cluster = (await s.call('GET', `/clusters/${m.cluster}`)).body;
  assert.ok((ENVIRONMENT_STATES as readonly string[]).includes(cluster.status), cluster.status);
  const nodes = (await s.call('GET', `/clusters/${m.cluster}/nodes`)).body as Array<{ id: number; status: string }>;
  for (const n of nodes) assert.ok((NODE_STATES as readonly string[]).includes(n.status), n.status);
  if (!ran || !m.lastReal || ran.id !== m.lastReal.id) return;
  // The run just ended: the environment follows it, and each node its own tasks.
  const anyError = nodes.some((n) => n.status === 'error');
  if (m.lastReal.status !== 'interrupted') assert.equal(cluster.status, environmentStateAfterRun(m.lastReal.status as never, anyError), `environment after a ${m.lastReal.status} run`);
  else assert.equal(cluster.status, 'error');
  for (const n of nodes) {
    if (m.offline.has(n.id)) {
      assert.equal(n.status, 'offline');
      continue;
    }
    const own = TASKS.map((t) => m.lastReal!.outcomes.get(`${n.id} ${t}`)!).filter(Boolean);
    assert.equal(n.status, nodeStateAfterRun(nodesBefore.get(n.id) ?? 'discovered', own), `node ${n.id} after its tasks ${own.join(',')}`);
  }
}

const nodeStates = async (s: Server, m: Model) => new Map<number, NodeState>((await s.call('GET', `/clusters/${m.cluster}/nodes`)).body.map((n: any) => [n.id, m.offline.has(n.id) ? 'offline' : n.status]));

abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(_m: Readonly<Model>): boolean {
    return true;
  }
  abstract run(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
}

class RealDeploy extends Step {
  constructor(readonly failAt?: { node: number; task: string }) {
    super();
  }
  async run(m: Model, r: Real) {
    const before = await nodeStates(r.server, m);
    r.server.started = [];
    r.server.script(this.failAt ? [`${m.nodes[this.failAt.node]} ${this.failAt.task}`] : []);
    const res = await r.server.call('POST', `/clusters/${m.cluster}/deploy`, { dry_run: false });
    if (m.offline.size) {
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.code, 'deploy/nodes-offline');
      assert.deepEqual(res.body.details.nodes.map((n: any) => n.id).sort(), [...m.offline].sort());
      return invariants(r, m, before);
    }
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const d = await waitEnd(r.server, res.body.id);
    m.lastReal = { id: d.id, status: d.status, outcomes: await outcomesOf(r.server, d.id) };
    if (!this.failAt) assert.equal(d.counts.failed, 0);
    await invariants(r, m, before, { id: d.id });
  }
  toString() {
    return `RealDeploy(${this.failAt ? `${this.failAt.task} fails on node #${this.failAt.node}` : 'all succeed'})`;
  }
}

class DryRun extends Step {
  async run(m: Model, r: Real) {
    const before = await realState(r.server, m);
    r.server.started = [];
    const res = await r.server.call('POST', `/clusters/${m.cluster}/deploy`, { dry_run: true });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal((await waitEnd(r.server, res.body.id)).mode, 'dry-run');
    assert.deepEqual(await realState(r.server, m), before, 'a dry run changed nothing real');
    assert.equal(r.server.started.length, 0, 'a dry run ran nothing');
    await invariants(r, m, await nodeStates(r.server, m));
  }
  toString() {
    return 'DryRun';
  }
}

/**
 * While task b runs on every node: a stop by the operator, the server's shutdown (SIGTERM), or its
 * crash (SIGKILL); after a shutdown or a crash a new server starts on the same database.
 */
class Interrupt extends Step {
  constructor(readonly how: 'stop' | 'shutdown' | 'crash') {
    super();
  }
  override check(m: Readonly<Model>) {
    return m.offline.size === 0;
  }
  async run(m: Model, r: Real) {
    const before = await nodeStates(r.server, m);
    r.server.started = [];
    r.server.script([], 'b');
    const res = await r.server.call('POST', `/clusters/${m.cluster}/deploy`, { dry_run: false });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const until = Date.now() + 30_000;
    while (r.server.held < m.nodes.length) {
      assert.ok(Date.now() < until, 'b never ran on every node');
      await new Promise((x) => setTimeout(x, 5));
    }
    // Task reports are written in batches: a crash loses the last quarter second of them, and a
    // task whose start was never recorded is rightly taken as never started. The model asserts what
    // the record said, so it waits until b's start is written on every node.
    while ((await r.server.call('GET', `/deployments/${res.body.id}/tasks?task=b&status=running`)).body.length < m.nodes.length) {
      assert.ok(Date.now() < until, "b's start was never recorded");
      await new Promise((x) => setTimeout(x, 20));
    }
    const askedAt = now();
    const startedBefore = r.server.started;
    if (this.how === 'stop') {
      assert.equal((await r.server.call('POST', `/clusters/${m.cluster}/stop`, { grace_s: 0 })).status, 202);
    } else {
      await r.server.signal(this.how === 'shutdown' ? 'SIGTERM' : 'SIGKILL');
      r.server = await startServerProcess();
    }
    const d = await waitEnd(r.server, res.body.id);
    r.server.script([]);
    assert.equal(d.status, this.how === 'stop' ? 'stopped' : 'interrupted', JSON.stringify(d));
    if (this.how !== 'stop') assert.match(d.message, /server/, 'the run says its server stopped');
    assert.ok(startedBefore.every((x) => x.at < askedAt) && r.server.started.every((x) => x.at < askedAt), `no task started after the ${this.how}`);
    if (this.how !== 'stop') assert.equal(r.server.started.length, 0, `the server started after a ${this.how} ran nothing by itself`);
    const outcomes = await outcomesOf(r.server, d.id);
    for (const n of m.nodes) {
      assert.equal(outcomes.get(`${n} b`), 'killed');
      assert.equal(outcomes.get(`${n} c`), 'stopped');
    }
    m.lastReal = { id: d.id, status: d.status, outcomes };
    await invariants(r, m, before, { id: d.id });
  }
  toString() {
    return `Interrupt(${this.how})`;
  }
}

class Resume extends Step {
  async run(m: Model, r: Real) {
    const before = await nodeStates(r.server, m);
    r.server.started = [];
    r.server.script([]);
    const res = await r.server.call('POST', `/clusters/${m.cluster}/deploy`, { resume: true });
    const resumable = m.lastReal && m.lastReal.status !== 'succeeded';
    if (!resumable || m.offline.size) {
      assert.equal(res.status, 409, JSON.stringify(res.body));
      return invariants(r, m, before);
    }
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const from = m.lastReal!.outcomes;
    const d = await waitEnd(r.server, res.body.id);
    const expected = [...from].filter(([, o]) => o !== 'succeeded' && o !== 'skipped').map(([k]) => k).sort();
    assert.deepEqual(r.server.started.map((x) => `${x.node} ${x.task}`).sort(), expected, 'a resume runs exactly what had not succeeded');
    m.lastReal = { id: d.id, status: d.status, outcomes: await outcomesOf(r.server, d.id) };
    await invariants(r, m, before, { id: d.id });
  }
  toString() {
    return 'Resume';
  }
}

class Reach extends Step {
  constructor(
    readonly node: number,
    readonly offline: boolean,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return this.offline !== m.offline.has(m.nodes[this.node]);
  }
  async run(m: Model, r: Real) {
    const id = m.nodes[this.node];
    const before = (await r.server.call('GET', `/nodes/${id}`)).body.status;
    if (this.offline) {
      await r.server.db('recordReachError', id, { code: 'ssh/unreachable', message: 'the node cannot be reached (No route to host)' }, true);
      m.offline.add(id);
      assert.equal((await r.server.call('GET', `/nodes/${id}`)).body.status, 'offline');
      (m as Model & { wasBefore?: Map<number, string> }).wasBefore ??= new Map();
      (m as Model & { wasBefore: Map<number, string> }).wasBefore.set(id, before);
    } else {
      await r.server.db('markReachable', id);
      m.offline.delete(id);
      const was = (m as Model & { wasBefore?: Map<number, string> }).wasBefore?.get(id);
      assert.equal((await r.server.call('GET', `/nodes/${id}`)).body.status, was, 'back online, it is what it was before');
    }
    await invariants(r, m, await nodeStates(r.server, m));
  }
  toString() {
    return `${this.offline ? 'Offline' : 'Online'}(node #${this.node})`;
  }
}

let sequence = 0;
let releaseId = '';

test('random sequences of runs, stops, shutdowns, crashes, resumes and offline nodes: what Hearth says stays true', async () => {
  // One server process and release for every sequence (starting them is most of the cost), replaced
  // when a sequence shuts it down or kills it; each sequence has an environment and three nodes.
  const r: Real = { server: await startServerProcess() };
  try {
    const folder = await r.server.call('POST', '/plugins/folders', { path: releaseFolder });
    assert.equal(folder.status, 201, JSON.stringify(folder.body));
    releaseId = (await r.server.call('GET', '/releases')).body.find((x: any) => x.id.startsWith('modelrel')).id;
    const commands = [
      fc.option(fc.record({ node: fc.integer({ min: 0, max: 2 }), task: fc.constantFrom(...TASKS) }), { nil: undefined }).map((f) => new RealDeploy(f)),
      fc.constant(new DryRun()),
      fc.constantFrom('stop' as const, 'shutdown' as const, 'crash' as const).map((h) => new Interrupt(h)),
      fc.constant(new Resume()),
      fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean()).map(([n, off]) => new Reach(n, off)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 7 }), async (cmds) => {
        const created = await r.server.call('POST', '/clusters', { name: `model-${++sequence}`, release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const cluster = created.body.id;
        const nodes: number[] = [];
        for (const i of [1, 2, 3]) nodes.push(await r.server.db('insertRealNode', { name: `host-${sequence}-${i}`, address: `192.0.2.${sequence % 250}`, sshUser: 'root', sshPort: 1000 + i, hostKey: 'ssh-ed25519 AAAA', facts: {}, hardware: {}, clusterId: cluster }));
        const assigned = await r.server.call('POST', `/clusters/${cluster}/nodes`, { assignments: [{ node_id: nodes[0], roles: ['controller'] }, { node_id: nodes[1], roles: ['compute'] }, { node_id: nodes[2], roles: ['compute'] }] });
        assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
        await fc.asyncModelRun(() => ({ model: { cluster, nodes, offline: new Set<number>() }, real: r }), cmds);
      }),
      { ...runs(8), endOnFailure: true, includeErrorInReport: true },
    );
  } finally {
    await r.server.signal('SIGTERM').catch(() => undefined);
  }
});
