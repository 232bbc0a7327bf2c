/**
 * Verify networks on real hosts 34-37 (issue 27). Through a real server: the hosts registered as
 * real nodes of an environment whose network configuration puts management on VLAN 101, storage
 * on 102 and public on 103 (its gateway 172.16.0.1), and POST …/network_configuration/verify
 * answering the matrix, absent_vlans and the one finding; a second verification meanwhile refused,
 * and a stop through the API leaving nothing running. At the deploy layer (no server): a host
 * unplugged mid-verification. This machine's kernel has neither the 8021q module nor VLAN
 * filtering on the hosts' bridge, so a broken switch port is made with an nftables rule on the
 * bridge that drops VLAN 102 to and from host 35's port, and the gateway of VLAN 103 is a small
 * responder of this test (raw socket on the bridge: ARP and ping for 172.16.0.1 on VLAN 103 only).
 * An MTU that does not pass: a rule dropping host 36's frames of more than 1000 bytes on VLAN 101
 * (management, MTU 1400), and a network MTU larger than the hosts' interfaces (1500) take.
 * Every rule and the responder are removed on every path (after(), and at exit).
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyseVerification, probePlan, type VerifyPlan } from '../../src/core/networks/verify.js';
import { SshTransport, type DeployTarget } from '../../src/deploy/index.js';
import { runProbes } from '../../src/deploy/verify-networks.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { launchBrowser, needsBrowser, resultsDir } from '../support/browser.js';
import { hearthBin } from '../support/serve.js';
import { HOSTS_NOTE, host, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const INDEXES = [34, 35, 36, 37];
const TABLE = 'hearth_verify_issue27';
const GATEWAY = '172.16.0.1';
const TOKEN = 'verify-hosts-token-0123456789';
const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];
const TEST_HOSTS = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;

/** ARP and ICMP echo for each `ip@vlan` given (the gateway on VLAN 103; an address someone else holds), tagged, from the bridge's own MAC. */
const RESPONDER = String.raw`
import socket, struct, sys
pairs = {(socket.inet_aton(a.split("@")[0]), int(a.split("@")[1])) for a in sys.argv[1:]}
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3)); s.setsockopt(263, 8, 1); s.bind(("hearthbr0", 0))
mac = bytes.fromhex(open("/sys/class/net/hearthbr0/address").read().strip().replace(":", ""))
def csum(d):
    d += b"\0" * (len(d) % 2); t = sum(struct.unpack("!%dH" % (len(d) // 2), d)); t = (t >> 16) + (t & 0xffff); t += t >> 16; return ~t & 0xffff
print("ready", flush=True)
while True:
    data, anc, _, addr = s.recvmsg(65536, socket.CMSG_SPACE(20))
    if addr[2] == 4: continue
    tag = 0
    for lvl, kind, val in anc:
        if lvl == 263 and kind == 8 and struct.unpack("IIIHHHH", val[:20])[0] & 0x10: tag = struct.unpack("IIIHHHH", val[:20])[5] & 0xfff
    et = struct.unpack("!H", data[12:14])[0]; body = data[14:]
    if et == 0x8100: tag, et, body = struct.unpack("!H", body[:2])[0] & 0xfff, struct.unpack("!H", body[2:4])[0], body[4:]
    head = data[6:12] + mac + struct.pack("!HH", 0x8100, tag)
    if et == 0x0806 and body[6:8] == b"\0\1" and (body[24:28], tag) in pairs:
        s.send(head + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x800, 6, 4, 2) + mac + body[24:28] + body[8:14] + body[14:18])
    elif et == 0x0800 and (body[16:20], tag) in pairs and body[9] == 1 and body[20] == 8:
        ip = bytearray(body[:20]); ip[12:16], ip[16:20] = body[16:20], body[12:16]; ip[10:12] = b"\0\0"; ip[10:12] = struct.pack("!H", csum(bytes(ip)))
        icmp = bytearray(body[20:struct.unpack("!H", body[2:4])[0]]); icmp[0] = 0; icmp[2:4] = b"\0\0"; icmp[2:4] = struct.pack("!H", csum(bytes(icmp)))
        s.send(head + b"\x08\x00" + bytes(ip) + bytes(icmp))
`;

/** Host 35's switch port does not carry VLAN 102, either way. */
function addRules(): void {
  execFileSync('nft', ['-f', '-'], {
    input: `table bridge ${TABLE} {\n chain forward {\n  type filter hook forward priority 0; policy accept;\n  iifname "hth35" vlan id 102 drop\n  oifname "hth35" vlan id 102 drop\n }\n}\n`,
  });
}

function removeRules(): void {
  try {
    execFileSync('nft', ['delete', 'table', 'bridge', TABLE], { stdio: 'ignore' });
  } catch {
    // not there
  }
}

const plan = (): VerifyPlan => ({
  networks: [
    { name: 'admin', vlan: null, gateway: null },
    { name: 'management', vlan: 101, gateway: null, mtu: 1500 },
    { name: 'storage', vlan: 102, gateway: null },
    { name: 'public', vlan: 103, gateway: GATEWAY },
  ],
  members: INDEXES.flatMap((i) =>
    ['admin', 'management', 'storage', 'public'].map((network) => ({ node: String(i), name: `hearth-test-${i}`, network, interface: 'eth0', ip: network === 'admin' ? `10.77.0.${10 + i}` : network === 'public' ? `172.16.0.${i}` : null })),
  ),
});

/** The probes still running on host i (none once a verification is over). */
const probesOn = async (i: number) => (await onHost(i, 'pgrep -f hearth-net-prob[e] || true')).trim();

async function noProbeLeft(i: number, withinMs: number): Promise<string> {
  const until = Date.now() + withinMs;
  let left = await probesOn(i);
  while (left && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 500));
    left = await probesOn(i);
  }
  return left;
}

describe('Verify networks on test hosts 34-37', { skip: hosts && hosts.addresses.length >= 37 ? false : HOSTS_NOTE, timeout: 300_000 }, () => {
  let ssh: SshTransport;
  const responders: ChildProcess[] = [];
  const targets = new Map<string, DeployTarget>();
  const dir = mkdtempSync(join(tmpdir(), 'hearth-verify-hosts-'));
  let server: RunningServer | undefined;
  let env = 0;
  /** Node id by host index, as the server numbered them. */
  const ids = new Map<number, number>();
  const cleanUp = () => {
    removeRules();
    for (const r of responders) r.kill('SIGKILL');
    for (const i of INDEXES) execFileSync(TEST_HOSTS, ['plug', String(i)], { stdio: 'ignore' });
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server!.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** A responder answering ARP and ping for each `ip@vlan`, ready to answer. */
  const respond = async (...pairs: string[]) => {
    const r = spawn('python3', ['-c', RESPONDER, ...pairs], { stdio: ['ignore', 'pipe', 'inherit'] });
    responders.push(r);
    await new Promise<void>((resolve, reject) => {
      r.stdout!.once('data', () => resolve());
      r.once('exit', (code) => reject(new Error(`the responder ended (${code})`)));
    });
  };

  before(async () => {
    process.once('exit', cleanUp);
    ssh = new SshTransport({ keyFile: hosts!.keyFile });
    for (const i of INDEXES) {
      // A recorded host key, as the server has for its nodes: commands then run in the node's session, under its watcher.
      const t = host(hosts!, i, `hearth-test-${i}`)!;
      const first = await ssh.exec({ ...t, id: String(i) }, 'true', { timeoutMs: 30_000 });
      assert.equal(first.exitCode, 0, first.output);
      targets.set(String(i), { ...t, id: String(i), hostKey: ssh.seenHostKey(t) });
    }
    removeRules();
    addRules();
    await respond(`${GATEWAY}@103`);

    // A server whose key the test hosts authorize, the four hosts its real nodes, all controllers
    // (a public address each); public moved onto VLAN 103, where its gateway answers.
    mkdirSync(join(dir, 'ssh'), { recursive: true });
    writeFileSync(join(dir, 'ssh', 'id_ed25519'), hosts!.key.private, { mode: 0o600 });
    writeFileSync(join(dir, 'ssh', 'id_ed25519.pub'), `${hosts!.key.public}\n`);
    server = await startServer({ port: 0, dataDir: dir, adminToken: TOKEN, sweepMs: 60_000 });
    const release = (await call('GET', '/releases')).body[0].id;
    const created = await call('POST', '/clusters', { name: 'wires', release_id: release, components: BASE });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    env = created.body.id;
    for (const i of INDEXES) {
      const added = await call('POST', '/nodes', { address: hosts!.addresses[i - 1] });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      ids.set(i, added.body.node.id);
    }
    const assigned = await call('POST', `/clusters/${env}/nodes`, { assignments: INDEXES.map((i) => ({ node_id: ids.get(i), roles: ['controller'] })) });
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    const put = await call('PUT', `/clusters/${env}/network_configuration`, { networks: [{ name: 'public', vlan_start: 103 }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const pub = put.body.networks.find((n: { name: string }) => n.name === 'public');
    assert.deepEqual([pub.cidr, pub.gateway, pub.vlan_start], ['172.16.0.0/24', GATEWAY, 103]);
  });

  after(async () => {
    cleanUp();
    process.removeListener('exit', cleanUp);
    await ssh?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    assert.doesNotMatch(execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' }), new RegExp(TABLE), 'the rule is gone');
  });

  const nodes = () => probePlan(plan()).map((input) => ({ target: targets.get(input.node)!, input }));
  const id = (i: number) => String(ids.get(i));

  test("through the API: exactly host 35 and VLAN 102, and host 36's management address answered by another host; everything else passes", async (t) => {
    // Someone else answers for host 36's management address, on management's VLAN only.
    const data = (await call('GET', `/nodes/${ids.get(36)}`)).body.network_data as Array<{ name: string; ip: string; vlan: number | null; dev: string }>;
    const management = data.find((d) => d.name === 'management')!;
    assert.deepEqual([management.vlan, management.dev], [101, 'eth0']);
    const taken = management.ip.split('/')[0];
    await respond(`${taken}@101`);
    const duplicate = responders[responders.length - 1];
    t.after(() => void duplicate.kill('SIGKILL'));
    const bridgeMac = execFileSync('cat', ['/sys/class/net/hearthbr0/address'], { encoding: 'utf8' }).trim();

    const res = await call('POST', `/clusters/${env}/network_configuration/verify`, { budget_s: 7 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const v = res.body;
    for (const n of v.nodes) assert.ok(n.answered, `${n.name}: ${n.failure}`);
    assert.equal(v.status, 'failed');
    assert.deepEqual(v.findings.map((f: { code: string; message: string }) => [f.code, f.message]), [
      ['verify/vlan-cut-off', "VLAN 102 (storage) does not pass between hearth-test-35's eth0 and the others"],
      ['verify/duplicate-address', `${taken}, hearth-test-36's address on management, is also answered by ${bridgeMac}: another host uses it`],
    ]);
    assert.match(v.findings[0].hint, /switch port of hearth-test-35 \(eth0\).*VLAN 102/);
    assert.deepEqual(v.absent_vlans, [{ uid: id(35), name: 'hearth-test-35', interface: 'eth0', absent_vlans: [102] }]);
    // The environment's networks, each on its VLAN; the gateway answered ARP and ping on VLAN 103 (no finding).
    assert.deepEqual(v.networks.map((m: { network: string; vlan: number | null; passes: boolean }) => [m.network, m.vlan, m.passes]), [
      ['public', 103, true],
      ['management', 101, true],
      ['storage', 102, false],
      ['fuelweb_admin', null, true],
    ]);
    const storage = v.networks.find((m: { network: string }) => m.network === 'storage');
    assert.equal(storage.heard[id(34)][id(35)], false);
    assert.equal(storage.heard[id(35)][id(36)], false);
    assert.equal(storage.heard[id(34)][id(36)], true);
    // Kept in the history as a run of its own, each node's probe output with it.
    const run = (await call('GET', `/clusters/${env}/deployments/${v.deployment_id}`)).body;
    assert.deepEqual([run.graph_type, run.status], ['verify_networks', 'failed']);
    for (const i of INDEXES) assert.equal(await noProbeLeft(i, 10_000), '', `nothing left on host ${i}`);
  });

  test('the built CLI: a matrix for the failing network, the finding with its hint, exit status 1; --json the API answer', async () => {
    const cli = (...args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        // Not spawnSync: the server answering it runs in this process.
        execFile(process.execPath, [hearthBin, 'env', 'verify-networks', 'wires', '--budget', '6', ...args], { env: { ...process.env, HEARTH_SERVER: server!.url, HEARTH_TOKEN: TOKEN }, timeout: 120_000 }, (err, stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
        );
      });
    const human = await cli();
    assert.equal(human.code, 1, human.stderr);
    assert.match(human.stdout, /^management \(VLAN 101\): passes between all 4 nodes$/m);
    assert.match(human.stdout, /^storage \(VLAN 102\): FAILS$/m);
    // Host 35's row: it heard nobody on storage; host 34's row: everyone but host 35.
    assert.match(human.stdout, /^hearth-test-35 eth0 +NO +- +NO +NO$/m);
    assert.match(human.stdout, /^hearth-test-34 eth0 +- +NO +ok +ok$/m);
    assert.match(human.stdout, /absent VLANs \(0: untagged\): hearth-test-35 eth0: 102/);
    assert.match(human.stdout, /^error: VLAN 102 \(storage\) does not pass between hearth-test-35's eth0 and the others\n {2}hint: check the switch port of hearth-test-35 \(eth0\)/m);
    assert.match(human.stdout, /^failed: 1 problem \(deployment \d+ in the history/m);
    const json = await cli('--json');
    assert.equal(json.code, 1, json.stderr);
    const v = JSON.parse(json.stdout);
    assert.equal(v.status, 'failed');
    assert.deepEqual(v.absent_vlans, [{ uid: id(35), name: 'hearth-test-35', interface: 'eth0', absent_vlans: [102] }]);
    assert.ok(Number.isInteger(v.deployment_id));
  });

  test('the Networks tab in Chromium: Verify networks shows the failing network\'s matrix and the finding with what to check', { skip: needsBrowser.skip }, async () => {
    const browser = await launchBrowser();
    try {
      const p = await browser.newPage();
      await p.goto(`${server!.url}/#token=${TOKEN}`);
      await p.goto(`${server!.url}/#/env/${env}/networks`);
      const button = p.getByRole('button', { name: 'Verify networks' });
      await button.waitFor({ timeout: 60_000 });
      await button.click();
      const result = p.locator('[data-testid="verify-result"]');
      await result.waitFor({ timeout: 90_000 });
      assert.equal(await result.getAttribute('data-status'), 'failed');
      assert.match(await p.locator('[data-testid="verify-networks"] li[data-network="management"]').innerText(), /management \(VLAN 101\): passes between all 4 nodes/);
      assert.match(await p.locator('[data-testid="verify-networks"] li[data-network="storage"]').innerText(), /storage \(VLAN 102\): fails/);
      // Host 35's row of the storage matrix: it heard none of the others.
      const row = p.locator('[data-testid="verify-matrix-storage"] tr[data-node="hearth-test-35"] td');
      assert.deepEqual(await row.allInnerTexts(), ['NO', '-', 'NO', 'NO']);
      assert.equal(await p.locator('[data-testid^="verify-matrix-"]').count(), 1, 'only the failing network has a matrix');
      const finding = await p.locator('[data-testid="verify-findings"] li[data-code="verify/vlan-cut-off"]').innerText();
      assert.match(finding, /VLAN 102 \(storage\) does not pass between hearth-test-35's eth0 and the others/);
      assert.match(finding, /What to check: check the switch port of hearth-test-35 \(eth0\)/);
      assert.match(await p.locator('[data-testid="verify-absent"]').innerText(), /hearth-test-35 eth0: 102/);
      await p.screenshot({ path: join(resultsDir, 'verify-networks.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  test("through the API: an MTU that does not pass: host 36's switch port drops management's large frames, and exactly that is named", async () => {
    const put = await call('PUT', `/clusters/${env}/network_configuration`, { networks: [{ name: 'management', mtu: 1400 }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    // Host 36's switch port lets no frame of more than 1000 bytes in on VLAN 101; small ones pass.
    execFileSync('nft', ['add', 'rule', 'bridge', TABLE, 'forward', 'iifname', 'hth36', 'vlan', 'id', '101', 'meta', 'length', '>', '1000', 'drop']);
    try {
      const res = await call('POST', `/clusters/${env}/network_configuration/verify`, { budget_s: 7 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const v = res.body;
      for (const n of v.nodes) assert.ok(n.answered, `${n.name}: ${n.failure}`);
      assert.deepEqual(v.findings.map((f: { code: string; message: string }) => [f.code, f.message]), [
        ['verify/mtu', "frames of 1400 bytes from hearth-test-36's eth0 do not reach hearth-test-34, hearth-test-35 and hearth-test-37 on VLAN 101 (management), small ones do"],
        ['verify/vlan-cut-off', "VLAN 102 (storage) does not pass between hearth-test-35's eth0 and the others"],
      ]);
      assert.match(v.findings[0].hint, /raise the MTU of the switch ports on the way .* to 1400, or lower management's MTU/);
      assert.equal(v.networks.find((m: { network: string }) => m.network === 'management').passes, true, 'small frames pass');
    } finally {
      removeRules();
      addRules();
      const back = await call('PUT', `/clusters/${env}/network_configuration`, { networks: [{ name: 'management', mtu: null }] });
      assert.equal(back.status, 200, JSON.stringify(back.body));
    }
  });

  test('a network MTU larger than the interfaces take: each node names its own interface and MTU (deploy layer)', async () => {
    const jumbo: VerifyPlan = { networks: [{ name: 'management', vlan: 101, gateway: null, mtu: 1600 }], members: plan().members.filter((m) => m.network === 'management') };
    const runs = await runProbes(ssh, probePlan(jumbo).map((input) => ({ target: targets.get(input.node)!, input })), { budgetS: 5, sendS: 3 });
    const result = analyseVerification(jumbo, runs.map((r) => r.report));
    assert.deepEqual(
      result.findings.map((f) => f.message),
      INDEXES.map((i) => `hearth-test-${i}'s eth0 cannot send frames of 1600 bytes on VLAN 101 (management): its MTU is 1500`),
    );
    assert.ok(result.networks[0].passes, 'small frames pass');
  });

  test('through the API: a second verification meanwhile is refused; a stop leaves nothing running on the hosts', async () => {
    const first = call('POST', `/clusters/${env}/network_configuration/verify`, { budget_s: 60 });
    // Started everywhere first: the stop must end running probes, not ones never begun.
    const until = Date.now() + 30_000;
    while ((await Promise.all(INDEXES.map(probesOn))).some((p) => !p) && Date.now() < until) await new Promise((r) => setTimeout(r, 300));
    const second = await call('POST', `/clusters/${env}/network_configuration/verify`);
    assert.equal(second.status, 409, JSON.stringify(second.body));
    assert.equal(second.body.code, 'verify/running');
    assert.match(second.body.details.hint, /hearth env stop wires/);
    const stop = await call('POST', `/clusters/${env}/stop`);
    assert.equal(stop.status, 202, JSON.stringify(stop.body));
    const answer = await first;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    for (const n of answer.body.nodes) assert.equal(n.failure, 'the verification was stopped', n.name);
    assert.equal((await call('GET', `/clusters/${env}/deployments/${answer.body.deployment_id}`)).body.status, 'stopped');
    // The watcher sends TERM at once and KILL 5 s later.
    for (const i of INDEXES) assert.equal(await noProbeLeft(i, 15_000), '', `nothing left on host ${i}`);
  });

  test('a host unplugged mid-verification: named as not answering, nothing left running on it', async () => {
    const running = runProbes(ssh, nodes(), { budgetS: 8, sendS: 6 });
    const until = Date.now() + 30_000;
    while (!(await probesOn(36)) && Date.now() < until) await new Promise((r) => setTimeout(r, 300));
    execFileSync(TEST_HOSTS, ['unplug', '36']);
    try {
      const runs = await running;
      const result = analyseVerification(plan(), runs.map((r) => r.report));
      assert.equal(runs.find((r) => r.report.node === '36')!.report.answered, false);
      assert.ok(result.findings.some((f) => f.code === 'verify/no-answer' && f.message.startsWith('hearth-test-36 gave no answer')), JSON.stringify(result.findings));
      // The probe ends on its own after its budget even while its connection hangs.
      assert.equal(await noProbeLeft(36, 15_000), '', 'nothing left on host 36');
    } finally {
      execFileSync(TEST_HOSTS, ['plug', '36']);
    }
    for (const i of INDEXES) assert.equal(await noProbeLeft(i, 15_000), '', `nothing left on host ${i}`);
  });
});
