/**
 * `hearth deployment list | show | logs | follow`, `env deploy --follow`, `env stop --wait` and
 * `env graph run`, through the real CLI (src/cli/main.ts) against a real server with simulated
 * nodes and dry runs: node names and dated times in what --follow prints, a run attached to while
 * it runs, the exit statuses scripts rely on, `--json` as the API says it, and a reader that goes
 * away. The same with a real host (a long silent task's heartbeat, a stop's grace) is in cli.test.ts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';

const TOKEN = 'deployment-cli-token-0123456789';
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const STAMP = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d';

const GRAPH = `
- id: first
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "true", timeout: 60}
- id: second
  type: shell
  version: 2.1.0
  roles: ['*']
  requires: [first]
  parameters: {cmd: "true", timeout: 60}
- id: third
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [second]
  parameters: {cmd: "true", timeout: 60}
- id: placeholder
  type: skipped
  version: 2.1.0
  roles: ['*']
  requires: [first]
`;

describe('deployments through the CLI, simulated nodes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-deployment-cli-'));
  let server: RunningServer;
  const hearth = (args: string[], options: { env?: Record<string, string>; shell?: string } = {}) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
      const env = { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: TOKEN, ...options.env };
      const child = options.shell
        ? spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" --import tsx "${main}" ${args.map((a) => `'${a}'`).join(' ')} ${options.shell}`], { env })
        : spawn(process.execPath, ['--import', 'tsx', main, ...args], { env });
      let out = '';
      let err = '';
      child.stdout.on('data', (b) => (out += b));
      child.stderr.on('data', (b) => (err += b));
      const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, out, err });
      });
    });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  let nodeIds: number[] = [];

  before(async () => {
    const made = createPlugin('deplcli', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    writeFileSync(join(made.dir!, 'deplcli-release', 'graphs', 'deployment.yaml'), GRAPH);
    // Slices of one task, 150 ms apart: a dry run lasts long enough to attach to it.
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data'), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000, deploy: { sliceDelayMs: 150, sliceSize: 1 } });
    assert.equal((await api('POST', '/plugins/folders', { path: made.dir })).status, 201);
    const release = (await api('GET', '/releases')).body[0].id;
    const env = await api('POST', '/clusters', { name: 'sim-env', release_id: release, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    nodeIds = (await api('POST', '/nodes', { nodes: [{ name: 'alpha-node' }, { name: 'beta-node' }] })).body.ids;
    const assigned = await api('POST', `/clusters/${env.body.id}/nodes`, { assignments: [{ node_id: nodeIds[0], roles: ['controller'] }, { node_id: nodeIds[1], roles: ['compute'] }] });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('env deploy --follow prints node names and dated 24-hour times; deployment list, show, logs and follow read it back', async () => {
    const deployed = await hearth(['env', 'deploy', 'sim-env', '--dry-run', '--follow']);
    assert.equal(deployed.code, 0, deployed.err + deployed.out);
    assert.match(deployed.out, new RegExp(`^${STAMP}  succeeded  first on alpha-node, [\\d.]+s$`, 'm'));
    assert.match(deployed.out, new RegExp(`^${STAMP}  succeeded  third on alpha-node`, 'm'));
    assert.match(deployed.out, new RegExp(`^${STAMP}  succeeded  second on beta-node`, 'm'));
    assert.doesNotMatch(deployed.out, new RegExp(` on (${nodeIds.join('|')})\\b`), 'node ids are not printed for named nodes');
    // Skipped tasks are not done: counted apart.
    const last = /^dry run (\d+): succeeded, 5\/7 tasks succeeded, 2 skipped \(simulated: nothing ran on the nodes\)$/m.exec(deployed.out);
    assert.match(deployed.out, new RegExp(`^${STAMP}  skipped    placeholder on beta-node$`, 'm'));
    assert.ok(last, deployed.out);
    const id = Number(last[1]);

    const listed = await hearth(['deployment', 'list', '--json']);
    assert.equal(listed.code, 0, listed.err);
    const fromApi = (await api('GET', `/deployments/${id}`)).body;
    assert.deepEqual(JSON.parse(listed.out).find((d: { id: number }) => d.id === id), fromApi, '--json is the API object');
    assert.equal(fromApi.status, 'succeeded');
    const human = await hearth(['deployment', 'list', '--env', 'sim-env']);
    assert.match(human.out, new RegExp(`^${id} +sim-env +default +dry-run +succeeded +\\d+/7 tasks succeeded`, 'm'));
    assert.equal((await hearth(['deployment', 'list', '--env', 'no-such-env'])).code, 1);

    const shown = await hearth(['deployment', 'show', String(id)]);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, new RegExp(`^dry run ${id} of environment sim-env, graph default: succeeded$`, 'm'));
    assert.match(shown.out, /^5\/7 tasks succeeded, 2 skipped$/m);
    assert.match(shown.out, /^alpha-node +first +succeeded /m);
    assert.match(shown.out, /^beta-node +placeholder +skipped /m);
    assert.deepEqual(JSON.parse((await hearth(['deployment', 'show', String(id), '--json'])).out), fromApi);
    const missing = await hearth(['deployment', 'show', '999999']);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /deployment\/not-found: there is no deployment 999999/);
    assert.equal((await hearth(['deployment', 'show', 'seven'])).code, 2, 'an id that is not a number is bad usage');

    const logs = await hearth(['deployment', 'logs', String(id), '--node', 'beta-node', '--json']);
    assert.equal(logs.code, 0, logs.err);
    const records = JSON.parse(logs.out);
    assert.ok(records.length > 0 && records.every((t: { node: string }) => t.node === String(nodeIds[1])), logs.out);
    assert.equal((await hearth(['deployment', 'logs', String(id), '--node', 'gamma-node'])).code, 1);

    // Following a run that has ended prints it whole and ends.
    const again = await hearth(['deployment', 'follow', String(id)]);
    assert.equal(again.code, 0, again.err);
    assert.equal(again.out.split('\n').filter((l) => / on (alpha|beta)-node/.test(l)).length, deployed.out.split('\n').filter((l) => / on (alpha|beta)-node/.test(l)).length);
  });

  test('deployment follow attaches to a running run from another process and ends with it; a failed run exits 1', async () => {
    const cluster = (await api('GET', '/clusters')).body[0].id;
    const started = await api('POST', `/clusters/${cluster}/deploy`, { dry_run: true });
    assert.equal(started.status, 202);
    const followed = await hearth(['deployment', 'follow', String(started.body.id)]);
    assert.equal(followed.code, 0, followed.err + followed.out);
    assert.match(followed.out, new RegExp(`^${STAMP}  succeeded  third on alpha-node`, 'm'));
    assert.match(followed.out, new RegExp(`^dry run ${started.body.id}: succeeded`, 'm'));
    assert.equal((await api('GET', `/deployments/${started.body.id}`)).body.status, 'succeeded', 'it had not ended when follow attached');

    const failing = await api('POST', `/clusters/${cluster}/deploy`, { simulate_failure: { task: 'second' } });
    const failed = await hearth(['deployment', 'follow', String(failing.body.id), '--json']);
    assert.equal(failed.code, 1, 'a failed run: exit status 1');
    const lines = failed.out.trim().split('\n');
    assert.equal(JSON.parse(lines.slice(lines.findIndex((l) => l === '{')).join('\n')).status, 'failed');
  });

  test('a reader that goes away ends the command quietly', async () => {
    const list = await hearth(['deployment', 'list'], { shell: '| true' });
    assert.equal(list.err, '');
    assert.equal(list.code, 0);
    const logs = await hearth(['deployment', 'show', '1'], { shell: '| head -c 1 >/dev/null' });
    assert.equal(logs.err, '');
    assert.equal(logs.code, 0);
  });

  test('env stop: --grace is checked; --wait with nothing running is refused', async () => {
    assert.equal((await hearth(['env', 'stop', 'sim-env', '--grace', 'soon'])).code, 2);
    const stop = await hearth(['env', 'stop', 'sim-env', '--wait']);
    assert.equal(stop.code, 1);
    assert.match(stop.err, /deployment\/not-running/);
  });

  test('env graph run runs a graph type on the nodes named', async (t) => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    if (!doc.paths['/api/v1/clusters/{id}/graphs/{type}/run']) return t.skip('POST /api/v1/clusters/{id}/graphs/{type}/run is not on the server yet');
    const ran = await hearth(['env', 'graph', 'run', 'sim-env', 'default', '--nodes', 'beta-node', '--dry-run', '--follow']);
    assert.equal(ran.code, 0, ran.err + ran.out);
    assert.match(ran.out, / on beta-node/);
    assert.doesNotMatch(ran.out, / on alpha-node/);
    assert.match(ran.out, /^dry run \d+: succeeded/m);
    const unknown = await hearth(['env', 'graph', 'run', 'sim-env', 'default', '--nodes', 'gamma-node']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /node 'gamma-node' is not in environment 'sim-env'/);
  });
});
