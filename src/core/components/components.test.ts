import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyse, compileCatalog, complete, matches, parsePattern, state, validate, type Catalog, type ComponentState } from './index.js';
import { greenLightComponents, specComponents } from './fixtures/spec.js';
import type { Component } from '../release/model.js';

const spec = compileCatalog(specComponents, { requiredTypes: ['hypervisor', 'network', 'storage'] });
const one = (s: { components: ComponentState[] }, name: string) => {
  const c = s.components.find((x) => x.name === name);
  assert.ok(c, `no component ${name}`);
  return c;
};
const codes = (fs: { code: string }[]) => fs.map((f) => f.code).sort();

test('wildcards: a trailing * stands for one or more segments; no * matches only itself', () => {
  assert.ok(matches(parsePattern('hypervisor:*'), 'hypervisor:libvirt:kvm'));
  assert.ok(!matches(parsePattern('hypervisor:*'), 'hypervisor'));
  assert.ok(!matches(parsePattern('hypervisor:kvm'), 'hypervisor:kvm2'));
  assert.ok(matches(parsePattern('network:*:ml2:*'), 'network:neutron:ml2:vlan'));
  assert.ok(!matches(parsePattern('network:*:ml2:*'), 'network:neutron:core:ml2'));
});

test('the spec catalog compiles without findings', () => {
  assert.deepEqual(spec.findings, []);
  assert.equal(spec.components.find((c) => c.name === 'network:neutron:ml2:dvs')?.group, 'network:ml2');
  assert.equal(spec.components.find((c) => c.name === 'network:neutron:core:contrail')?.group, 'network:core');
});

test('KVM vs QEMU: validate names both sides; state disables the other', () => {
  const v = validate(spec, ['hypervisor:libvirt:kvm', 'hypervisor:libvirt:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:ovs', 'storage:block:lvm']);
  assert.equal(v.valid, false);
  assert.deepEqual(codes(v.findings), ['component/incompatible']);
  assert.equal(v.findings[0].message, 'KVM (hypervisor:libvirt:kvm) cannot be used with QEMU (hypervisor:libvirt:qemu): KVM not compatible with QEMU.');
  assert.deepEqual(v.findings[0].components, ['hypervisor:libvirt:kvm', 'hypervisor:libvirt:qemu']);
  const qemu = one(state(spec, ['hypervisor:libvirt:kvm']), 'hypervisor:libvirt:qemu');
  assert.equal(qemu.enabled, false);
  assert.match(qemu.reasons[0], /KVM not compatible with QEMU/);
  assert.deepEqual(qemu.fix, ['unselect KVM (hypervisor:libvirt:kvm)']);
});

test('Contrail vs ML2: ML2 drivers are dead ends once Contrail is the network', () => {
  const s = state(spec, ['hypervisor:libvirt:kvm', 'network:neutron:core:contrail']);
  const ovs = one(s, 'network:neutron:ml2:ovs');
  assert.equal(ovs.enabled, false);
  assert.match(ovs.reasons.join(' '), /Contrail/);
  const v = validate(spec, ['hypervisor:libvirt:kvm', 'network:neutron:core:contrail', 'network:neutron:ml2:ovs', 'storage:block:lvm']);
  assert.deepEqual(codes(v.findings), ['component/incompatible', 'component/requires-unmet']);
  assert.match(v.findings.find((f) => f.code === 'component/incompatible')!.message, /^Contrail \(network:neutron:core:contrail\) cannot be used with OVS \(network:neutron:ml2:ovs\): Contrail cannot be combined via ML2\.$/);
});

test('NSX only with vCenter: disabled until vCenter is chosen, with the fix', () => {
  const withKvm = one(state(spec, ['hypervisor:libvirt:kvm']), 'network:neutron:core:nsx');
  assert.equal(withKvm.enabled, false);
  assert.equal(withKvm.deadEnd, false);
  assert.match(withKvm.reasons[0], /NSX \(network:neutron:core:nsx\) requires VMware vCenter \(hypervisor:vmware\), which is not chosen yet: NSX works only with ESX$/);
  assert.deepEqual(withKvm.fix, ['also choose VMware vCenter (hypervisor:vmware)']);
  const withVcenter = one(state(spec, ['hypervisor:vmware']), 'network:neutron:core:nsx');
  assert.equal(withVcenter.enabled, true);
});

test('DVS requires vCenter; with Contrail chosen it is a dead end explained as a chain', () => {
  const s = state(spec, ['network:neutron:core:contrail']);
  const dvs = one(s, 'network:neutron:ml2:dvs');
  assert.equal(dvs.enabled, false);
  assert.equal(dvs.deadEnd || dvs.reasons.some((r) => /Contrail/.test(r)), true);
  // vCenter itself is excluded by Contrail, so DVS's explanation must reach Contrail.
  assert.match(dvs.reasons.join(' '), /Contrail/);
  assert.ok(dvs.fix.includes('unselect Contrail (network:neutron:core:contrail)'));
  // With no network chosen yet, DVS is only waiting for vCenter.
  const before = one(state(spec, []), 'network:neutron:ml2:dvs');
  assert.equal(before.deadEnd, false);
  assert.deepEqual(before.fix, ['also choose VMware vCenter (hypervisor:vmware)', 'also choose ML2 plugin (network:neutron:core:ml2)']);
});

test('a dead end found only by looking ahead carries the chain of reasons', () => {
  // vCenter is chosen; Contrail is then a dead end? No: Contrail is incompatible with vCenter directly.
  // Choose KVM: DVS requires vCenter (earlier pane, not chosen) -> gated, and choosing vCenter is still possible.
  const catalog = compileCatalog([
    { name: 'hypervisor:vmware', label: 'vCenter' },
    { name: 'network:neutron:core:contrail', label: 'Contrail', incompatible: [{ name: 'hypervisor:vmware', message: 'not with VMware' }] },
    { name: 'network:neutron:core:ml2', label: 'ML2' },
    { name: 'storage:block:x', label: 'X', requires: [{ name: 'network:neutron:ml2:dvs' }] },
    { name: 'network:neutron:ml2:dvs', label: 'DVS', requires: [{ name: 'hypervisor:vmware' }] },
  ]);
  const x = one(state(catalog, ['network:neutron:core:contrail']), 'storage:block:x');
  assert.equal(x.deadEnd, true);
  assert.equal(
    x.reasons[0],
    'X (storage:block:x) requires DVS (network:neutron:ml2:dvs), and none of them can be chosen; DVS (network:neutron:ml2:dvs) requires vCenter (hypervisor:vmware), which cannot hold; Contrail (network:neutron:core:contrail) (which you chose) cannot be used with vCenter (hypervisor:vmware): not with VMware; so X (storage:block:x) cannot be chosen',
  );
});

test('Ceph vs LVM', () => {
  const s = state(spec, ['storage:block:ceph']);
  assert.equal(one(s, 'storage:block:lvm').enabled, false);
  assert.match(one(s, 'storage:block:lvm').reasons[0], /Ceph not compatible with LVM|LVM not compatible with Ceph/);
});

test('TestNet is incompatible with hypervisor:libvirt:* and green with Xen', () => {
  assert.equal(one(state(spec, ['hypervisor:libvirt:qemu']), 'network:neutron:core:test_net').enabled, false);
  const withXen = one(state(spec, ['hypervisor:xen']), 'network:neutron:core:test_net');
  assert.equal(withXen.enabled, true);
  assert.equal(withXen.green, true);
  const withVcenter = one(state(spec, ['hypervisor:vmware']), 'network:neutron:core:test_net');
  assert.equal(withVcenter.enabled, true);
  assert.equal(withVcenter.green, false);
  assert.deepEqual(withVcenter.untested, ['hypervisor:vmware']);
});

test('storage A: green when every chosen component is in its compatible list', () => {
  const catalog = compileCatalog(greenLightComponents);
  const sa = one(state(catalog, ['hypervisor:A', 'hypervisor:B', 'network:A']), 'storage:A');
  assert.equal(sa.green, true);
  const other = one(state(catalog, ['hypervisor:A', 'hypervisor:B', 'network:B']), 'storage:A');
  assert.equal(other.green, false);
  assert.deepEqual(other.untested, ['network:B']);
  assert.equal(one(state(catalog, []), 'storage:A').green, false);
});

test('requires, plain form: OR within a type, AND across types', () => {
  const catalog = compileCatalog([
    { name: 'hypervisor:sub:A' },
    { name: 'hypervisor:sub:B' },
    { name: 'network:C' },
    { name: 'storage:D', requires: [{ name: 'hypervisor:sub:A' }, { name: 'hypervisor:sub:B' }, { name: 'network:C' }] },
    { name: 'storage:E', requires: [{ name: 'hypervisor:sub:*' }] },
  ]);
  assert.equal(validate(catalog, ['storage:D', 'hypervisor:sub:B', 'network:C']).valid, true);
  assert.equal(validate(catalog, ['storage:D', 'hypervisor:sub:A']).valid, false);
  assert.equal(validate(catalog, ['storage:E', 'hypervisor:sub:A', 'network:C']).valid, true);
  assert.deepEqual(codes(validate(catalog, ['storage:E', 'network:C']).findings), ['component/requires-unmet']);
});

test('requires, predicates: one_of, any_of, none_of, all_of', () => {
  const catalog = compileCatalog([
    { name: 'hypervisor:a' },
    { name: 'hypervisor:b' },
    { name: 'storage:one', requires: [{ one_of: { items: ['hypervisor:a', 'hypervisor:b'] } }] },
    { name: 'storage:none', requires: [{ none_of: { items: ['hypervisor:*'], message: 'no hypervisors' } }] },
    { name: 'storage:all', requires: [{ all_of: { items: ['hypervisor:a', 'hypervisor:b'] } }] },
    { name: 'storage:any', requires: [{ any_of: { items: ['hypervisor:a', 'hypervisor:b'] } }] },
  ]);
  assert.deepEqual(codes(validate(catalog, ['storage:one', 'hypervisor:a', 'hypervisor:b']).findings), ['component/requires-too-many']);
  assert.equal(validate(catalog, ['storage:one', 'hypervisor:a']).valid, true);
  assert.deepEqual(codes(validate(catalog, ['storage:none', 'hypervisor:a']).findings), ['component/requires-excluded']);
  assert.deepEqual(codes(validate(catalog, ['storage:all', 'hypervisor:a']).findings), ['component/requires-unmet']);
  assert.equal(validate(catalog, ['storage:any', 'hypervisor:b']).valid, true);
  // one_of and all_of cannot both hold, so choosing both leaves no completion.
  const s = state(catalog, ['storage:one']);
  assert.equal(one(s, 'storage:all').deadEnd, true);
});

test('requires mixing both forms is an error, found when compiling and when chosen', () => {
  const catalog = compileCatalog([{ name: 'hypervisor:a' }, { name: 'storage:m', requires: [{ name: 'hypervisor:a' }, { any_of: { items: ['hypervisor:a'] } }] }]);
  assert.deepEqual(codes(catalog.findings), ['component/requires-mixed-format']);
  assert.deepEqual(codes(validate(catalog, ['storage:m', 'hypervisor:a']).findings), ['component/requires-mixed-format']);
});

test('required types and the network radio group', () => {
  const v = validate(spec, ['hypervisor:libvirt:kvm']);
  assert.deepEqual(codes(v.findings), ['component/network-core-missing', 'component/required-type-missing', 'component/required-type-missing']);
  const two = validate(spec, ['hypervisor:vmware', 'network:neutron:core:ml2', 'network:neutron:ml2:dvs', 'network:neutron:core:nsx', 'storage:block:lvm']);
  assert.deepEqual(codes(two.findings), ['component/network-core-conflict']);
  // The network core is a radio group: with ML2 checked, Contrail replaces it rather than joining it.
  const s = state(spec, ['network:neutron:core:ml2']);
  assert.equal(one(s, 'network:neutron:core:contrail').enabled, true);
  assert.deepEqual(one(s, 'network:neutron:core:contrail').replaces, ['network:neutron:core:ml2']);
});

test('unknown names are errors with a suggestion', () => {
  const v = validate(spec, ['hypervisor:kvm']);
  const f = v.findings.find((x) => x.code === 'component/unknown');
  assert.ok(f);
  assert.match(f.hint ?? '', /hypervisor:libvirt:kvm/);
  assert.deepEqual(f.components, ['hypervisor:kvm']);
});

test('complete: the fewest additions, weights breaking ties', () => {
  const c = complete(spec, ['network:neutron:ml2:dvs']);
  assert.equal(c.ok, true);
  assert.equal(c.optimal, true);
  assert.deepEqual(c.added.sort(), ['hypervisor:vmware', 'network:neutron:core:ml2', 'storage:block:lvm']);
  assert.equal(validate(spec, c.selection).valid, true);
  const none = complete(spec, ['network:neutron:core:contrail', 'hypervisor:vmware']);
  assert.equal(none.ok, false);
  assert.match(none.reason ?? '', /Contrail not compatible with VMware for now/);
});

test('analyse: unknown references, wildcards matching nothing, components never choosable', () => {
  const catalog = compileCatalog(
    [
      { name: 'hypervisor:a', incompatible: [{ name: 'network:nope:*' }] },
      { name: 'storage:b', requires: [{ name: 'hypervisor:ghost' }] },
      { name: 'storage:c', requires: [{ any_of: { items: ['storage:b'] } }] },
    ],
    { requiredTypes: ['hypervisor'] },
  );
  const found = analyse(catalog);
  assert.deepEqual(codes(found), [
    'component/never-choosable',
    'component/never-choosable',
    'component/requires-never-met',
    'component/requires-never-met',
    'component/unknown-reference',
    'component/wildcard-matches-nothing',
  ]);
  assert.deepEqual(codes(analyse(spec)), []);
});

test('bad input becomes findings, never a crash', () => {
  const junk = [
    null,
    { label: 'no name' },
    { name: 'hypervisor' },
    { name: 'hypervisor:a:*' },
    { name: 'hypervisor:ok', compatible: 'hypervisor:*', incompatible: [{ nom: 'x' }, { name: 'net:ml2*' }], requires: [{ one_of: {} }, { maybe_of: { items: [] } }, 7] },
    { name: 'hypervisor:ok' },
    { name: 'thing:x' },
  ] as unknown as Component[];
  let catalog: Catalog | undefined;
  assert.doesNotThrow(() => {
    catalog = compileCatalog(junk);
  });
  assert.ok(catalog);
  assert.deepEqual(codes(catalog.findings), [
    'component/bad-name',
    'component/bad-name',
    'component/bad-wildcard',
    'component/duplicate',
    'component/invalid',
    'component/invalid',
    'component/invalid-rule',
    'component/invalid-rule',
    'component/invalid-rule',
    'component/invalid-rule',
    'component/invalid-rule',
    'component/unknown-type',
  ]);
  assert.doesNotThrow(() => state(catalog!, ['hypervisor:ok', 'zzz']));
  assert.doesNotThrow(() => analyse(catalog!));
});

test('a long-running server keeps a bounded number of sentences per catalog, and a sentence made again is the same', async () => {
  const { MAX_KEPT_SENTENCES, pairText, sentencesKept } = await import('./explain.js');
  // 120 storage backends, each incompatible with every other: 120 x 119 pairs, three ways each.
  const many = compileCatalog(
    Array.from({ length: 120 }, (_, i) => ({ name: `storage:object:b${i}`, label: `Backend ${i}`, incompatible: [{ name: 'storage:object:*', message: `backend ${i} stands alone` }] })),
  );
  const first = pairText(many, 0, 1, 0);
  let asked = 0;
  for (let a = 0; a < 120; a++) for (let b = 0; b < 120; b++) if (a !== b) for (const chosen of [-1, a, b]) asked += pairText(many, a, b, chosen).length > 0 ? 1 : 0;
  assert.ok(asked > MAX_KEPT_SENTENCES, `the test asked only ${asked} sentences`);
  assert.ok(sentencesKept(many) <= MAX_KEPT_SENTENCES, `${sentencesKept(many)} sentences kept`);
  assert.equal(pairText(many, 0, 1, 0), first);
  assert.match(first, /^Backend 0 \(storage:object:b0\) \(which you chose\) cannot be used with Backend 1 \(storage:object:b1\): backend 0 stands alone$/);
});
