/**
 * Radio groups: a network core plugin that is not checked while another one is can be chosen
 * when the click — which replaces the checked one and unselects what depended on it — leads to a
 * completable selection. Its reasons are its own conflicts, never the radio rule itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { compileCatalog, state, validate, type ComponentState } from './index.js';
import { replacementOf, replacementsOf, replacingMembers } from './radio.js';
import { specComponents } from './fixtures/spec.js';
import { buildComponents, clickMask, randomCatalog, validMasks } from './fixtures/random-catalog.js';
import { needsCorpus, corpusPath } from '../../../test/support/corpus.js';
import { copyWithReleaseFolders } from '../../../test/support/plugin-copy.js';
import { composeFromDisk } from '../../package/release/compose.js';

const spec = compileCatalog(specComponents, { requiredTypes: ['hypervisor', 'network', 'storage'] });
const one = (s: { components: ComponentState[] }, name: string) => {
  const c = s.components.find((x) => x.name === name);
  assert.ok(c, `no component ${name}`);
  return c;
};
/**
 * "Exactly one must be chosen, and more than that would be": the sentence a replacement never
 * needs. (The radio rule may still appear in a chain — "only one network core plugin can be used
 * at a time" — when the member's own requirements lead back to a sibling.)
 */
const RADIO_RULE = /network core plugin must be chosen [^;]*(more than that would be chosen|which rules out)/;
/** No reason may rest on a choice the click unselects. */
function citesNoReplaced(c: ComponentState, displays: Map<string, string>): void {
  for (const name of c.replaces ?? []) {
    const shown = displays.get(name) ?? name;
    for (const r of c.reasons) {
      assert.ok(!r.includes(`you chose ${shown}`) && !r.includes(`${shown} (which you chose)`), `${c.name}: "${r}" cites ${name}, which its click unselects`);
    }
  }
}

test('Contrail vs ML2: choosing Contrail replaces ML2 and unselects the ML2 drivers', () => {
  const s = state(spec, ['hypervisor:libvirt:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:ovs', 'storage:block:lvm']);
  const contrail = one(s, 'network:neutron:core:contrail');
  assert.equal(contrail.enabled, true);
  assert.deepEqual(contrail.reasons, []);
  assert.deepEqual(contrail.replaces, ['network:neutron:core:ml2', 'network:neutron:ml2:ovs']);
  // OVS would clash with Contrail, but the click drops it: that is not Contrail's problem.
  assert.equal(validate(spec, ['hypervisor:libvirt:kvm', 'network:neutron:core:contrail', 'storage:block:lvm']).valid, true);
  // Members of other groups and the checked member itself are unaffected.
  assert.equal(one(s, 'network:neutron:core:ml2').replaces, undefined);
  assert.equal(one(s, 'storage:block:ceph').replaces, undefined);
});

test('a radio member disabled while a sibling is checked is explained by its own conflicts', () => {
  const s = state(spec, ['hypervisor:vmware', 'network:neutron:core:ml2', 'network:neutron:ml2:dvs']);
  const contrail = one(s, 'network:neutron:core:contrail');
  assert.equal(contrail.enabled, false);
  assert.deepEqual(contrail.replaces, ['network:neutron:core:ml2', 'network:neutron:ml2:dvs']);
  assert.equal(contrail.reasons.length, 1);
  assert.match(contrail.reasons[0], /^Contrail \(network:neutron:core:contrail\) cannot be used with VMware vCenter \(hypervisor:vmware\) \(which you chose\): Contrail not compatible with VMware for now$/);
  assert.deepEqual(contrail.fix, ['unselect VMware vCenter (hypervisor:vmware)']);
  // NSX needs vCenter, which is chosen: it can replace ML2 (DVS requires ML2 and goes too).
  const nsx = one(state(spec, ['hypervisor:vmware', 'network:neutron:core:ml2', 'network:neutron:ml2:dvs']), 'network:neutron:core:nsx');
  assert.equal(nsx.enabled, true);
  // With KVM, NSX waits for vCenter on the earlier pane — Fuel's rule, not the radio rule.
  const waiting = one(state(spec, ['hypervisor:libvirt:kvm', 'network:neutron:core:ml2']), 'network:neutron:core:nsx');
  assert.equal(waiting.enabled, false);
  assert.equal(waiting.deadEnd, false);
  assert.match(waiting.reasons[0], /requires VMware vCenter \(hypervisor:vmware\), which is not chosen yet: NSX works only with ESX$/);
  // TestNet clashes with the libvirt hypervisor the user chose.
  const testNet = one(state(spec, ['hypervisor:libvirt:qemu', 'network:neutron:core:ml2']), 'network:neutron:core:test_net');
  assert.equal(testNet.enabled, false);
  assert.match(testNet.reasons[0], /TestNet not compatible with libvirt type computes/);
  for (const c of [contrail, waiting, testNet]) for (const r of c.reasons) assert.doesNotMatch(r, RADIO_RULE);
});

test('a radio member that leads into a dead end after the replacement is explained as a chain', () => {
  const catalog = compileCatalog(
    [
      { name: 'hypervisor:kvm', label: 'KVM' },
      { name: 'hypervisor:qemu', label: 'QEMU' },
      { name: 'network:neutron:core:ml2', label: 'ML2' },
      { name: 'network:neutron:core:calico', label: 'Calico', requires: [{ name: 'storage:block:etcd' }] },
      { name: 'storage:block:etcd', label: 'etcd', incompatible: [{ name: 'hypervisor:kvm', message: 'etcd volumes are not for KVM' }] },
      { name: 'storage:block:lvm', label: 'LVM' },
    ],
    { requiredTypes: ['hypervisor', 'network', 'storage'] },
  );
  const calico = one(state(catalog, ['hypervisor:kvm', 'network:neutron:core:ml2']), 'network:neutron:core:calico');
  assert.equal(calico.enabled, false);
  assert.equal(calico.deadEnd, true);
  assert.match(calico.reasons[0], /Calico \(network:neutron:core:calico\) requires etcd .*KVM \(hypervisor:kvm\).*etcd volumes are not for KVM.*so Calico \(network:neutron:core:calico\) cannot be chosen$/);
  assert.doesNotMatch(calico.reasons[0], RADIO_RULE);
  assert.deepEqual(calico.fix, ['unselect KVM (hypervisor:kvm)']);
});

test('replacement: dependents of the sibling go, unless the new member meets their requirement too', () => {
  const catalog = compileCatalog([
    { name: 'network:neutron:core:ml2' },
    { name: 'network:neutron:core:ml2new' },
    { name: 'network:neutron:core:contrail' },
    { name: 'network:neutron:ml2:vlan', requires: [{ one_of: { items: ['network:neutron:core:ml2', 'network:neutron:core:ml2new'] } }] },
    { name: 'additional_service:vlan-monitor', requires: [{ name: 'network:neutron:ml2:vlan' }] },
    { name: 'storage:block:lvm' },
  ]);
  const idx = (name: string) => catalog.byName.get(name) as number;
  const selection = ['network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'additional_service:vlan-monitor', 'storage:block:lvm'].map(idx);
  const names = (xs: number[]) => xs.map((x) => catalog.components[x].name);
  const toContrail = replacementOf(catalog, selection, idx('network:neutron:core:contrail'));
  assert.deepEqual(names(toContrail!.dropped), ['network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'additional_service:vlan-monitor']);
  assert.deepEqual(names(toContrail!.kept), ['storage:block:lvm']);
  const toNew = replacementOf(catalog, selection, idx('network:neutron:core:ml2new'));
  assert.deepEqual(names(toNew!.dropped), ['network:neutron:core:ml2']);
  const batch = replacementsOf(catalog, selection, [idx('network:neutron:core:contrail'), idx('network:neutron:core:ml2new')]);
  assert.deepEqual(batch.get(idx('network:neutron:core:contrail')), toContrail);
  assert.deepEqual(batch.get(idx('network:neutron:core:ml2new')), toNew);
  assert.equal(replacementOf(catalog, selection, idx('storage:block:lvm')), undefined);
  assert.equal(replacementOf(catalog, [idx('storage:block:lvm')], idx('network:neutron:core:contrail')), undefined);
});

test('property: a radio member is enabled iff the selection its click makes can be completed (brute force)', () => {
  const withCore = randomCatalog.filter((c) => c.names.includes('network:neutron:core:c1') && c.names.includes('network:neutron:core:c2'));
  fc.assert(
    fc.property(withCore, fc.array(fc.nat(7), { maxLength: 3 }), fc.boolean(), (input, extra, first) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const names = catalog.components.map((c) => c.name);
      const n = names.length;
      const valid = validMasks(n, (mask) => validate(catalog, names.filter((_, i) => mask & (1 << i))).valid);
      const completable = (m: number) => valid.some((ok, t) => ok && (t & m) === m);
      const core = names.indexOf(first ? 'network:neutron:core:c1' : 'network:neutron:core:c2');
      const sibling = names.indexOf(first ? 'network:neutron:core:c2' : 'network:neutron:core:c1');
      const picked = extra.filter((i) => i < n && i !== sibling);
      const selection = [...new Set([core, ...picked])].map((i) => names[i]);
      const mask = selection.reduce((m, x) => m | (1 << names.indexOf(x)), 0);
      const s = state(catalog, selection);
      const c = s.components[sibling];
      // The batch form (one fixpoint per group) agrees with the definition member by member.
      const indices = selection.map((x) => names.indexOf(x));
      const members = replacingMembers(catalog, indices);
      const batch = replacementsOf(catalog, indices, members);
      for (const m of members) assert.deepEqual(batch.get(m), replacementOf(catalog, indices, m));
      const click = clickMask(catalog, mask, sibling);
      const possible = completable(click.mask);
      assert.deepEqual(c.replaces, names.filter((_, i) => click.dropped & (1 << i)), 'replaces what the definition drops');
      for (const r of c.reasons) assert.doesNotMatch(r, RADIO_RULE);
      citesNoReplaced(c, new Map(catalog.components.map((x) => [x.name, x.display])));
      if (c.enabled) assert.ok(possible, `${c.name} enabled but ${names.filter((_, i) => click.mask & (1 << i))} cannot be completed`);
      if (!possible) assert.equal(c.enabled, false);
      if (c.deadEnd) assert.ok(!possible, `${c.name} called a dead end but its click can be completed`);
      // Completable yet disabled: only a requirement on an earlier pane not chosen yet, or a clash (never a dead end).
      if (possible && !c.enabled) {
        assert.equal(c.deadEnd, false);
        for (const r of c.reasons) assert.match(r, /which is not chosen yet$| cannot be used with /);
      }
      const clash = c.reasons.some((r) => r.includes(' cannot be used with ') && r.includes('(which you chose)'));
      if (!possible && !clash) assert.equal(c.deadEnd, true, `${c.name}: ${c.reasons}`);
      for (const f of c.fix.filter((x) => x.startsWith('unselect '))) {
        const y = catalog.components.findIndex((x) => f === `unselect ${x.display}`);
        assert.ok(completable(clickMask(catalog, mask & ~(1 << y), sibling).mask), `${f} would not free ${c.name}`);
      }
    }),
    { seed: 4242, numRuns: 300 },
  );
});

test('the bundled release with the real Contrail plugin: Contrail can replace Neutron with ML2', needsCorpus, () => {
  const contrail = copyWithReleaseFolders(corpusPath('plugins', 'fuel-plugin-contrail'));
  const { composition } = composeFromDisk({ release: resolve('release'), plugin: [contrail] });
  assert.ok(composition);
  assert.ok(composition.plugins.every((p) => p.applied), 'Contrail supports the bundled release');
  const release = composition.composed;
  const catalog = compileCatalog(release.components, { requiredTypes: release.required_component_types });
  const selection = ['hypervisor:kvm', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm', 'additional_service:heat-dashboard'];
  assert.equal(validate(catalog, selection).valid, true);
  const s = state(catalog, selection);
  const c = one(s, 'network:neutron:contrail');
  assert.equal(c.enabled, true, c.reasons.join(' | '));
  assert.deepEqual(c.replaces, ['network:neutron:core:ml2', 'network:neutron:ml2:vlan']);
  // What the wizard sends after the click is valid as it stands, and the state agrees.
  const after = ['hypervisor:kvm', 'storage:block:lvm', 'additional_service:heat-dashboard', 'network:neutron:contrail'];
  assert.equal(validate(catalog, after).valid, true);
  const back = one(state(catalog, after), 'network:neutron:core:ml2');
  assert.equal(back.enabled, true);
  assert.deepEqual(back.replaces, ['network:neutron:contrail']);
  // With QEMU, which Contrail lists as compatible, it is green; ML2 drivers wait for ML2.
  assert.equal(one(state(catalog, after), 'network:neutron:ml2:vlan').enabled, false);
});
