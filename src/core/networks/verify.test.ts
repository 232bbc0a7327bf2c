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
  assert.deepEqual(first.interfaces, [{ name: 'eth1', vlans: [102], mtu: 9000 }, { name: 'eth0', vlans: [0], mtu: null }]);
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
