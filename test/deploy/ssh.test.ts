/** The SSH transport and facts on a real test host (host 4): commands, quoting, host keys, failures. */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { gatherFacts } from '../../src/deploy/facts.js';
import { quote } from '../../src/deploy/quote.js';
import { SshTransport, fingerprint } from '../../src/deploy/ssh.js';
import { HOSTS_NOTE, host, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const target = hosts && host(hosts, 4);

describe('SSH transport on a test host', { skip: target ? false : HOSTS_NOTE }, () => {
  const ssh = new SshTransport({ keyFile: hosts?.keyFile ?? '', connectTimeoutS: 5 });
  after(() => ssh.close());

  test('runs a command, records the host key on first contact, then insists on it', async () => {
    const r = await ssh.exec(target!, 'echo hello; echo oops >&2; exit 3');
    assert.equal(r.exitCode, 3);
    assert.match(r.output, /hello/);
    assert.match(r.output, /oops/);
    const key = ssh.seenHostKey(target!);
    assert.match(key ?? '', /^ssh-ed25519 AAAA/);
    assert.match(fingerprint(key!), /^SHA256:[A-Za-z0-9+/]{43}$/);
    const again = await ssh.exec({ ...target!, hostKey: key }, 'hostname');
    assert.equal(again.exitCode, 0);
    assert.equal(again.output.trim(), 'hearth-test-4');
    const wrong = await ssh.exec({ ...target!, hostKey: hosts!.key.public.split(' ').slice(0, 2).join(' ') }, 'true');
    assert.equal(wrong.transportError?.code, 'ssh/host-key-changed');
  });

  test('hostile values reach the remote side as data, never as shell', async () => {
    const hostile = [`$(touch /tmp/pwned)`, '`touch /tmp/pwned`', "a'b\"c", '; touch /tmp/pwned #', 'line\nbreak', '*', '-n', '', ' spaced  ', '\\', '$HOME'];
    for (const value of hostile) {
      const r = await ssh.exec(target!, `printf %s ${quote(value)}`);
      assert.equal(r.exitCode, 0, value);
      assert.equal(r.output, value);
    }
    assert.equal((await onHost(4, 'ls /tmp/pwned 2>/dev/null || echo none')).trim(), 'none');
  });

  test('a timeout stops the remote command', async () => {
    const started = Date.now();
    const r = await ssh.exec(target!, 'sleep 30; touch /tmp/late', { timeoutMs: 1000 });
    assert.equal(r.timedOut, true);
    assert.ok(Date.now() - started < 15_000);
    await new Promise((res) => setTimeout(res, 500));
    assert.equal((await onHost(4, 'pgrep -x sleep || echo gone')).trim(), 'gone');
  });

  test('gathers facts: hostname, OS, CPUs, memory, disks, interfaces', async () => {
    const r = await gatherFacts(ssh, target!);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.facts.hostname, 'hearth-test-4');
    assert.equal(r.facts.os.id, 'debian');
    assert.ok((r.facts.cpus ?? 0) >= 1);
    assert.ok((r.facts.memory_bytes ?? 0) > 64 * 1024 * 1024);
    const eth0 = r.facts.interfaces.find((i) => i.name === 'eth0');
    assert.ok(eth0, JSON.stringify(r.facts.interfaces));
    assert.ok(eth0.addresses.includes(`${target!.address}/24`), JSON.stringify(eth0));
    assert.match(eth0.mac ?? '', /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    for (const d of r.facts.disks) assert.ok(d.size_bytes > 0 && d.type === 'disk', JSON.stringify(d));
  });

  test('an unreachable address and a refused key are errors in words', async () => {
    const nobody = await ssh.exec({ ...target!, address: '10.77.0.250' }, 'true');
    assert.equal(nobody.transportError?.code, 'ssh/unreachable');
    const closed = await ssh.exec({ ...target!, port: 2 }, 'true');
    assert.equal(closed.transportError?.code, 'ssh/unreachable');
    assert.match(closed.transportError!.message, /Connection refused/);
    const wrongUser = await ssh.exec({ ...target!, user: 'nobody' }, 'true');
    assert.equal(wrongUser.transportError?.code, 'ssh/auth-failed');
  });
});
