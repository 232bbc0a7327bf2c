import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyseVerification, probePlan, type ProbeReport, type VerifyPlan } from './verify.js';

const plan: VerifyPlan = {
  networks: [{ name: 'storage', vlan: 102, gateway: null, mtu: 9000 }, { name: 'public', vlan: null, gateway: '172.16.0.1' }],
  members: ['1', '2', '3'].flatMap((n) => [
    { node: n, name: `node-${n}`, network: 'storage', interface: 'eth1', ip: null },
    { node: n, name: `node-${n}`, network: 'public', interface: 'eth0', ip: `172.16.0.1${n}` },
  ]),
};
/** Reports where `hears(a, b, vlan)` says what a heard. */
const reports = (hears: (a: string, b: string, vlan: number) => boolean, big = hears, gateway = true): ProbeReport[] =>
  ['1', '2', '3'].map((a) => {
    const heard: Record<string, string[]> = {};
    const bigHeard: Record<string, string[]> = {};
    for (const [iface, vlan] of [['eth1', 102], ['eth0', 0]] as const) {
      heard[`${iface}|${vlan}`] = ['1', '2', '3'].filter((b) => b !== a && hears(a, b, vlan)).map((b) => `${b}|${iface}`);
      bigHeard[`${iface}|${vlan}`] = ['1', '2', '3'].filter((b) => b !== a && big(a, b, vlan)).map((b) => `${b}|${iface}`);
    }
    return { node: a, answered: true, heard, big_heard: bigHeard, errors: [], duplicates: [], gateways: [{ network: 'public', interface: 'eth0', vlan: 0, ip: '172.16.0.1', arp: gateway, ping: gateway, mac: null }] };
  });

test('the probe plan gives each node its interfaces, VLANs, addresses and gateways', () => {
  const [first] = probePlan(plan);
  assert.deepEqual(first.interfaces, [{ name: 'eth1', vlans: [102], mtus: { 102: 9000 } }, { name: 'eth0', vlans: [0], mtus: {} }]);
  assert.deepEqual(first.gateways, [{ network: 'public', interface: 'eth0', vlan: 0, ip: '172.16.0.1', source: '172.16.0.11' }]);
});

test('everything heard: passed, no findings', () => {
  const r = analyseVerification(plan, reports(() => true));
  assert.equal(r.status, 'passed');
  assert.deepEqual(r.findings, []);
});

test('a node whose frames nobody hears, though it hears the others, is named one-way', () => {
  const r = analyseVerification(plan, reports((a, b, v) => !(v === 102 && b === '3')));
  assert.deepEqual(r.findings.map((f) => f.code), ['verify/vlan-one-way']);
  assert.match(r.findings[0].message, /node-3 hears the others on VLAN 102 \(storage\) but none hears it/);
  assert.deepEqual(r.absent_vlans, []);
});

test('a VLAN nobody hears on, large frames lost, a silent gateway', () => {
  assert.deepEqual(analyseVerification(plan, reports((_a, _b, v) => v !== 102)).findings.map((f) => f.code), ['verify/vlan-nowhere']);
  const mtu = analyseVerification(plan, reports(() => true, (_a, b) => b !== '2'));
  assert.deepEqual(mtu.findings.map((f) => f.code), ['verify/mtu']);
  assert.match(mtu.findings[0].message, /frames of 9000 bytes from node-2's eth1 do not reach node-1 and node-3/);
  assert.deepEqual(analyseVerification(plan, reports(() => true, () => true, false)).findings.map((f) => f.code), ['verify/gateway-silent']);
});

test('a node that did not answer is said so, and its pairs are unknown, not failed', () => {
  const rs = reports((a, b) => a !== '3' && b !== '3');
  rs[2] = { ...rs[2], answered: false, failure: 'the node stopped answering' };
  const r = analyseVerification(plan, rs);
  assert.equal(r.networks[0].heard['3']['1'], null);
  assert.deepEqual(r.findings.map((f) => f.code), ['verify/no-answer']);
});

test("a node's interface whose own MTU is too small to send is named, and a node that takes no large frames in is named once", () => {
  const rs = reports(() => true, (_a, b, v) => v !== 102 || b !== '1');
  rs[0] = { ...rs[0], mtu: [{ interface: 'eth1', vlan: 102, mtu: 9000, interface_mtu: 1500, sent: false }] };
  const r = analyseVerification(plan, rs);
  assert.deepEqual(r.findings.map((f) => [f.code, f.message]), [['verify/mtu-interface', "node-1's eth1 cannot send frames of 9000 bytes on VLAN 102 (storage): its MTU is 1500"]]);
  assert.match(r.findings[0].hint ?? '', /ip link set eth1 mtu 9000/);
  const deaf = analyseVerification(plan, reports(() => true, (a, _b, v) => v !== 102 || a !== '3'));
  assert.deepEqual(deaf.findings.map((f) => [f.code, f.message]), [['verify/mtu', "node-3's eth1 receives no frames of 9000 bytes on VLAN 102 (storage), small ones it does"]]);
});

/** Neutron's tenant VLANs 1000-1009 on private: node 3's switch port drops 1004-1006, and 1009 passes nowhere. */
test("Neutron's private VLAN range: every VLAN probed, the failing ones said together, absent_vlans per VLAN", () => {
  const ranged: VerifyPlan = {
    networks: [{ name: 'private', vlan: 1000, gateway: null, vlans: Array.from({ length: 10 }, (_, i) => 1000 + i) }],
    members: ['1', '2', '3'].map((n) => ({ node: n, name: `node-${n}`, network: 'private', interface: 'eth2', ip: null })),
  };
  const inputs = probePlan(ranged);
  assert.deepEqual(inputs[0].interfaces, [{ name: 'eth2', vlans: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009], mtus: {} }]);
  const hears = (a: string, b: string, v: number) => v !== 1009 && !((a === '3' || b === '3') && v >= 1004 && v <= 1006);
  const rs: ProbeReport[] = ['1', '2', '3'].map((a) => ({
    node: a,
    answered: true,
    heard: Object.fromEntries(inputs[0].interfaces[0].vlans.map((v) => [`eth2|${v}`, ['1', '2', '3'].filter((b) => b !== a && hears(a, b, v)).map((b) => `${b}|eth2`)])),
    big_heard: {},
    errors: [],
    duplicates: [],
    gateways: [],
  }));
  const r = analyseVerification(ranged, rs);
  assert.equal(r.status, 'failed');
  assert.deepEqual(r.findings.map((f) => [f.code, f.message]), [
    ['verify/vlan-cut-off', "VLANs 1004-1006 (private) do not pass between node-3's eth2 and the others"],
    ['verify/vlan-nowhere', "VLAN 1009 (private) passes between none of node-1's eth2, node-2's eth2 and node-3's eth2"],
  ]);
  assert.match(r.findings[0].hint ?? '', /switch port of node-3 \(eth2\): it must carry VLANs 1004-1006 tagged/);
  // One matrix for the range: a pair is heard when it is heard on every VLAN.
  assert.deepEqual([r.networks[0].vlan, r.networks[0].vlans?.length, r.networks[0].passes, r.networks[0].heard['1']['2'], r.networks[0].heard['1']['3']], [1000, 10, false, false, false]);
  assert.deepEqual(r.absent_vlans, [
    { uid: '1', name: 'node-1', interface: 'eth2', absent_vlans: [1009] },
    { uid: '2', name: 'node-2', interface: 'eth2', absent_vlans: [1009] },
    { uid: '3', name: 'node-3', interface: 'eth2', absent_vlans: [1004, 1005, 1006, 1009] },
  ]);
});
