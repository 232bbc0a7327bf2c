/**
 * Links out of a plugin folder, on a real test host over SSH (issue 24, item 3): copy_files and
 * sync once followed a link in a plugin to the server's data folder and sent its private key to a
 * node. The data folder here is a stand-in with a key file; the plugin lives in its plugin-files
 * folder, as an installed package does, so that "the plugin's own files are sent, nothing else of
 * the data folder is" is tested where the two meet.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { buildDeploymentGraph } from '../../src/core/graph/index.js';
import type { Task } from '../../src/core/tasks/model.js';
import { SshTransport, runDeployment, runTask, type DataFolder, type DeployTarget, type TaskOutcome } from '../../src/deploy/index.js';
import { HOSTS_NOTE, host, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
/** A host few other tests use, and a folder on it of this test's own. */
const HOST = 41;
const REMOTE = '/var/lib/hearth-links-test';
const KEY = '-----BEGIN OPENSSH PRIVATE KEY----- links-test-marker';

const task = (id: string, type: string, parameters: Record<string, unknown>): Task => ({ id, type, version: '2.1.0', roles: '*', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'release' }, parameters });

describe('links leading out of a plugin folder are never followed to a node', { skip: hosts && hosts.addresses.length >= HOST ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-links-'));
  const data = join(dir, 'data');
  const dataFolder: DataFolder = { dir: data, pluginFiles: join(data, 'plugin-files') };
  const plugin = join(data, 'plugin-files', 'links-1.0.0');
  const scripts = join(plugin, 'deployment_scripts');
  const work = join(dir, 'work');
  let ssh: SshTransport;
  let target: DeployTarget;

  const run = (t: Task, localDir = scripts, pluginRoot = plugin): Promise<TaskOutcome> =>
    runTask(t, { transport: ssh, target, workDir: work, scripts: { localDir, remoteDir: `${REMOTE}/scripts`, pluginRoot }, dataFolder, secrets: [], signal: new AbortController().signal, onOutput: () => undefined });
  /** What the host holds under REMOTE: every path, and whether the key's text reached it. */
  const onTheHost = async () => (await onHost(HOST, `cd ${REMOTE} 2>/dev/null && find . | sort; grep -rl 'links-test-marker' ${REMOTE} 2>/dev/null | sed 's/^/KEY IN /'; true`)).trim();

  before(async () => {
    await onHost(HOST, `rm -rf ${REMOTE} && mkdir -p ${REMOTE}`);
    mkdirSync(join(data, 'ssh'), { recursive: true });
    writeFileSync(join(data, 'ssh', 'id_ed25519'), `${KEY}\n`, { mode: 0o600 });
    mkdirSync(join(scripts, 'tree'), { recursive: true });
    mkdirSync(join(scripts, 'clean'), { recursive: true });
    mkdirSync(work);
    writeFileSync(join(scripts, 'own.txt'), 'the plugin\'s own file\n');
    writeFileSync(join(scripts, 'clean', 'leaf'), 'leaf\n');
    symlinkSync('leaf', join(scripts, 'clean', 'alias')); // a link inside the folder sent: fine
    symlinkSync(join(data, 'ssh', 'id_ed25519'), join(scripts, 'key'));
    symlinkSync(join(data, 'ssh'), join(scripts, 'ssh-folder'));
    writeFileSync(join(scripts, 'tree', 'leaf'), 'leaf\n');
    symlinkSync(join(data, 'ssh'), join(scripts, 'tree', 'leak'));
    ssh = new SshTransport({ keyFile: hosts!.keyFile });
    target = host(hosts!, HOST)!;
  });

  beforeEach(() => onHost(HOST, `rm -rf ${REMOTE} && mkdir -p ${REMOTE}`));

  after(async () => {
    await ssh?.close();
    await onHost(HOST, `rm -rf ${REMOTE}`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  test("copy_files of a link to the data folder's key fails the task and writes nothing on the node", async () => {
    const outcome = await run(task('copy-key', 'copy_files', { files: [{ src: 'key', dst: `${REMOTE}/copied/key` }] }));
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.message ?? '', /copy_files src 'key' cannot be sent: it leads outside the plugin's folder/);
    assert.doesNotMatch(outcome.message ?? '', /id_ed25519|ssh/, 'the message names no target');
    assert.equal(await onTheHost(), '.');
  });

  test('copy_files of a path into the data folder by ../ fails too (held before issue 24 as well)', async () => {
    const outcome = await run(task('copy-climb', 'copy_files', { files: [{ src: '../../../ssh/id_ed25519', dst: `${REMOTE}/copied/key` }] }));
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.message ?? '', /cannot be sent|outside the plugin's folder/);
    assert.equal(await onTheHost(), '.');
  });

  test('sync of a folder holding a link out of it is refused before anything is sent', async () => {
    const outcome = await run(task('sync-tree', 'sync', { src: 'tree', dst: `${REMOTE}/tree` }));
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.message ?? '', /sync src 'tree' cannot be sent: 'leak' is a link leading out of the folder/);
    assert.equal(await onTheHost(), '.');
  });

  test("sync whose src is itself a link to the data folder's ssh folder is refused", async () => {
    const outcome = await run(task('sync-ssh', 'sync', { src: 'ssh-folder', dst: `${REMOTE}/ssh` }));
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.message ?? '', /cannot be sent/);
    assert.equal(await onTheHost(), '.');
  });

  test("the plugin's own files, unpacked in the data folder, are sent; a link inside the folder is fine", async () => {
    const copied = await run(task('copy-own', 'copy_files', { files: [{ src: 'own.txt', dst: `${REMOTE}/own.txt` }] }));
    assert.equal(copied.exitCode, 0, copied.message);
    const synced = await run(task('sync-clean', 'sync', { src: 'clean', dst: `${REMOTE}/clean` }));
    assert.equal(synced.exitCode, 0, synced.message);
    assert.equal((await onHost(HOST, `readlink ${REMOTE}/clean/alias`)).trim(), 'leaf');
    assert.equal(await onTheHost(), ['.', './clean', './clean/alias', './clean/leaf', './own.txt'].join('\n'));
  });

  test('copy_files of the data folder itself (a scripts folder that is the data folder) sends nothing', async () => {
    const outcome = await run(task('copy-data', 'copy_files', { files: [{ src: 'ssh/id_ed25519', dst: `${REMOTE}/key` }] }), data, data);
    assert.equal(outcome.exitCode, null);
    assert.match(outcome.message ?? '', /cannot be sent/);
    assert.equal(await onTheHost(), '.');
  });

  test("a deployment whose scripts folder holds a link out of it sends nothing, not even the node's data", async () => {
    await onHost(HOST, 'rm -rf /etc/hearth/plugins/links-1.0.0 /etc/hearth/deployment.yaml');
    const graph = buildDeploymentGraph({ tasks: [{ ...task('mark', 'shell', { cmd: `touch ${REMOTE}/ran` }) }], nodes: [{ id: String(HOST), roles: ['compute'] }], roles: {} });
    const outcomes: TaskOutcome[] = [];
    const summary = await runDeployment(
      { graph, targets: new Map([[String(HOST), target]]), data: new Map([[String(HOST), { uid: String(HOST), marker: 'links-test-data' }]]), sources: new Map([['release', { folder: 'links-1.0.0', localDir: scripts, root: plugin }]]), workDir: work, secrets: [], dataFolder },
      { transport: ssh, events: { finished: (_v, _s, o) => o && outcomes.push(o) }, sleep: async () => undefined },
    );
    assert.equal(summary.failed.length, 1, JSON.stringify(summary));
    assert.match(outcomes[0]?.message ?? '', /the scripts of links-1\.0\.0 .* cannot be sent to nodes: '(key|ssh-folder|tree\/leak)' is a link leading out of the folder; nothing was sent/);
    assert.equal((await onHost(HOST, `ls /etc/hearth/plugins/links-1.0.0 2>&1; ls ${REMOTE}/ran 2>&1; grep -l links-test-data /etc/hearth/deployment.yaml 2>&1; true`)).match(/No such file/g)?.length, 3);
  });
});
