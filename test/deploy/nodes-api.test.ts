/**
 * Real nodes through the HTTP API of a real server: Hearth's key, registering a test host (facts,
 * host key), refusals in words (unreachable, taken, hostile fields), a changed host key refused
 * until that very key is accepted. Hosts 5 and 6 (see test/support/test-hosts.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { HOSTS_NOTE, testHosts } from '../support/test-hosts.js';

const TOKEN = 'deploy-test-token-0123456789';
const hosts = testHosts();

async function serverWith(dataDir: string): Promise<{ server: RunningServer; call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }> }> {
  const server = await startServer({ port: 0, dataDir, adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return { server, call };
}

describe('Hearth\'s SSH key', () => {
  test('made at first start in the data folder (0600), the same at the next start, served by GET /ssh-key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-key-'));
    try {
      let { server, call } = await serverWith(dir);
      const first = (await call('GET', '/ssh-key')).body;
      await server.close();
      assert.match(first.public_key, /^ssh-ed25519 AAAA\S+ hearth@/);
      assert.match(first.fingerprint, /^SHA256:/);
      assert.equal(statSync(join(dir, 'ssh', 'id_ed25519')).mode & 0o777, 0o600);
      ({ server, call } = await serverWith(dir));
      assert.deepEqual((await call('GET', '/ssh-key')).body, first);
      await server.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a server without OpenSSH', () => {
  test('still starts, plans and simulates; real-node routes answer 503 saying what to install', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-nossh-'));
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    const s = await serverWith(dir).finally(() => (process.env.PATH = path));
    try {
      const key = await s.call('GET', '/ssh-key');
      assert.equal(key.status, 503);
      assert.equal(key.body.code, 'server/no-ssh-key');
      assert.match(key.body.details.hint, /install OpenSSH/);
      assert.equal((await s.call('POST', '/nodes', { address: '10.77.0.250' })).body.code, 'server/no-ssh-key');
      assert.equal((await s.call('POST', '/nodes', { simulate: { count: 2 } })).status, 201);
    } finally {
      await s.server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Hearth\'s SSH key on one PostgreSQL', { skip: process.env.HEARTH_TEST_DATABASE_URL ? false : 'HEARTH_TEST_DATABASE_URL is not set (CI sets it)' }, () => {
  test('two servers sharing the database log into nodes as one: the first one\'s key, in both data folders', async () => {
    const url = process.env.HEARTH_TEST_DATABASE_URL!;
    const schema = `hearth_key_${process.pid}_${Date.now()}`;
    const dirs = [mkdtempSync(join(tmpdir(), 'hearth-key-a-')), mkdtempSync(join(tmpdir(), 'hearth-key-b-'))];
    const servers: RunningServer[] = [];
    try {
      for (const dir of dirs) servers.push(await startServer({ port: 0, dataDir: dir, databaseUrl: url, schema, adminToken: TOKEN, bundledRelease: false, sweepMs: 60_000 }));
      const keys = (await Promise.all(servers.map(async (s) => (await fetch(`${s.url}/api/v1/ssh-key`)).json()))) as Array<{ public_key: string }>;
      assert.equal(keys[0].public_key, keys[1].public_key);
      const { readFileSync } = await import('node:fs');
      assert.equal(readFileSync(join(dirs[0], 'ssh', 'id_ed25519'), 'utf8'), readFileSync(join(dirs[1], 'ssh', 'id_ed25519'), 'utf8'));
      for (const dir of dirs) assert.equal(statSync(join(dir, 'ssh', 'id_ed25519')).mode & 0o777, 0o600);
    } finally {
      for (const s of servers) await s.close();
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('real nodes over the API', { skip: hosts && hosts.addresses.length >= 6 ? false : HOSTS_NOTE }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-nodes-'));
  let s: Awaited<ReturnType<typeof serverWith>>;
  before(async () => {
    // The test hosts authorize the test client key: this server adopts it as its own at first start.
    mkdirSync(join(dir, 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    s = await serverWith(dir);
  });
  after(async () => {
    await s?.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('registering a host: facts, host key fingerprint, not simulated; listed beside simulated nodes', async () => {
    assert.equal((await s.call('GET', '/ssh-key')).body.public_key, hosts!.key.public);
    const res = await s.call('POST', '/nodes', { address: hosts!.addresses[5] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const node = res.body.node;
    assert.equal(node.name, 'hearth-test-6');
    assert.equal(node.simulated, false);
    assert.equal(node.status, 'discovered');
    assert.equal(node.address, hosts!.addresses[5]);
    assert.equal(node.ssh_user, 'root');
    assert.equal(node.ssh_port, 22);
    const keyscan = execFileSync('ssh-keyscan', ['-t', 'ed25519', hosts!.addresses[5]], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const expected = execFileSync('ssh-keygen', ['-lf', '-'], { input: keyscan, encoding: 'utf8' }).split(' ')[1];
    assert.equal(node.host_key_fingerprint, expected);
    assert.equal(node.facts.hostname, 'hearth-test-6');
    assert.equal(node.facts.os.id, 'debian');
    assert.ok(node.facts.interfaces.some((i: any) => i.addresses.includes(`${hosts!.addresses[5]}/24`)));
    assert.ok(node.hardware.cpus >= 1);
    assert.deepEqual((await s.call('GET', `/nodes/${node.id}`)).body.facts, node.facts);
    await s.call('POST', '/nodes', { simulate: { count: 1, prefix: 'sim' } });
    const list = (await s.call('GET', '/nodes')).body;
    assert.deepEqual(list.map((n: any) => [n.name.replace(/\d+$/, 'N'), n.simulated]), [['hearth-test-N', false], ['sim-N', true]]);
    assert.equal('facts' in list[0], false, 'the list stays small: facts are in GET /nodes/:id');
    const again = await s.call('POST', '/nodes', { address: hosts!.addresses[5], name: 'other' });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'node/address-taken');
    const refreshed = await s.call('POST', `/nodes/${node.id}/refresh`);
    assert.equal(refreshed.status, 200);
    assert.equal(refreshed.body.host_key_fingerprint, expected);
  });

  test('refusals in words: unreachable, closed port, bad user; nothing is kept', async () => {
    const before = (await s.call('GET', '/nodes')).body.length;
    const nobody = await s.call('POST', '/nodes', { address: '10.77.0.250', name: 'ghost' });
    assert.equal(nobody.status, 422);
    assert.equal(nobody.body.code, 'node/unreachable');
    assert.match(nobody.body.message, /cannot be reached|timed out|No route/);
    assert.equal(nobody.body.details.ssh_error, 'ssh/unreachable');
    const closed = await s.call('POST', '/nodes', { address: hosts!.addresses[5], ssh_port: 2 });
    assert.equal(closed.body.code, 'node/unreachable');
    assert.match(closed.body.message, /Connection refused/);
    const user = await s.call('POST', '/nodes', { address: hosts!.addresses[5], ssh_port: 22, ssh_user: 'nobody', name: 'n2' });
    assert.equal(user.status, 409, 'the address and port are taken first');
    assert.equal((await s.call('GET', '/nodes')).body.length, before);
  });

  test('hostile fields are refused before any connection', async () => {
    for (const body of [
      { address: '-oProxyCommand=touch /tmp/pwned' },
      { address: '10.77.0.16; touch /tmp/pwned' },
      { address: '10.77.0.16', ssh_user: 'root -oProxyCommand=x' },
      { address: '10.77.0.16', ssh_user: '$(id)' },
      { address: '10.77.0.16', ssh_port: 0 },
      { address: '10.77.0.16', nodes: [{ name: 'x' }] },
      { name: 'lonely' },
    ]) {
      const res = await s.call('POST', '/nodes', body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });

  test('a changed host key is refused until the operator accepts that key', async () => {
    const reg = await s.call('POST', '/nodes', { address: hosts!.addresses[4], name: 'rekeyed' });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const id = reg.body.node.id;
    const old = reg.body.node.host_key_fingerprint;
    execFileSync(new URL('../../scripts/test-hosts.sh', import.meta.url).pathname, ['rekey', '5'], { stdio: 'ignore', timeout: 60_000 });
    const refused = await s.call('POST', `/nodes/${id}/refresh`);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'node/host-key-changed');
    assert.equal(refused.body.details.recorded_fingerprint, old);
    const now = refused.body.details.presented_fingerprint;
    assert.notEqual(now, old);
    assert.match(refused.body.details.hint, new RegExp(`--accept-host-key ${now.replace(/[+/]/g, '\\$&')}`));
    assert.equal((await s.call('GET', `/nodes/${id}`)).body.reach_error.code, 'ssh/host-key-changed');
    const wrong = await s.call('POST', `/nodes/${id}/refresh`, { accept_host_key: old });
    assert.equal(wrong.status, 409);
    const accepted = await s.call('POST', `/nodes/${id}/refresh`, { accept_host_key: now });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.host_key_fingerprint, now);
    assert.equal(accepted.body.reach_error, null);
  });

  test('a simulated node has nothing to refresh', async () => {
    const sim = (await s.call('POST', '/nodes', { simulate: { count: 1, prefix: 'plan' } })).body.ids[0];
    const res = await s.call('POST', `/nodes/${sim}/refresh`);
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'node/simulated');
  });
});

describe('the periodic reachability check', { skip: hosts && hosts.addresses.length >= 6 ? false : HOSTS_NOTE }, () => {
  const script = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'hearth-offline-'));
  after(() => {
    execFileSync(script, ['plug', '6']);
    rmSync(dir, { recursive: true, force: true });
  });

  test('a node that stops answering is marked offline with the error, and comes back when it answers', async () => {
    mkdirSync(join(dir, 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    process.env.HEARTH_NODE_CHECK_SECONDS = '1';
    const s = await serverWith(dir).finally(() => delete process.env.HEARTH_NODE_CHECK_SECONDS);
    try {
      const id = (await s.call('POST', '/nodes', { address: hosts!.addresses[5] })).body.node.id;
      const waitFor = async (status: string) => {
        const until = Date.now() + 60_000;
        for (;;) {
          const n = (await s.call('GET', `/nodes/${id}`)).body;
          if (n.status === status) return n;
          assert.ok(Date.now() < until, `node never ${status}: ${JSON.stringify(n)}`);
          await new Promise((r) => setTimeout(r, 300));
        }
      };
      execFileSync(script, ['unplug', '6']);
      const offline = await waitFor('offline');
      assert.equal(offline.reach_error.code, 'ssh/unreachable');
      assert.match(offline.reach_error.message, /cannot be reached|stopped answering/);
      execFileSync(script, ['plug', '6']);
      const back = await waitFor('discovered');
      assert.equal(back.reach_error, null);
    } finally {
      await s.server.close();
    }
  });
});
