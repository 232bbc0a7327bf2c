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

describe('the CLI with a real node', { skip: hosts && hosts.addresses.length >= 12 ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-cli-deploy-'));
  let server: RunningServer;
  const hearth = (...args: string[]) => {
    const r = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, HEARTH_SERVER: server.url, HEARTH_TOKEN: server.token } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

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

    const made = createPlugin('clitest', { releasePlugin: true, parentDir: dir });
    writeFileSync(join(made.dir!, 'clitest-release', 'graphs', 'deployment.yaml'), '- id: hello\n  type: shell\n  version: 2.1.0\n  roles: [controller]\n  parameters: {cmd: "echo hello from $(hostname) | tee /var/lib/hearth/hello", timeout: 60}\n');
    assert.equal(hearth('plugin', 'install', '--folder', made.dir!).code, 0);
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
    assert.match(deployed.out, new RegExp(`^ready +node ${node.id} hello [\\d.]+ s$`, 'm'));
    assert.match(deployed.out, /^deployment \d+: succeeded, 1\/1 tasks$/m);
    assert.equal(await onHost(12, 'cat /var/lib/hearth/hello'), 'hello from hearth-test-12\n');

    await onHost(12, 'rm /var/lib/hearth/hello');
    const dry = hearth('env', 'deploy', 'cli-env', '--dry-run');
    assert.equal(dry.code, 0, dry.err);
    assert.match(dry.out, /^dry run \d+: succeeded, 1\/1 tasks \(simulated: nothing ran on the nodes\)$/m);
    assert.equal((await onHost(12, 'ls /var/lib/hearth/hello 2>/dev/null || echo none')).trim(), 'none');
    assert.match(hearth('env', 'stop', 'cli-env').err, /deployment\/not-running/);
  });
});
