/**
 * The deployment plan (issue 25) through the API and the CLI, on the release skeleton as
 * `hearth plugin create --release-plugin` makes it: a first plan runs everything whose condition
 * holds; after the environment is deployed (simulated nodes: the simulation plays the lifecycle)
 * and a compute is added, the plan runs the new compute's tasks and the controller's node list
 * only, each verdict with its reason; `env deploy --plan` prints it and `--json` is the API's.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';

const TOKEN = 'plan-test-token-0123456789abcdef';
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

describe('the deployment plan: what will run and why, before it runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-deploy-plan-'));
  let server: RunningServer;
  let envId = 0;
  let ids: number[] = [];
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
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, out, err })));
    });
  const verdicts = (plan: { nodes: Array<{ name: string; tasks: Array<{ id: string; runs: boolean; reason: string }> }> }) =>
    Object.fromEntries(plan.nodes.map((n) => [n.name, Object.fromEntries(n.tasks.map((t) => [t.id, `${t.runs ? '+' : '-'} ${t.reason}`]))]));

  before(async () => {
    const made = createPlugin('planskel', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000, deploy: { sliceDelayMs: 0, sliceSize: 100 } });
    assert.equal((await api('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const release = (await api('GET', '/releases')).body[0].id;
    const env = await api('POST', '/clusters', { name: 'plan-env', release_id: release, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    envId = env.body.id;
    ids = (await api('POST', '/nodes', { nodes: [{ name: 'ctl-a' }, { name: 'cmp-b' }, { name: 'cmp-c' }] })).body.ids;
    const assigned = await api('POST', `/clusters/${envId}/nodes`, { assignments: [{ node_id: ids[0], roles: ['controller'] }, { node_id: ids[1], roles: ['compute'] }] });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('first deployment: every task whose condition holds runs; diagnostics does not ($.debug is false)', async () => {
    const { status, body } = await api('GET', `/clusters/${envId}/deploy/plan`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.graph_type, 'default');
    assert.equal(body.first_deployment, true);
    assert.equal(body.deployed_by, null);
    const v = verdicts(body);
    assert.equal(v['ctl-a']['controller-services'], '+ changed($.uid): nothing deployed yet');
    assert.equal(v['ctl-a'].diagnostics, "- condition '$.debug' is false: $.debug is false");
    assert.deepEqual(body.counts, { run: 4, nodes_run: 2, skipped: 2, markers: 0, nodes: 2 });
  });

  test('after a deployment, adding a compute: the new compute and the controller node list run, the old compute does not, each with why; the CLI prints it', async () => {
    const started = await api('POST', `/clusters/${envId}/deploy`, { dry_run: true });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    for (let i = 0; i < 600; i++) {
      const d = (await api('GET', `/deployments/${started.body.id}`)).body;
      if (d.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal((await api('GET', `/clusters/${envId}`)).body.status, 'operational');
    assert.equal((await api('POST', `/clusters/${envId}/nodes`, { assignments: [{ node_id: ids[2], roles: ['compute'] }] })).status, 200);

    const { status, body } = await api('GET', `/clusters/${envId}/deploy/plan?graph_type=default`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.first_deployment, false);
    assert.equal(body.deployed_by, started.body.id);
    const v = verdicts(body);
    assert.equal(v['ctl-a']['controller-services'], `- changed($.uid): unchanged since the last deployment (${started.body.id})`);
    assert.equal(v['ctl-a']['controller-nodes'], `+ changed($.network_metadata.nodes): 1 node added (node-${ids[2]} 'cmp-c')`);
    assert.match(v['cmp-b']['compute-services'], /^- condition 'changedAny\(.*' is false: changed\(\$\.uid\): unchanged since the last deployment \(\d+\); changed\(\$\.network_metadata.*\): unchanged since the last deployment \(\d+\)$/);
    assert.match(v['cmp-c']['compute-controllers'], /^\+ changedAny\(.*: the node is new$/);
    assert.deepEqual(body.nodes.map((n: { name: string; new: boolean }) => [n.name, n.new]), [['ctl-a', false], ['cmp-b', false], ['cmp-c', true]]);
    assert.deepEqual(body.counts, { run: 3, nodes_run: 2, skipped: 6, markers: 0, nodes: 3 });

    const text = await hearth(['env', 'deploy', 'plan-env', '--plan']);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, new RegExp(`^plan for the 'default' graph \\(compared with what deployment ${started.body.id} deployed\\):$`, 'm'));
    assert.match(text.out, /^cmp-c \(node \d+; compute; new\):\n {2}\+ compute-controllers\n {2}\+ compute-services\n {4}diagnostics \(condition '\$\.debug' is false: \$\.debug is false\)$/m);
    assert.match(text.out, /^ctl-a \(node \d+; controller\):\n {4}controller-services \(changed\(\$\.uid\): unchanged since the last deployment \(\d+\)\)\n {2}\+ controller-nodes\n/m);
    assert.match(text.out, /^3 tasks run on 2 nodes; 6 skipped$/m);
    const json = await hearth(['env', 'deploy', 'plan-env', '--plan', '--json']);
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out), body, '--json is the API answer');
    // Nothing ran: the plan starts no deployment.
    assert.equal((await api('GET', `/deployments?cluster_id=${envId}`)).body.length, 1);
  });

  test('refusals: a graph the environment lacks, nothing to resume, an unknown environment', async () => {
    const none = await api('GET', `/clusters/${envId}/deploy/plan?graph_type=no-such-graph`);
    assert.equal(none.status, 404);
    assert.equal(none.body.code, 'graph/not-found');
    const resume = await api('GET', `/clusters/${envId}/deploy/plan?resume=true`);
    assert.equal(resume.status, 409);
    assert.equal(resume.body.code, 'deploy/nothing-to-resume');
    assert.equal((await api('GET', '/clusters/999999/deploy/plan')).status, 404);
    const cli = await hearth(['env', 'deploy', 'plan-env', '--plan', '--resume']);
    assert.notEqual(cli.code, 0);
    assert.match(cli.err, /cannot resume environment 'plan-env'/);
  });
});
