/**
 * The component-registry design's own subtypes and examples (issue 28, items 1-4): Neutron
 * services and IPAM beside ML2, a release that does not require a network, ML2 and its drivers,
 * and the design's `network:ml2:<driver>` spelling.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileCatalog, state, validate } from './index.js';
import type { Component } from '../release/model.js';

const codes = (fs: Array<{ code: string }>) => fs.map((f) => f.code).sort();
const one = (s: ReturnType<typeof state>, name: string) => s.components.find((c) => c.name === name)!;

/** Subtypes from the design's list: cores, drivers, services, IPAM. */
const neutron: Component[] = [
  { name: 'hypervisor:libvirt:kvm', label: 'KVM' },
  { name: 'hypervisor:vmware', label: 'vCenter' },
  { name: 'network:neutron:core:ml2', label: 'ML2' },
  { name: 'network:neutron:core:contrail', label: 'Contrail', incompatible: [{ name: 'network:neutron:ml2:*' }] },
  { name: 'network:neutron:ml2:ovs', label: 'OVS', requires: [{ name: 'network:neutron:core:ml2' }] },
  { name: 'network:neutron:service:lbaas', label: 'LBaaS' },
  { name: 'network:neutron:service:fwaas', label: 'FWaaS' },
  { name: 'network:neutron:service:vpnaas', label: 'VPNaaS' },
  { name: 'network:neutron:service:l3', label: 'L3' },
  { name: 'network:neutron:service:l2', label: 'L2' },
  { name: 'network:neutron:ipam:builtin', label: 'Built-in IPAM' },
  { name: 'storage:block:backend:lvm', label: 'LVM' },
];
const full = compileCatalog(neutron, { requiredTypes: ['hypervisor', 'network', 'storage'] });

test('Neutron services and IPAM are checkboxes beside the one network core, not radios (item 1)', () => {
  const group = (n: string) => full.components.find((c) => c.name === n)!.group;
  assert.equal(group('network:neutron:service:lbaas'), 'network:service');
  assert.equal(group('network:neutron:service:l3'), 'network:service');
  assert.equal(group('network:neutron:ipam:builtin'), 'network:ipam');
  assert.equal(group('network:neutron:core:contrail'), 'network:core');
  // ML2 + LBaaS + FWaaS + IPAM is one valid network: only cores exclude each other.
  const v = validate(full, ['hypervisor:libvirt:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:ovs', 'network:neutron:service:lbaas', 'network:neutron:service:fwaas', 'network:neutron:ipam:builtin', 'storage:block:backend:lvm']);
  assert.deepEqual(v.findings, []);
  assert.equal(v.valid, true);
  // A service is not a core: it cannot stand in for one.
  assert.deepEqual(codes(validate(full, ['hypervisor:libvirt:kvm', 'network:neutron:service:lbaas', 'storage:block:backend:lvm']).findings), ['component/network-core-missing']);
  // The wizard offers a service beside ML2 as an addition, replacing nothing.
  const s = state(full, ['hypervisor:libvirt:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:ovs']);
  assert.equal(one(s, 'network:neutron:service:lbaas').enabled, true);
  assert.equal(one(s, 'network:neutron:service:lbaas').replaces, undefined);
  assert.deepEqual(one(s, 'network:neutron:core:contrail').replaces, ['network:neutron:core:ml2', 'network:neutron:ml2:ovs']);
  // Two cores are still refused.
  assert.deepEqual(codes(validate(full, ['hypervisor:libvirt:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:ovs', 'network:neutron:core:contrail', 'storage:block:backend:lvm']).findings), ['component/incompatible', 'component/network-core-conflict']);
});

test('a release requiring only a hypervisor does not force a network core (item 2)', () => {
  const hvOnly = compileCatalog(neutron, { requiredTypes: ['hypervisor'] });
  const v = validate(hvOnly, ['hypervisor:libvirt:kvm']);
  assert.deepEqual(v.findings, []);
  assert.equal(state(hvOnly, ['hypervisor:libvirt:kvm']).valid, true);
  // At most one core still holds.
  assert.deepEqual(codes(validate(hvOnly, ['hypervisor:libvirt:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:ovs', 'network:neutron:core:contrail']).findings), ['component/incompatible', 'component/network-core-conflict']);
  // And a release requiring a network does force one.
  assert.deepEqual(codes(validate(full, ['hypervisor:libvirt:kvm', 'storage:block:backend:lvm']).findings), ['component/network-core-missing', 'component/required-type-missing']);
});

test('ML2 chosen with no mechanism driver is invalid, with a clear message (item 3)', () => {
  const v = validate(full, ['hypervisor:libvirt:kvm', 'network:neutron:core:ml2', 'storage:block:backend:lvm']);
  assert.deepEqual(codes(v.findings), ['component/ml2-without-driver']);
  assert.match(v.findings[0].message, /ML2 \(network:neutron:core:ml2\) is chosen without a mechanism driver.*OVS \(network:neutron:ml2:ovs\)/);
  assert.match(v.findings[0].hint ?? '', /at least one ML2 driver/);
  // A catalog with no driver at all (a release skeleton) keeps ML2 alone valid: nothing to choose.
  const bare = compileCatalog([{ name: 'hypervisor:qemu' }, { name: 'network:neutron:core:ml2' }], { requiredTypes: ['hypervisor', 'network'] });
  assert.deepEqual(validate(bare, ['hypervisor:qemu', 'network:neutron:core:ml2']).findings, []);
});

test('the ML2 radio is disabled, with the reason, when every driver is disabled for another reason than needing ML2 (item 3)', () => {
  // The design's own example: DVS requires vCenter (and ML2); it is ML2's only driver here.
  const dvsOnly = compileCatalog(
    [
      { name: 'hypervisor:libvirt:kvm', label: 'KVM' },
      { name: 'hypervisor:vmware', label: 'vCenter' },
      { name: 'network:neutron:core:ml2', label: 'ML2' },
      { name: 'network:neutron:core:contrail', label: 'Contrail' },
      { name: 'network:neutron:ml2:dvs', label: 'DVS', requires: [{ name: 'hypervisor:vmware' }, { name: 'network:neutron:core:ml2' }] },
    ],
    { requiredTypes: ['hypervisor', 'network'] },
  );
  const kvm = state(dvsOnly, ['hypervisor:libvirt:kvm']);
  const ml2 = one(kvm, 'network:neutron:core:ml2');
  assert.equal(ml2.enabled, false);
  assert.match(ml2.reasons[0], /every ML2 mechanism driver is unavailable.*DVS \(network:neutron:ml2:dvs\) requires vCenter \(hypervisor:vmware\), not chosen.*so ML2 \(network:neutron:core:ml2\) cannot be used now/);
  assert.equal(one(kvm, 'network:neutron:core:contrail').enabled, true);
  // With vCenter chosen, DVS only waits for ML2: ML2 is enabled.
  assert.equal(one(state(dvsOnly, ['hypervisor:vmware']), 'network:neutron:core:ml2').enabled, true);
  // Replacing Contrail is judged on the selection the click makes.
  assert.equal(one(state(dvsOnly, ['hypervisor:vmware', 'network:neutron:core:contrail']), 'network:neutron:core:ml2').enabled, true);
  assert.equal(one(state(dvsOnly, ['hypervisor:libvirt:kvm', 'network:neutron:core:contrail']), 'network:neutron:core:ml2').enabled, false);
  // A driver clashing with a choice counts too.
  const clash = compileCatalog(
    [
      { name: 'hypervisor:xen' },
      { name: 'network:neutron:core:ml2' },
      { name: 'network:neutron:ml2:ovs', incompatible: [{ name: 'hypervisor:xen', message: 'no OVS on Xen here' }], requires: [{ name: 'network:neutron:core:ml2' }] },
    ],
    { requiredTypes: ['hypervisor'] },
  );
  const xen = one(state(clash, ['hypervisor:xen']), 'network:neutron:core:ml2');
  assert.equal(xen.enabled, false);
  assert.match(xen.reasons.join(' '), /no OVS on Xen here/);
});

test("the design's ML2 spelling network:ml2:<driver> is a driver (item 4)", () => {
  const design = compileCatalog(
    [
      { name: 'hypervisor:vmware', label: 'vCenter' },
      { name: 'network:neutron:core:ml2', label: 'ML2' },
      { name: 'network:neutron:core:contrail', label: 'Contrail' },
      // The design's plugin example, verbatim but for its quotes.
      { name: 'network:ml2:dvs', label: 'DVS', compatible: [{ name: 'hypervisor:vmware' }], requires: [{ name: 'hypervisor:vmware' }] },
      { name: 'network:ml2:arista', label: 'Arista', requires: [{ name: 'network:neutron:core:ml2' }] },
    ],
    { requiredTypes: ['hypervisor', 'network'] },
  );
  assert.equal(design.components.find((c) => c.name === 'network:ml2:dvs')!.group, 'network:ml2');
  assert.equal(design.components.find((c) => c.name === 'network:ml2:arista')!.group, 'network:ml2');
  // A driver beside ML2, not a second core.
  assert.deepEqual(validate(design, ['hypervisor:vmware', 'network:neutron:core:ml2', 'network:ml2:arista', 'network:ml2:dvs']).findings, []);
  assert.deepEqual(codes(validate(design, ['hypervisor:vmware', 'network:neutron:core:ml2']).findings), ['component/ml2-without-driver']);
  // Leaving ML2 for Contrail drops the driver that needed ML2.
  const s = state(design, ['hypervisor:vmware', 'network:neutron:core:ml2', 'network:ml2:arista']);
  assert.deepEqual(one(s, 'network:neutron:core:contrail').replaces, ['network:neutron:core:ml2', 'network:ml2:arista']);
});
