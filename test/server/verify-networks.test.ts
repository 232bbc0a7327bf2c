/**
 * Verify networks through a real server (issue 27): the refusals a user meets before any probe runs
 * (an unknown environment, one without real nodes, resuming a verification), and a verification
 * interrupted by a shutdown left alone by --resume-interrupted (a verification is re-run, not
 * resumed). The verification itself on real hosts: test/deploy/verify-networks-hosts.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import * as runs from '../../src/store/task-runs.js';

const TOKEN = 'verify-test-token-0123456789';
const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

describe('POST /clusters/{id}/network_configuration/verify on a real server', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-verify-'));
  let server: RunningServer;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const start = async (resumeInterrupted = false) => (server = await startServer({ port: 0, dataDir: dir, adminToken: TOKEN, sweepMs: 60_000, ...(resumeInterrupted ? { resumeInterrupted: true } : {}) }));
  let env: number;

  before(async () => {
    await start();
    const release = (await call('GET', '/releases')).body[0].id;
    const created = await call('POST', '/clusters', { name: 'simulated', release_id: release, components: BASE });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    env = created.body.id;
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an unknown environment: 404 naming it', async () => {
    const res = await call('POST', '/clusters/9999/network_configuration/verify');
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.match(res.body.message, /9999/);
  });

  test('an environment without real nodes: refused in words, saying how to add real ones; nothing recorded', async () => {
    const empty = await call('POST', `/clusters/${env}/network_configuration/verify`);
    assert.equal(empty.status, 409, JSON.stringify(empty.body));
    assert.equal(empty.body.code, 'verify/too-few-nodes');
    assert.match(empty.body.message, /environment 'simulated' has 0 real nodes: verifying networks needs two at least/);
    const ids: number[] = (await call('POST', '/nodes', { simulate: { count: 2 } })).body.ids;
    assert.equal((await call('POST', `/clusters/${env}/nodes`, { assignments: ids.map((id) => ({ node_id: id, roles: ['compute'] })) })).status, 200);
    const simulated = await call('POST', `/clusters/${env}/network_configuration/verify`, {});
    assert.equal(simulated.status, 409);
    assert.match(simulated.body.message, /0 real nodes \(and 2 simulated, which have no wires to verify\)/);
    assert.match(simulated.body.details.hint, /hearth node add <address> --env simulated/);
    // A bad budget is the request's fault, named.
    const bad = await call('POST', `/clusters/${env}/network_configuration/verify`, { budget_s: 1 });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /budget_s/);
    assert.deepEqual((await call('GET', `/clusters/${env}/deployments`)).body.filter((d: { graph_type: string }) => d.graph_type === 'verify_networks'), []);
  });

  test('a verification is never resumed: not by POST /deploy {resume}, not by --resume-interrupted', async () => {
    const resume = await call('POST', `/clusters/${env}/deploy`, { resume: true, graph_type: 'verify_networks', dry_run: false });
    assert.equal(resume.status, 409, JSON.stringify(resume.body));
    assert.equal(resume.body.code, 'deploy/not-resumable');
    assert.match(resume.body.details.hint, /hearth env verify-networks/);
    const graphRun = await call('POST', `/clusters/${env}/graphs/verify_networks/run`, { resume: true, dry_run: false });
    assert.equal(graphRun.status, 409, JSON.stringify(graphRun.body));
    assert.equal(graphRun.body.code, 'deploy/not-resumable');

    // A verification a shutdown interrupted, as the history keeps it.
    const nodes = (await call('GET', `/clusters/${env}`)).body.nodes ?? [];
    const id = await runs.createRealDeployment(server.db, env, 'verify_networks', [{ node: String(nodes[0]?.id ?? 1), taskId: 'verify_networks', type: 'net_probe' }], 0);
    await server.db.query(`UPDATE deployments SET status = 'interrupted', finished_at = now() WHERE id = $1`, [id]);
    await server.close();
    await start(true);
    // The start-up work runs after the server listens: give it time to (wrongly) start a run.
    await new Promise((r) => setTimeout(r, 3000));
    const after = (await call('GET', `/clusters/${env}/deployments`)).body as Array<{ id: number; graph_type: string; status: string }>;
    assert.deepEqual(after.filter((d) => d.graph_type === 'verify_networks').map((d) => [d.id, d.status]), [[id, 'interrupted']]);
  });
});
