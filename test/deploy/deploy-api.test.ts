/**
 * A real deployment through a real server on test hosts 7-9: a release plugin made by
 * `plugin create --release-plugin`, its graph replaced by real shell scripts and registered as a
 * folder; one controller and two computes registered by address. Refusals first (simulated nodes,
 * files the release does not hold), then a deployment checked on each host and through
 * GET /deployments/:id/tasks (output stored, the password setting never shown), then a stop.
 * On PostgreSQL where there is one (CI), in a schema of its own: the run's bookkeeping, its stop
 * through the database, its resume and the nodes' lifecycle on the engine several servers share
 * (the deploy tests with servers of their own otherwise start them on PGlite).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const TOKEN = 'deploy-api-token-0123456789';
const SECRET = 'Sup3r-s3cret-pw';
const hosts = testHosts();
const databaseUrl = process.env.HEARTH_TEST_DATABASE_URL || undefined;
const engine = databaseUrl ? 'PostgreSQL' : 'PGlite';

const GRAPH = `
- id: prepare
  type: shell
  version: 2.1.0
  roles: ['*']
  parameters: {cmd: "bash record.sh prepare && grep -q 'name: hearth-test' /etc/astute.yaml", timeout: 60}
- id: controller-setup
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [prepare]
  parameters: {cmd: "bash record.sh controller-setup && echo configured controller; echo password is ${SECRET}", timeout: 60}
- id: fetch-repository
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [controller-setup]
  parameters: {cmd: "bash fetch.sh", timeout: 60}
- id: compute-setup
  type: shell
  version: 2.1.0
  roles: [compute]
  requires: [prepare]
  cross-depends: [{name: controller-setup, role: [controller]}]
  parameters: {cmd: "bash record.sh compute-setup", timeout: 60}
- id: compute-check
  type: shell
  version: 2.1.0
  roles: [compute]
  requires: [compute-setup]
  parameters: {cmd: "echo checking; [ $(hostname) != hearth-test-9 ]", timeout: 60}
- id: once-per-node
  type: shell
  version: 2.1.0
  roles: [compute]
  requires: [compute-setup]
  condition: {yaql_exp: 'changed($.uid)'}
  parameters: {cmd: "bash record.sh once-per-node", timeout: 60}
- id: sleeper
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [controller-setup]
  condition: {yaql_exp: '$.debug'}
  parameters: {cmd: "bash record.sh sleeper; echo tick-1; sleep 4; echo tick-2; sleep 4", timeout: 60}
- id: after-sleeper
  type: shell
  version: 2.1.0
  roles: [controller]
  requires: [sleeper]
  parameters: {cmd: "bash record.sh after-sleeper", timeout: 60}
`;

async function json(res: Response) {
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

describe(`a real deployment through the server, on ${engine}`, { skip: hosts && hosts.addresses.length >= 13 ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-deploy-api-'));
  const schema = `hearth_deploy_api_${process.pid}_${Date.now()}`;
  let server: RunningServer;
  let clusterId = 0;
  let releasePath = '';
  const ids: number[] = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, body: await json(res) };
  };
  const waitFor = async (deployment: number, timeoutMs = 120_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const d = (await call('GET', `/clusters/${clusterId}/deployments/${deployment}`)).body;
      if (d.status !== 'running') {
        // A failure names its tasks' own words in every assertion message that prints the run.
        if (d.status === 'failed') d.failed_tasks = (await call('GET', `/deployments/${deployment}/tasks?outcome=failed`)).body;
        return d;
      }
      if (Date.now() > until) throw new Error(`deployment ${deployment} still running: ${JSON.stringify(d)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  before(async () => {
    for (const i of [7, 8, 9, 13]) await onHost(i, 'rm -rf /var/lib/hearth/* /etc/hearth/* /etc/astute.yaml');
    const made = createPlugin('hosttest', { releasePlugin: true, parentDir: dir });
    assert.ok(made.ok, JSON.stringify(made.findings));
    const release = join(made.dir!, 'hosttest-release');
    releasePath = made.dir!;
    writeFileSync(join(release, 'graphs', 'deployment.yaml'), GRAPH);
    writeFileSync(join(release, 'graphs', 'network_verification.yaml'), `- id: verify\n  type: shell\n  version: 2.1.0\n  roles: ['*']\n  parameters: {cmd: "mkdir -p /var/lib/hearth && echo verified > /var/lib/hearth/verified", timeout: 60}\n`);
    writeFileSync(join(release, 'deployment_scripts', 'record.sh'), 'mkdir -p /var/lib/hearth && echo "$(date +%s.%N) $1" >> /var/lib/hearth/ran\n');
    // Fetches hello.txt from the plugin's repository URL in the deployment data, with bash alone.
    writeFileSync(
      join(release, 'deployment_scripts', 'fetch.sh'),
      [
        'set -e',
        "url=$(grep -m1 'repository_url: http' /etc/astute.yaml | sed 's/.*repository_url: //')",
        'hp=${url#http://}; hp=${hp%%/*}; path=/${url#http://*/}hello.txt',
        'exec 3<>/dev/tcp/${hp%:*}/${hp#*:}',
        'printf "GET %s HTTP/1.0\\r\\n\\r\\n" "$path" >&3',
        'cat <&3 | tail -1 > /var/lib/hearth/fetched',
        '',
      ].join('\n'),
    );
    writeFileSync(join(release, 'repositories', 'ubuntu', 'hello.txt'), 'hello from the repository\n');
    // Half the computes may fail (compute-check fails on hearth-test-9) without failing the deployment.
    const roles = join(release, 'metadata', 'roles.yaml');
    writeFileSync(roles, readFileSync(roles, 'utf8').replace(/^compute:\n/m, 'compute:\n  fault_tolerance: "50%"\n'));
    const attributes = join(release, 'attributes', 'attributes.yaml');
    writeFileSync(attributes, readFileSync(attributes, 'utf8').replace(/^ {2}common:\n/m, `  common:\n    admin_password:\n      value: "${SECRET}"\n      label: "Admin password"\n      weight: 5\n      type: password\n`));
    mkdirSync(join(dir, 'data', 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'data', 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    // On the test bridge, so nodes can fetch the plugin's repository from it.
    server = await startServer({ port: 0, host: '10.77.0.1', dataDir: join(dir, 'data'), ...(databaseUrl ? { databaseUrl, schema } : {}), adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 });
    const plugin = await call('POST', '/plugins/folders', { path: made.dir });
    assert.equal(plugin.status, 201, JSON.stringify(plugin.body));
    const releaseId = (await call('GET', '/releases')).body[0].id;
    const env = await call('POST', '/clusters', { name: 'real-env', release_id: releaseId, components: ['hypervisor:qemu', 'network:neutron:core:ml2'] });
    assert.equal(env.status, 201, JSON.stringify(env.body));
    clusterId = env.body.id;
    for (const i of [7, 8, 9]) {
      const res = await call('POST', '/nodes', { address: hosts!.addresses[i - 1], cluster_id: clusterId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.push(res.body.node.id);
    }
    const assigned = await call('POST', `/clusters/${clusterId}/nodes`, { assignments: [{ node_id: ids[0], roles: ['controller'] }, { node_id: ids[1], roles: ['compute'] }, { node_id: ids[2], roles: ['compute'] }] });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
  });
  after(async () => {
    await server?.close();
    if (databaseUrl) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('a simulated node in the environment: a real run refuses it by name; the dry run takes it', async () => {
    const sim = (await call('POST', '/nodes', { simulate: { count: 1, prefix: 'paper' } })).body.ids[0];
    await call('POST', `/clusters/${clusterId}/nodes`, { assignments: [{ node_id: sim, roles: ['compute'] }] });
    for (const body of [{}, { dry_run: false }]) {
      const refused = await call('POST', `/clusters/${clusterId}/deploy`, body);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'deploy/simulated-nodes');
      assert.match(refused.body.message, new RegExp(`'paper-${sim}'`));
      assert.deepEqual(refused.body.details.nodes, [{ id: sim, name: `paper-${sim}` }]);
    }
    const dry = await call('POST', `/clusters/${clusterId}/deploy`, { dry_run: true });
    assert.equal(dry.status, 202);
    assert.equal(dry.body.mode, 'dry-run');
    assert.equal((await waitFor(dry.body.id)).status, 'succeeded');
    for (const i of [7, 8, 9]) assert.equal((await onHost(i, 'ls /var/lib/hearth/ran 2>/dev/null || echo untouched')).trim(), 'untouched', 'a dry run touches no host');
    await call('POST', `/clusters/${clusterId}/nodes/unassign`, { node_ids: [sim] });
  });

  test('tasks naming files the release does not hold are refused before anything runs, with the list', async () => {
    const graphFile = join(releasePath, 'hosttest-release', 'graphs', 'deployment.yaml');
    writeFileSync(graphFile, `${GRAPH}\n- id: needs-manifest\n  type: puppet\n  version: 2.1.0\n  roles: [compute]\n  parameters: {puppet_manifest: site/missing.pp, puppet_modules: modules, timeout: 60}\n`);
    assert.equal((await call('POST', '/plugins/hosttest@1.0.0/sync')).status, 200);
    try {
      const refused = await call('POST', `/clusters/${clusterId}/deploy`, { dry_run: false });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'deploy/files-missing');
      assert.deepEqual(refused.body.details.findings.map((f: any) => f.code), ['deploy/missing-file', 'deploy/missing-file']);
      assert.match(refused.body.details.findings[0].message, /needs-manifest.*site\/missing\.pp/);
      assert.match(refused.body.details.findings[1].message, /needs-manifest.* needs modules,/);
      assert.equal((await call('GET', `/clusters/${clusterId}`)).body.status, 'new', 'the dry run before changed nothing: the environment was never deployed');
    } finally {
      writeFileSync(graphFile, GRAPH);
      assert.equal((await call('POST', '/plugins/hosttest@1.0.0/sync')).status, 200);
    }
  });

  test('deploys for real: each host ran its tasks in order; results, output and statuses stored; no password shown', async () => {
    const started = await call('POST', `/clusters/${clusterId}/deploy`);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.body.mode, 'real');
    assert.equal(started.body.dry_run, false);
    const d = await waitFor(started.body.id);
    assert.equal(d.status, 'succeeded', JSON.stringify(d));
    assert.match(d.message, /1 task failed: compute-check on node \d+; within the roles' fault tolerance/);
    const ran = async (i: number) => (await onHost(i, 'cat /var/lib/hearth/ran')).trim().split('\n').map((l) => ({ t: Number(l.split(' ')[0]), name: l.split(' ')[1] }));
    const ctl = await ran(7);
    assert.deepEqual(ctl.map((r) => r.name), ['prepare', 'controller-setup', 'after-sleeper'], 'sleeper is off: its condition ($.debug) is false');
    assert.equal(await onHost(7, 'cat /var/lib/hearth/fetched'), 'hello from the repository\n', 'the node fetched a file of the plugin\'s repository from the server');
    const base = `${server.url}/plugins/hosttest-1.0.0/repositories`;
    assert.equal(await (await fetch(`${base}/hello.txt`)).text(), 'hello from the repository\n', 'open to nodes, no token');
    for (const bad of ['..%2F..%2Fmetadata.yaml', '%2e%2e/%2e%2e/metadata.yaml', 'nothing.txt', '']) assert.equal((await fetch(`${base}/${bad}`)).status, 404, bad);
    assert.equal((await fetch(`${server.url}/plugins/other-1.0.0/repositories/hello.txt`)).status, 404);
    for (const i of [8, 9]) {
      const mine = await ran(i);
      // once-per-node (changed($.uid)) runs: the dry run above is not what lifecycle conditions compare with.
      assert.deepEqual(mine.map((r) => r.name), ['prepare', 'compute-setup', 'once-per-node']);
      assert.ok(mine[1].t > ctl[1].t, 'a compute task waited for the controller\'s');
    }
    const tasks = (await call('GET', `/deployments/${d.id}/tasks?output=true`)).body;
    const setup = tasks.find((t: any) => t.task_id === 'controller-setup');
    assert.equal(setup.status, 'ready');
    assert.equal(setup.exit_status, 0);
    assert.equal(setup.attempts, 1);
    assert.equal(setup.type, 'shell');
    assert.ok(setup.started_at && setup.finished_at && setup.started_at <= setup.finished_at);
    assert.match(setup.output, /configured controller/);
    assert.doesNotMatch(JSON.stringify(tasks), new RegExp(SECRET));
    assert.match(setup.output, /password is \*{8}/);
    assert.equal(tasks.find((t: any) => t.task_id === 'sleeper').status, 'skipped');
    const filtered = (await call('GET', `/deployments/${d.id}/tasks?node=${ids[1]}&status=ready`)).body;
    assert.deepEqual(filtered.map((t: any) => t.task_id).sort(), ['compute-check', 'compute-setup', 'once-per-node', 'prepare']);
    assert.equal('output' in filtered[0], false);
    const nodes = (await call('GET', `/clusters/${clusterId}/nodes`)).body;
    // Fuel's words: ready is deployed and healthy; each node by its own tasks.
    assert.deepEqual(nodes.map((n: any) => [n.status, n.roles]), [['ready', ['controller']], ['ready', ['compute']], ['error', ['compute']]]);
    assert.equal(d.done, d.counts.succeeded);
    assert.equal(d.counts.failed, 1);
    assert.equal(Object.values(d.counts as Record<string, number>).reduce((a, b) => a + b, 0), d.total);
    const check = (await call('GET', `/deployments/${d.id}/tasks?task=compute-check&status=error&output=true`)).body;
    assert.deepEqual(check.map((t: any) => [t.node, t.exit_status, t.output.trim()]), [[String(ids[2]), 1, 'checking']]);
    assert.equal((await call('GET', `/clusters/${clusterId}`)).body.status, 'partially_deployed', 'succeeded within fault tolerance, a node in error');
    assert.equal((await onHost(7, 'stat -c %a /etc/hearth/deployment.yaml; ls /etc/hearth/plugins')).trim(), '600\nhosttest-1.0.0');
  });

  test('stop: the running task is let finish or killed after the grace period, nothing new starts', async () => {
    await onHost(7, 'rm -f /var/lib/hearth/ran');
    const set = await call('PUT', `/clusters/${clusterId}/attributes`, { editable: { common: { debug: { value: true } } } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const started = await call('POST', `/clusters/${clusterId}/deploy`, { max_parallel: 2 });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const until = Date.now() + 60_000;
    while (!(await call('GET', `/deployments/${started.body.id}/tasks?task=sleeper&status=running`)).body.length) {
      // Never started: the message carries the run and its tasks with their output, to say why.
      if (Date.now() >= until) assert.fail(`the sleeper never started: ${JSON.stringify((await call('GET', `/deployments/${started.body.id}`)).body)} ${JSON.stringify((await call('GET', `/deployments/${started.body.id}/tasks?output=true`)).body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // The live stream, read from here to the end of the run.
    const stream = fetch(`${server.url}/api/v1/deployments/${started.body.id}/events`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 300));
    const stop = await call('POST', `/clusters/${clusterId}/stop`);
    assert.equal(stop.status, 202, JSON.stringify(stop.body));
    const d = await waitFor(started.body.id, 90_000);
    assert.equal(d.status, 'stopped');
    const events = (await stream).split('\n\n').filter(Boolean).map((e) => ({ event: /^event: (.*)$/m.exec(e)![1], data: JSON.parse(/^data: (.*)$/m.exec(e)![1]) }));
    assert.ok(events.some((e) => e.event === 'output' && e.data.task_id === 'sleeper' && /tick-2/.test(e.data.chunk)), 'live output of the running task');
    assert.ok(events.some((e) => e.event === 'task' && e.data.task_id === 'after-sleeper' && e.data.status === 'skipped'));
    assert.deepEqual(events.at(-1), { event: 'end', data: { ...events.at(-1)!.data, status: 'stopped' } });
    const after = (await call('GET', `/deployments/${d.id}/tasks?task=after-sleeper`)).body[0];
    assert.equal(after.status, 'skipped');
    assert.equal(after.outcome, 'stopped', 'the stop kept it from starting');
    assert.match(after.message, /stopped/);
    assert.match(d.stopped_by, /^admin token from /);
    assert.ok(d.stopped_at && d.stopped_at >= d.started_at);
    assert.ok(d.counts.stopped >= 1 && d.done === d.counts.succeeded && d.done < d.total, JSON.stringify(d.counts));
    assert.equal((await call('GET', `/clusters/${clusterId}`)).body.status, 'stopped');
    assert.deepEqual((await onHost(7, 'cat /var/lib/hearth/ran')).trim().split('\n').map((l) => l.split(' ')[1]), ['prepare', 'controller-setup', 'sleeper']);
    assert.equal((await call('POST', `/clusters/${clusterId}/stop`)).body.code, 'deployment/not-running');
  });

  test('resume runs only what the stopped deployment did not finish, whatever dry runs and other graphs ran since', async () => {
    const last = (await call('GET', `/clusters/${clusterId}/deployments`)).body[0];
    const nodesBefore = (await call('GET', `/clusters/${clusterId}/nodes`)).body.map((n: any) => [n.id, n.status, n.roles]);
    // A dry run in between changes nothing real: not the environment, not the nodes, not what resume continues.
    const dry = await call('POST', `/clusters/${clusterId}/deploy`, { dry_run: true });
    assert.equal(dry.status, 202, JSON.stringify(dry.body));
    assert.equal((await waitFor(dry.body.id)).status, 'succeeded');
    assert.equal((await call('GET', `/clusters/${clusterId}`)).body.status, 'stopped');
    assert.deepEqual((await call('GET', `/clusters/${clusterId}/nodes`)).body.map((n: any) => [n.id, n.status, n.roles]), nodesBefore);
    // Another graph, run for real, neither: resuming is per graph type.
    const verify = await call('POST', `/clusters/${clusterId}/deploy`, { graph_type: 'network_verification', dry_run: false });
    assert.equal(verify.status, 202, JSON.stringify(verify.body));
    assert.equal((await waitFor(verify.body.id)).status, 'succeeded');
    assert.equal((await onHost(7, 'cat /var/lib/hearth/verified')).trim(), 'verified');
    assert.equal((await call('GET', `/clusters/${clusterId}`)).body.status, 'stopped', 'another graph leaves the environment as it was');
    const resumed = await call('POST', `/clusters/${clusterId}/deploy`, { resume: true });
    assert.equal(resumed.status, 202, JSON.stringify(resumed.body));
    const d = await waitFor(resumed.body.id);
    assert.equal(d.status, 'succeeded', JSON.stringify(d));
    assert.deepEqual((await onHost(7, 'cat /var/lib/hearth/ran')).trim().split('\n').map((l) => l.split(' ')[1]), ['prepare', 'controller-setup', 'sleeper', 'after-sleeper']);
    const prepare = (await call('GET', `/deployments/${d.id}/tasks?task=prepare&node=${ids[0]}`)).body[0];
    assert.deepEqual([prepare.status, prepare.message, prepare.attempts], ['ready', `done in deployment ${last.id}`, 0]);
    const again = await call('POST', `/clusters/${clusterId}/deploy`, { resume: true });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'deploy/nothing-to-resume');
    assert.match(again.body.message, /succeeded: there is nothing to resume/);
    assert.equal((await call('POST', `/clusters/${clusterId}/deploy`, { resume: true, dry_run: true })).status, 400);
  });

  test('a redeployment after adding a compute runs what the lifecycle conditions select', async () => {
    for (const i of [8, 9]) await onHost(i, 'rm -f /var/lib/hearth/ran');
    const added = await call('POST', '/nodes', { address: hosts!.addresses[12], cluster_id: clusterId });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal((await call('POST', `/clusters/${clusterId}/nodes`, { assignments: [{ node_id: added.body.node.id, roles: ['compute'] }] })).status, 200);
    const started = await call('POST', `/clusters/${clusterId}/deploy`);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const d = await waitFor(started.body.id);
    assert.equal(d.status, 'succeeded', JSON.stringify(d));
    const names = async (i: number) => (await onHost(i, 'cat /var/lib/hearth/ran')).trim().split('\n').map((l) => l.split(' ')[1]);
    assert.deepEqual(await names(13), ['prepare', 'compute-setup', 'once-per-node'], 'the new compute runs changed($.uid)');
    for (const i of [8, 9]) assert.deepEqual(await names(i), ['prepare', 'compute-setup'], `host ${i} was deployed before: changed($.uid) is false there`);
    const skipped = (await call('GET', `/deployments/${d.id}/tasks?task=once-per-node&status=skipped`)).body;
    assert.equal(skipped.length, 2);
  });

  test('a stop asked through the database (as another server sharing it would) stops the run', async () => {
    const started = await call('POST', `/clusters/${clusterId}/deploy`);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const until = Date.now() + 60_000;
    while (!(await call('GET', `/deployments/${started.body.id}/tasks?task=sleeper&status=running`)).body.length) {
      // Never started: the message carries the run and its tasks with their output, to say why.
      if (Date.now() >= until) assert.fail(`the sleeper never started: ${JSON.stringify((await call('GET', `/deployments/${started.body.id}`)).body)} ${JSON.stringify((await call('GET', `/deployments/${started.body.id}/tasks?output=true`)).body)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await server.db.query('UPDATE deployments SET stop_requested = true WHERE id = $1', [started.body.id]);
    const d = await waitFor(started.body.id, 90_000);
    assert.equal(d.status, 'stopped');
    assert.equal((await call('GET', `/deployments/${d.id}/tasks?task=after-sleeper`)).body[0].status, 'skipped');
  });

  test('an offline node: a real run is refused by name, or leaves it out when asked; back online it is what it was', async () => {
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'test-hosts.sh');
    const node = ids[2];
    const stateOf = async () => (await call('GET', `/nodes/${node}`)).body;
    const before = (await stateOf()).status;
    await onHost(9, 'rm -f /var/lib/hearth/ran');
    execFileSync(script, ['unplug', '9'], { timeout: 30_000 });
    try {
      // Hearth learns it cannot reach it when it next tries (a refresh here; its watch does the same).
      const refresh = await call('POST', `/nodes/${node}/refresh`);
      assert.notEqual(refresh.status, 200);
      assert.equal((await stateOf()).status, 'offline');
      const refused = await call('POST', `/clusters/${clusterId}/deploy`, { dry_run: false });
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'deploy/nodes-offline');
      assert.deepEqual(refused.body.details.nodes.map((n: any) => n.id), [node]);
      assert.match(refused.body.message, /offline node '[^']+'/);
      assert.equal((await call('GET', `/clusters/${clusterId}`)).body.status !== 'deploying', true, 'nothing started');
      const started = await call('POST', `/clusters/${clusterId}/deploy`, { dry_run: false, skip_offline: true });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      const d = await waitFor(started.body.id);
      assert.equal(d.status, 'succeeded', JSON.stringify(d));
      assert.deepEqual(d.skipped_nodes.map((n: any) => n.id), [node]);
      assert.equal((await call('GET', `/deployments/${d.id}/tasks?node=${node}`)).body.length, 0, 'no task of the run is on the offline node');
    } finally {
      execFileSync(script, ['plug', '9'], { timeout: 30_000 });
    }
    const back = await call('POST', `/nodes/${node}/refresh`);
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.status, before, 'back online, it is what it was before (its last tasks decide, not a guess)');
    assert.equal((await onHost(9, 'cat /var/lib/hearth/ran 2>/dev/null || echo untouched')).trim(), 'untouched');
  });
});
