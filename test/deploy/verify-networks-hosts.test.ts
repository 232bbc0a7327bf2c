/**
 * Verify networks on real hosts 34-37 (issue 27), without a server: the probe over SSH on every
 * host at once, and core's answer. This machine's kernel has neither the 8021q module nor VLAN
 * filtering on the hosts' bridge, so a broken switch port is made with an nftables rule on the
 * bridge that drops VLAN 102 to and from host 35's port, and the gateway of VLAN 103 is a small
 * responder of this test (raw socket on the bridge: ARP and ping for 172.16.0.1 on VLAN 103 only).
 * Every rule and the responder are removed on every path (after(), and at exit).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { analyseVerification, probePlan, type VerifyPlan } from '../../src/core/networks/verify.js';
import { SshTransport, type DeployTarget } from '../../src/deploy/index.js';
import { runProbes } from '../../src/deploy/verify-networks.js';
import { HOSTS_NOTE, host, onHost, testHosts } from '../support/test-hosts.js';

const hosts = testHosts();
const INDEXES = [34, 35, 36, 37];
const TABLE = 'hearth_verify_issue27';
const GATEWAY = '172.16.0.1';
const TEST_HOSTS = new URL('../../scripts/test-hosts.sh', import.meta.url).pathname;

/** ARP and ICMP echo for GATEWAY on VLAN 103 alone, tagged, from the bridge's own MAC. */
const RESPONDER = String.raw`
import socket, struct, sys
gw = socket.inet_aton(sys.argv[1]); vlan = int(sys.argv[2])
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
    if tag != vlan: continue
    head = data[6:12] + mac + struct.pack("!HH", 0x8100, vlan)
    if et == 0x0806 and body[6:8] == b"\0\1" and body[24:28] == gw:
        s.send(head + b"\x08\x06" + struct.pack("!HHBBH", 1, 0x800, 6, 4, 2) + mac + gw + body[8:14] + body[14:18])
    elif et == 0x0800 and body[16:20] == gw and body[9] == 1 and body[20] == 8:
        ip = bytearray(body[:20]); ip[12:16], ip[16:20] = body[16:20], body[12:16]; ip[10:12] = b"\0\0"; ip[10:12] = struct.pack("!H", csum(bytes(ip)))
        icmp = bytearray(body[20:struct.unpack("!H", body[2:4])[0]]); icmp[0] = 0; icmp[2:4] = b"\0\0"; icmp[2:4] = struct.pack("!H", csum(bytes(icmp)))
        s.send(head + b"\x08\x00" + bytes(ip) + bytes(icmp))
`;

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
  let responder: ChildProcess | undefined;
  const targets = new Map<string, DeployTarget>();
  const cleanUp = () => {
    removeRules();
    responder?.kill('SIGKILL');
    for (const i of INDEXES) execFileSync(TEST_HOSTS, ['plug', String(i)], { stdio: 'ignore' });
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
    // Host 35's switch port does not carry VLAN 102, either way.
    execFileSync('nft', ['-f', '-'], {
      input: `table bridge ${TABLE} {\n chain forward {\n  type filter hook forward priority 0; policy accept;\n  iifname "hth35" vlan id 102 drop\n  oifname "hth35" vlan id 102 drop\n }\n}\n`,
    });
    responder = spawn('python3', ['-c', RESPONDER, GATEWAY, '103'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      responder!.stdout!.once('data', () => resolve());
      responder!.once('exit', (code) => reject(new Error(`the gateway responder ended (${code})`)));
    });
  });

  after(async () => {
    cleanUp();
    process.removeListener('exit', cleanUp);
    await ssh?.close();
    assert.doesNotMatch(execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' }), new RegExp(TABLE), 'the rule is gone');
  });

  const nodes = () => probePlan(plan()).map((input) => ({ target: targets.get(input.node)!, input }));

  test('names exactly host 35 and VLAN 102; everything else passes, the gateway answers', async () => {
    const runs = await runProbes(ssh, nodes(), { budgetS: 7, sendS: 5 });
    const result = analyseVerification(plan(), runs.map((r) => r.report));
    for (const r of runs) assert.ok(r.report.answered, `${r.report.node}: ${r.report.failure} ${r.output.slice(-500)}`);
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.findings.map((f) => [f.code, f.message]), [['verify/vlan-cut-off', "VLAN 102 (storage) does not pass between hearth-test-35's eth0 and the others"]]);
    assert.match(result.findings[0].hint ?? '', /switch port of hearth-test-35 \(eth0\).*VLAN 102/);
    assert.deepEqual(result.absent_vlans, [{ uid: '35', name: 'hearth-test-35', interface: 'eth0', absent_vlans: [102] }]);
    for (const m of result.networks) assert.equal(m.passes, m.network !== 'storage', m.network);
    const storage = result.networks.find((m) => m.network === 'storage')!;
    assert.equal(storage.heard['34']['35'], false);
    assert.equal(storage.heard['35']['36'], false);
    assert.equal(storage.heard['34']['36'], true);
    for (const r of runs) assert.deepEqual(r.report.gateways.map((g) => [g.ip, g.vlan, g.arp, g.ping]), [[GATEWAY, 103, true, true]], r.report.node);
    for (const i of INDEXES) assert.equal(await noProbeLeft(i, 10_000), '', `nothing left on host ${i}`);
  });

  test('a stop mid-verification leaves nothing running on the hosts', async () => {
    const stop = new AbortController();
    const running = runProbes(ssh, nodes(), { budgetS: 60, sendS: 50, signal: stop.signal });
    // Started everywhere first: the stop must end running probes, not ones never begun.
    const until = Date.now() + 30_000;
    while ((await Promise.all(INDEXES.map(probesOn))).some((p) => !p) && Date.now() < until) await new Promise((r) => setTimeout(r, 300));
    stop.abort();
    const runs = await running;
    for (const r of runs) assert.equal(r.report.failure, 'the verification was stopped');
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
