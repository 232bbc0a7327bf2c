/**
 * The release skeleton deploys for real, from its package: `hearth plugin create --release-plugin`,
 * `validate` and `build` with the real CLI, the package installed into a real `hearth serve` (the
 * author's folder then removed, so only the kept package can serve), one controller (test host 16)
 * and one compute (test host 17) added by address, `env deploy --follow`, and on the hosts: the
 * scripts delivered to /etc/hearth/plugins/<name>-<version>/, each task's log lines in order, and
 * the compute configured with the controller's address after the controller finished; beside it,
 * the extension plugin skeleton (`hearth plugin create ext`), also from its package, on the
 * controller. Then the package's repository served to a node, and uninstall removing what the
 * server unpacked.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hearthBin, startServer, type RunningServer } from '../support/serve.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const CONTROLLER = 16;
const COMPUTE = 17;
const NAME = 'skel';

describe('the release skeleton, deployed for real from its package', { skip: hosts && hosts.addresses.length >= COMPUTE ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-release-skeleton-'));
  const data = join(dir, 'data');
  let server: RunningServer;
  const hearth = (...args: string[]) => {
    const r = spawnSync(process.execPath, [hearthBin, ...args], { cwd: dir, encoding: 'utf8', timeout: 180_000, env: { ...process.env, HEARTH_SERVER: server?.url ?? '', HEARTH_TOKEN: server?.token ?? '' } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const clean = `rm -rf /tmp/ext /etc/hearth/* /etc/astute.yaml /etc/hearth-release/${NAME} /var/log/hearth-release/${NAME}`;
  // "<seconds> <task> <event>" lines the skeleton's scripts append on each host.
  const taskLog = async (i: number) =>
    (await onHost(i, `cat /var/log/hearth-release/${NAME}/tasks.log`))
      .trim()
      .split('\n')
      .map((l) => {
        const [t, task, event] = l.split(' ');
        return { t: Number(t), step: `${task} ${event}` };
      });

  before(async () => {
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    // On the test bridge, so that nodes reach the plugin's repository.
    server = await startServer({ dataDir: data, env: { HEARTH_NODE_CHECK_SECONDS: '0' }, args: ['--no-bundled-release', '--host', '10.77.0.1'] });
    for (const i of [CONTROLLER, COMPUTE]) await onHost(i, clean);
  });
  after(async () => {
    await server?.stop();
    for (const i of [CONTROLLER, COMPUTE]) await onHost(i, clean).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test('create, validate and build cleanly; installed from the package; deploys controller then compute on the hosts', async () => {
    const created = hearth('plugin', 'create', NAME, '--release-plugin');
    assert.equal(created.code, 0, created.err);
    writeFileSync(join(dir, NAME, `${NAME}-release`, 'repositories', 'ubuntu', 'hello.txt'), 'hello from the package\n');
    const validated = hearth('plugin', 'validate', NAME);
    assert.equal(validated.code, 0, validated.out + validated.err);
    assert.match(validated.out, /is valid: 0 errors, 0 warnings/);
    const built = hearth('plugin', 'build', NAME);
    assert.equal(built.code, 0, built.out + built.err);
    const pkg = join(dir, NAME, `${NAME}-1.0.0.tar.gz`);
    assert.ok(existsSync(pkg));
    const installed = hearth('plugin', 'install', pkg);
    assert.equal(installed.code, 0, installed.err);
    // An extension plugin for the same release (newton-10.0 on ubuntu), also from its package.
    assert.equal(hearth('plugin', 'create', 'ext').code, 0);
    const extBuilt = hearth('plugin', 'build', 'ext');
    assert.equal(extBuilt.code, 0, extBuilt.out + extBuilt.err);
    const extInstalled = hearth('plugin', 'install', join(dir, 'ext', 'ext-1.0.0.tar.gz'));
    assert.equal(extInstalled.code, 0, extInstalled.err);
    // From here on the server has only the packages it was sent.
    rmSync(join(dir, NAME), { recursive: true, force: true });
    rmSync(join(dir, 'ext'), { recursive: true, force: true });

    const release = JSON.parse(hearth('release', 'list', '--json').out).find((r: { id: string }) => r.id.startsWith(NAME)).id;
    assert.equal(hearth('env', 'create', 'skel-env', '--release', release, '--components', 'hypervisor:qemu,network:neutron:core:ml2').code, 0);
    const ids: Record<number, number> = {};
    for (const i of [CONTROLLER, COMPUTE]) {
      const added = hearth('node', 'add', hosts!.addresses[i - 1], '--env', 'skel-env', '--json');
      assert.equal(added.code, 0, added.err);
      ids[i] = JSON.parse(added.out).node.id;
    }
    const enabled = hearth('env', 'settings', 'skel-env', '--plugin', 'ext=1.0.0');
    assert.equal(enabled.code, 0, enabled.err);
    const assigned = hearth('node', 'assign', 'skel-env', '--node', `${ids[CONTROLLER]}=controller,ext_role`, '--node', `${ids[COMPUTE]}=compute`);
    assert.equal(assigned.code, 0, assigned.err);

    const deployed = hearth('env', 'deploy', 'skel-env', '--follow');
    assert.equal(deployed.code, 0, deployed.err + deployed.out);
    // Skipped tasks are counted apart from succeeded ones (issue 25).
    assert.match(deployed.out, /^deployment \d+: succeeded, \d\/8 tasks succeeded, \d skipped$/m);
    // Debug logging is off: diagnostics is skipped by its condition.
    assert.match(deployed.out, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}skipped {4}diagnostics on hearth-test-\d+$/m);

    // The release's and the plugin's scripts were delivered from the kept packages, and ran.
    assert.equal((await onHost(CONTROLLER, 'ls /etc/hearth/plugins/')).split('\n').filter(Boolean).sort().join(' '), `ext-1.0.0 ${NAME}-1.0.0`);
    assert.equal(await onHost(CONTROLLER, 'cat /tmp/ext'), 'ext deployed\n', "the plugin's deploy.sh ran");
    const deployment = /^deployment (\d+):/m.exec(deployed.out)![1];
    const res = await fetch(`${server.url}/api/v1/deployments/${deployment}/tasks?task=ext-deployment-puppet&output=true`, { headers: { authorization: `Bearer ${server.token}` } });
    const [puppet] = (await res.json()) as Array<{ status: string; output: string }>;
    assert.equal(puppet.status, 'ready');
    assert.match(puppet.output, /ext: deployed/, 'puppet applied the plugin\'s manifest');
    assert.equal((await onHost(CONTROLLER, `ls /etc/hearth/plugins/${NAME}-1.0.0/`)).split('\n').filter(Boolean).sort().join(' '), 'common.sh compute.sh controller.sh diagnostics.sh disks.py erase.sh provision.sh verify_networks.sh');
    const controllerAddress = hosts!.addresses[CONTROLLER - 1];
    assert.match(await onHost(CONTROLLER, `cat /etc/hearth-release/${NAME}/controller.conf`), new RegExp(`^address=${controllerAddress.replace(/\./g, '\\.')}\nhostname=hearth-test-${CONTROLLER}\n`));
    assert.equal(await onHost(COMPUTE, `cat /etc/hearth-release/${NAME}/controllers.json`), JSON.stringify([controllerAddress]), 'compute-controllers wrote the controllers from the deployment data');
    assert.equal(await onHost(COMPUTE, `cat /etc/hearth-release/${NAME}/compute.conf`), `controllers=${controllerAddress}\nhostname=hearth-test-${COMPUTE}\n`);
    // In order on each host, and the compute's configuration only after the controller's ended.
    const ctl = await taskLog(CONTROLLER);
    const cmp = await taskLog(COMPUTE);
    assert.deepEqual(ctl.map((l) => l.step), ['controller-services start', 'controller-services done']);
    assert.deepEqual(cmp.map((l) => l.step), ['compute-services start', 'compute-services done']);
    assert.ok(cmp[0].t >= ctl[1].t, `compute-services started at ${cmp[0].t}, before controller-services ended at ${ctl[1].t}`);

    // The other graphs run too: provisioning (disks.py, which finds no volume on a free disk here,
    // then provision.sh) and network verification (each node holds the address the deployment
    // knows it by).
    for (const [graph, tasks] of [['provisioning', 4], ['network_verification', 2]] as const) {
      const ran = hearth('env', 'deploy', 'skel-env', '--graph', graph, '--follow');
      assert.equal(ran.code, 0, ran.err + ran.out);
      assert.match(ran.out, new RegExp(`^deployment \\d+: succeeded, ${tasks}/${tasks} tasks`, 'm'));
    }
    for (const i of [CONTROLLER, COMPUTE]) assert.deepEqual((await taskLog(i)).slice(-2).map((l) => l.step), ['provision start', 'provision done']);

    // The deletion graph's erase.sh removes what the release wrote, and only that.
    const erased = hearth('env', 'deploy', 'skel-env', '--graph', 'deletion', '--follow');
    assert.equal(erased.code, 0, erased.err + erased.out);
    for (const i of [CONTROLLER, COMPUTE]) {
      assert.match(await onHost(i, `ls -d /etc/hearth-release/${NAME} /var/log/hearth-release/${NAME} 2>/dev/null; ls /etc/hearth/plugins`), new RegExp(`^(ext-1\\.0\\.0\n)?${NAME}-1\\.0\\.0\n$`));
    }
  });

  test('the package\'s repository is served to nodes; uninstall removes what the server unpacked', async () => {
    const base = `${server.url}/plugins/${NAME}-1.0.0/repositories`;
    const fetched = await onHost(COMPUTE, `bash -c 'exec 3<>/dev/tcp/10.77.0.1/${new URL(server.url).port}; printf "GET /plugins/${NAME}-1.0.0/repositories/hello.txt HTTP/1.0\\r\\n\\r\\n" >&3; cat <&3 | tail -n 1'`);
    assert.equal(fetched, 'hello from the package\n', 'a node fetched a file of the package\'s repository from the server');
    assert.equal((await fetch(`${base}/..%2F..%2Fmetadata.yaml`)).status, 404);
    const unpacked = join(data, 'plugin-files');
    assert.deepEqual(readdirSync(unpacked).map((e) => e.replace(/-[0-9a-f]{16}$/, '')).sort(), ['ext-1.0.0', `${NAME}-1.0.0`]);

    const inUse = hearth('plugin', 'uninstall', `${NAME}@1.0.0`);
    assert.equal(inUse.code, 1, 'refused while an environment uses its release');
    assert.equal(hearth('env', 'delete', 'skel-env', '--no-clean').code, 0, 'deleted without cleaning: this test is about the packages');
    for (const id of [`${NAME}@1.0.0`, 'ext@1.0.0']) {
      const removed = hearth('plugin', 'uninstall', id);
      assert.equal(removed.code, 0, removed.err);
    }
    assert.deepEqual(readdirSync(unpacked), [], 'nothing of the packages is left in the data folder');
    assert.equal((await fetch(`${base}/hello.txt`)).status, 404);
  });
});
