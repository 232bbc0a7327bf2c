/**
 * The CLI against a real `hearth serve` (bin/hearth, built) on test host 12: Hearth's key, a node
 * added by address and shown with its facts, a deployment followed task by task, the dry run, and
 * refusals with their exit statuses.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPlugin } from '../../src/package/create/index.js';
import { hearthBin, startServer, type RunningServer } from '../support/serve.js';
import { HOSTS_NOTE, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const STAMP = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d';
const HELLO = '- id: hello\n  type: shell\n  version: 2.1.0\n  roles: [controller]\n  parameters: {cmd: "echo hello from $(hostname) | tee /var/lib/hearth/hello", timeout: 60}\n';

describe('the CLI with a real node', { skip: hosts && hosts.addresses.length >= 12 ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-cli-deploy-'));
  let server: RunningServer;
  const hearthWith = (env: Record<string, string>, ...args: string[]) => {
    const r = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: server.token, ...env } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const hearth = (...args: string[]) => hearthWith({}, ...args);
  const made = createPlugin('clitest', { releasePlugin: true, parentDir: dir });
  const graphFile = () => join(made.dir!, 'clitest-release', 'graphs', 'deployment.yaml');

  before(async () => {
    const data = join(dir, 'data');
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(data, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startServer({ dataDir: data, env: { HEARTH_NODE_CHECK_SECONDS: '0' }, args: ['--no-bundled-release'] });
    await onHost(12, 'rm -rf /var/lib/hearth/* /etc/hearth/*');
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('ssh-key, node add/show, env deploy --follow, --dry-run, and refusals', async () => {
    const key = hearth('ssh-key');
    assert.equal(key.code, 0, key.err);
    assert.equal(key.out.trim(), hosts!.key.public);
    assert.match(key.err, /authorized_keys/);

    writeFileSync(graphFile(), HELLO);
    const installed = hearth('plugin', 'install', '--folder', made.dir!);
    assert.equal(installed.code, 0, installed.err);
    const release = JSON.parse(hearth('release', 'list', '--json').out)[0].id;
    assert.equal(hearth('env', 'create', 'cli-env', '--release', release, '--components', 'hypervisor:qemu,network:neutron:core:ml2').code, 0);

    const ghost = hearth('node', 'add', '10.77.0.250', '--name', 'ghost');
    assert.equal(ghost.code, 1);
    assert.match(ghost.err, /node\/unreachable: cannot register 10\.77\.0\.250: the node cannot be reached/);
    assert.match(ghost.err, /hint: check the address and port/);
    assert.equal(hearth('node', 'add', hosts!.addresses[11], '--ssh-port', '70000').code, 2);

    const added = hearth('node', 'add', hosts!.addresses[11], '--env', 'cli-env', '--json');
    assert.equal(added.code, 0, added.err);
    const node = JSON.parse(added.out).node;
    const shown = hearth('node', 'show', String(node.id));
    assert.equal(shown.code, 0);
    assert.match(shown.out, new RegExp(`hearth-test-12 \\(node ${node.id}\\), root@${hosts!.addresses[11].replace(/\./g, '\\.')}:22, discovered`));
    assert.match(shown.out, /host key: SHA256:/);
    assert.match(shown.out, /facts \(.*\): hearth-test-12, Debian GNU\/Linux/);
    assert.match(shown.out, /interfaces:\ninterface .*\n[- ]+\neth0 /);
    assert.equal(hearth('node', 'refresh', String(node.id), '--accept-host-key', 'not-a-fingerprint').code, 2);
    assert.equal(hearth('node', 'refresh', String(node.id)).code, 0);

    assert.equal(hearth('node', 'assign', 'cli-env', '--node', `${node.id}=controller`).code, 0);
    const deployed = hearth('env', 'deploy', 'cli-env', '--follow');
    assert.equal(deployed.code, 0, deployed.err + deployed.out);
    // Each task with its time (ISO order, 24-hour, with the date), its outcome and its node's name.
    assert.match(deployed.out, new RegExp(`^${STAMP}  succeeded  hello on hearth-test-12, [\\d.]+s$`, 'm'));
    assert.match(deployed.out, /^deployment \d+: succeeded, 1\/1 tasks succeeded$/m);
    assert.equal(await onHost(12, 'cat /var/lib/hearth/hello'), 'hello from hearth-test-12\n');

    await onHost(12, 'rm /var/lib/hearth/hello');
    const dry = hearth('env', 'deploy', 'cli-env', '--dry-run');
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /^dry run \d+: succeeded, 1\/1 tasks succeeded \(simulated: nothing ran on the nodes\)$/m);
    assert.equal((await onHost(12, 'ls /var/lib/hearth/hello 2>/dev/null || echo none')).trim(), 'none');
    assert.match(hearth('env', 'stop', 'cli-env').err, /deployment\/not-running/);
  });

  test('deployment follow attaches to a real run and says a silent task is still running; env stop --grace --wait ends it within the grace', async () => {
    const plugin = JSON.parse(hearth('plugin', 'list', '--json').out)[0].id;
    // A task silent for 7 s: the heartbeat (every 2 s here, 30 s by default) says it still runs.
    writeFileSync(graphFile(), `${HELLO}- id: quiet\n  type: shell\n  version: 2.1.0\n  roles: [controller]\n  requires: [hello]\n  parameters: {cmd: "sleep 7; echo woke", timeout: 60}\n`);
    assert.equal(hearth('plugin', 'sync', plugin).code, 0);
    const started = hearth('env', 'deploy', 'cli-env', '--no-wait', '--json');
    assert.equal(started.code, 0, started.err);
    const id = JSON.parse(started.out).id;
    const followed = hearthWith({ HEARTH_FOLLOW_HEARTBEAT_S: '2' }, 'deployment', 'follow', String(id));
    assert.equal(followed.code, 0, followed.err + followed.out);
    const beats = followed.out.split('\n').filter((l) => new RegExp(`^${STAMP}  still running: quiet on hearth-test-12, \\d+s$`).test(l));
    assert.ok(beats.length >= 2, followed.out);
    assert.match(followed.out, new RegExp(`^${STAMP}  succeeded  quiet on hearth-test-12, [\\d.]+s$`, 'm'));
    assert.match(followed.out, new RegExp(`^deployment ${id}: succeeded, 2/2 tasks succeeded$`, 'm'));

    // A task that would run 2 minutes, stopped with a 2 s grace: killed then, not after the default 30 s.
    writeFileSync(graphFile(), `${HELLO}- id: quiet\n  type: shell\n  version: 2.1.0\n  roles: [controller]\n  requires: [hello]\n  parameters: {cmd: "sleep 120", timeout: 300}\n`);
    assert.equal(hearth('plugin', 'sync', plugin).code, 0);
    const long = JSON.parse(hearth('env', 'deploy', 'cli-env', '--no-wait', '--json').out).id;
    for (let i = 0; ; i++) {
      const res = await fetch(`${server.url}/api/v1/deployments/${long}/tasks?status=running&task=quiet`);
      if (((await res.json()) as unknown[]).length) break;
      assert.ok(i < 240, 'quiet started');
      await new Promise((r) => setTimeout(r, 250));
    }
    const asked = Date.now();
    const stopped = hearth('env', 'stop', 'cli-env', '--grace', '2', '--wait');
    const took = Date.now() - asked;
    assert.equal(stopped.code, 0, stopped.err + stopped.out);
    assert.match(stopped.err, /killed after 2 s/);
    assert.match(stopped.out, new RegExp(`^deployment ${long}: stopped`, 'm'));
    assert.ok(took < 20_000, `stopped in ${took} ms, within the 2 s grace (and bookkeeping), not the default 30 s`);
    // Killing a task ends its SSH session; the command on the node outlives it (until its own
    // timeout): a transport matter, noted in issue 25's report. Cleared so the host starts clean.
    await onHost(12, 'pkill -f "sleep 12[0]" || true');
  });
});
