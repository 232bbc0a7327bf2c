/**
 * A file Hearth writes on a node (upload_file, copy_files, the deployment data) lands whole or not
 * at all. A connection cut mid-upload ends the data early, and the node's shell runs the command
 * on what arrived; the truncated file was then renamed into place.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, describe, test } from 'node:test';
import { SshTransport } from '../../src/deploy/ssh.js';
import { uploadCommand } from '../../src/deploy/tasks.js';
import { HOSTS_NOTE, host, onHost, testHosts } from '../support/test-hosts.js';

const data = Buffer.from(Array.from({ length: 2000 }, (_, i) => `line ${i} of the plugin's settings\n`).join(''));

describe("an upload cut short leaves the node's file as it was", () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-upload-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'etc', 'settings.yaml');

  // The way a node's open shell receives data (session.ts): a here-document in base64, here cut off.
  const cutHereDocument = (command: string, sent: Buffer) => {
    const lines = sent.toString('base64').replace(/.{1,76}/g, '$&\n');
    return `( base64 -d | ( ${command}\n) ) 2>&1 <<'tok-data'\n${lines}`;
  };

  for (const shell of ['sh', 'bash']) {
    test(`${shell}: whole data is written; data cut short is refused and removed`, () => {
      rmSync(join(dir, 'etc'), { recursive: true, force: true });
      const whole = spawnSync(shell, ['-c', uploadCommand(path, data, '0640', '0755')], { input: data });
      assert.equal(whole.status, 0, whole.stderr.toString());
      assert.deepEqual(readFileSync(path), data);

      writeFileSync(path, 'the previous settings\n');
      const piped = spawnSync(shell, ['-c', uploadCommand(path, data, '0640')], { input: data.subarray(0, 1000) });
      assert.notEqual(piped.status, 0);
      assert.match(piped.stderr.toString(), /settings\.yaml: the upload was cut short \(fewer than \d+ bytes arrived\); the file was left as it was/);
      assert.equal(readFileSync(path, 'utf8'), 'the previous settings\n');
      assert.equal(existsSync(`${path}.hearth-tmp`), false, 'the partial file is removed');

      // A here-document cut by end of file: the shell still runs the command on what arrived.
      const heredoc = spawnSync(shell, [], { input: cutHereDocument(uploadCommand(path, data, '0640'), data.subarray(0, 30_000)) });
      assert.match(heredoc.stdout.toString() + heredoc.stderr.toString(), /the upload was cut short/);
      assert.equal(readFileSync(path, 'utf8'), 'the previous settings\n');
      assert.equal(existsSync(`${path}.hearth-tmp`), false);
    });
  }

  test('an empty file and a file of binary bytes are whole too', () => {
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) & 0xff));
    for (const body of [Buffer.alloc(0), binary, 'ünïcode ✓\n']) {
      const r = spawnSync('sh', ['-c', uploadCommand(path, body, '0600')], { input: body });
      assert.equal(r.status, 0, r.stderr.toString());
      assert.deepEqual(readFileSync(path), Buffer.from(body));
    }
  });
});

const hosts = testHosts();
const target = hosts && host(hosts, 5);

describe('on a real node, a connection cut mid-upload', { skip: target ? false : HOSTS_NOTE, timeout: 120_000 }, () => {
  const ssh = new SshTransport({ keyFile: hosts?.keyFile ?? '', connectTimeoutS: 5 });
  after(() => ssh.close());
  const remote = '/tmp/hearth-upload-test/settings.yaml';

  test('leaves the file there as it was, and no partial file beside it', async () => {
    await onHost(5, `mkdir -p /tmp/hearth-upload-test && printf 'the previous settings\\n' > ${remote} && rm -f ${remote}.hearth-tmp`);
    const body = Buffer.alloc(1_000_000, 'x');
    const stdin = new PassThrough();
    const stop = new AbortController();
    const sent = ssh.exec(target!, uploadCommand(remote, body, '0644'), { stdin, signal: stop.signal, timeoutMs: 60_000 });
    stdin.write(body.subarray(0, 200_000));
    // Wait until the node holds part of the data, then cut the connection, as a killed server would.
    const deadline = Date.now() + 60_000;
    while (Number((await onHost(5, `wc -c < ${remote}.hearth-tmp 2>/dev/null || echo 0`)).trim()) === 0) {
      assert.ok(Date.now() < deadline, 'no data reached the node within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    stop.abort();
    await sent;
    // The node's side ends once its sshd sees the connection gone: give it time on a loaded machine.
    let state = '';
    while (Date.now() < deadline) {
      state = (await onHost(5, `cat ${remote}; ls ${remote}.hearth-tmp 2>/dev/null || echo no-partial`)).trim();
      if (state.endsWith('no-partial')) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(state, 'the previous settings\nno-partial');
    await onHost(5, 'rm -rf /tmp/hearth-upload-test');
  });
});
