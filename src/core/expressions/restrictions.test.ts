import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRestrictions, evaluateLimits, normalizeRestriction, restrictionMessages, type ExpressionContext } from './index.js';

const models: ExpressionContext = {
  settings: { common: { use_vcenter: { value: false } }, storage: { osd_pool_size: { value: '3' } }, plugin_x: { metadata: { enabled: false } } },
  cluster: { mode: 'ha_compact', net_provider: 'neutron' },
  version: { feature_groups: ['mirantis'] },
};

test('the three spellings of a restriction normalise to one form', () => {
  assert.deepEqual(
    (({ ast: _ast, ...r }) => r)(normalizeRestriction("cluster:mode == 'ha_compact'").restriction!),
    { condition: "cluster:mode == 'ha_compact'", message: null, action: 'disable', strict: true },
  );
  const long = normalizeRestriction({ condition: 'settings:common.use_vcenter.value == false', message: 'VMware only', action: 'hide', strict: false });
  assert.equal(long.restriction?.action, 'hide');
  assert.equal(long.restriction?.strict, false);
  assert.equal(long.restriction?.message, 'VMware only');
  const short = normalizeRestriction({ "settings:common.libvirt_type.value != 'kvm'": 'Only KVM hypervisor works with DPDK' });
  assert.equal(short.restriction?.condition, "settings:common.libvirt_type.value != 'kvm'");
  assert.equal(short.restriction?.message, 'Only KVM hypervisor works with DPDK');
  assert.deepEqual(short.findings, []);
  assert.equal(normalizeRestriction({ condition: true }).restriction?.condition, 'true');
});

test('bad restrictions are findings, never exceptions', () => {
  const codes = (item: unknown) => normalizeRestriction(item).findings.map((f) => f.code);
  assert.deepEqual(codes(42), ['restriction/invalid-format']);
  assert.deepEqual(codes(null), ['restriction/invalid-format']);
  assert.deepEqual(codes(['a']), ['restriction/invalid-format']);
  assert.deepEqual(codes({}), ['restriction/invalid-format']);
  assert.deepEqual(codes({ condition: 5 }), ['restriction/invalid-format']);
  assert.deepEqual(codes({ condition: 'true', action: 'explode' }), ['restriction/unknown-action']);
  assert.deepEqual(codes({ condition: 'true', strict: 'yes' }), ['restriction/invalid-strict']);
  assert.deepEqual(codes({ condition: 'true', message: 3 }), ['restriction/invalid-message']);
  assert.deepEqual(codes({ 'true': 'a', 'false': 'b' }), ['restriction/extra-keys']);
  assert.deepEqual(codes('a =='), ['expression/syntax-error']);
});

test('checkRestrictions evaluates every restriction and says which are met', () => {
  const results = checkRestrictions(
    [
      'settings:plugin_x.metadata.enabled == false',
      { condition: "cluster:net_provider != 'neutron'", message: 'Neutron only' },
      { "not ('experimental' in version:feature_groups)": 'Experimental only' },
      { condition: 'true', action: 'hide', message: 'hidden' },
      'broken ==',
    ],
    models,
  );
  assert.deepEqual(
    results.map((r) => [r.condition, r.action, r.met]),
    [
      ['settings:plugin_x.metadata.enabled == false', 'disable', true],
      ["cluster:net_provider != 'neutron'", 'disable', false],
      ["not ('experimental' in version:feature_groups)", 'disable', true],
      ['true', 'hide', true],
      ['broken ==', 'disable', false],
    ],
  );
  assert.equal(results[4].findings[0].code, 'expression/syntax-error');
  assert.equal(restrictionMessages(results), 'Experimental only. hidden');
  assert.deepEqual(checkRestrictions(['true', { condition: 'true', action: 'hide' }], models, { actions: ['hide'] }).map((r) => r.action), ['hide']);
  assert.deepEqual(checkRestrictions(undefined, models), []);
});

test('strict restrictions with missing values are undecided; non-strict ones read null', () => {
  const [strict] = checkRestrictions(['settings:common.missing.value == null'], models);
  assert.equal(strict.met, false);
  assert.equal(strict.findings[0].code, 'expression/unknown-reference');
  const [lenient] = checkRestrictions([{ condition: 'settings:common.missing.value == null', strict: false }], models);
  assert.equal(lenient.met, true);
  assert.deepEqual(lenient.findings, []);
  const [model] = checkRestrictions([{ condition: 'nic_attributes:sriov.enabled.value == false', strict: false }], models);
  assert.equal(model.met, false);
  assert.equal(model.findings[0].code, 'expression/unknown-model');
});

test('limits: numbers or expressions, overrides first, strictest override wins', () => {
  const limits = {
    min: 1,
    max: 'settings:storage.osd_pool_size.value',
    recommended: 3,
    overrides: [
      { condition: "cluster:mode != 'ha_compact'", max: 1, message: 'At most 1 in simple mode' },
      { condition: "cluster:mode == 'ha_compact'", min: 3, message: 'At least 3 in HA' },
      { condition: 'true', min: 2, message: 'At least 2' },
    ],
  };
  const plain = evaluateLimits(limits, models);
  assert.deepEqual(plain.limits, { min: { value: 3, override: 1, message: 'At least 3 in HA' }, max: { value: 3 }, recommended: { value: 3 } });
  assert.equal(plain.count, undefined);
  const two = evaluateLimits(limits, models, { count: 2, role: 'controller' });
  assert.equal(two.valid, false);
  assert.deepEqual(two.failures.map((f) => [f.type, f.severity, f.message]), [
    ['min', 'error', 'At least 3 in HA'],
    ['recommended', 'warning', 'At least 3 controller nodes are recommended (2 selected currently).'],
  ]);
  const five = evaluateLimits(limits, models, { count: 5, role: 'controller' });
  assert.deepEqual(five.failures.map((f) => f.message), ['At most 3 controller nodes are allowed.']);
  assert.equal(evaluateLimits(limits, models, { count: 3 }).valid, true);
});

test('limits: zero means no limit, bad values are findings', () => {
  assert.deepEqual(evaluateLimits({ min: 0, max: 0 }, models, { count: 5 }).failures, []);
  const bad = evaluateLimits({ min: 'cluster:mode', max: 'nope ==', overrides: [{ max: 1 }, 7] }, models);
  assert.deepEqual(bad.findings.map((f) => f.code).sort(), ['expression/syntax-error', 'limits/invalid-format', 'limits/missing-condition', 'limits/not-a-number']);
  assert.deepEqual(evaluateLimits('many', models).findings.map((f) => f.code), ['limits/invalid-format']);
  assert.deepEqual(evaluateLimits(undefined, models, { count: 0 }).valid, true);
});

test('an override of 0 lifts the base limit while its condition holds', () => {
  const limits = { min: 'settings:storage.osd_pool_size.value', overrides: [{ condition: 'settings:storage.volumes_ceph.value == false', min: 0 }] };
  const settings = (ceph: boolean) => ({ settings: { storage: { osd_pool_size: { value: '3' }, volumes_ceph: { value: ceph } } } });
  assert.deepEqual(evaluateLimits(limits, settings(false), { count: 0, role: 'ceph-osd' }).failures, []);
  const withCeph = evaluateLimits(limits, settings(true), { count: 2, role: 'ceph-osd' });
  assert.equal(withCeph.failures[0]?.type, 'min');
  assert.equal(withCeph.failures[0]?.limit, 3);
});

test('limits: a role\'s own message is said for its bounds, and counts read as English (issue 16)', () => {
  const osd = { min: 'settings:storage.osd_pool_size.value', message: 'There must be at least as many Ceph OSD nodes as the Ceph replication factor.' };
  const models = { settings: { storage: { osd_pool_size: { value: '3' } } } };
  assert.deepEqual(evaluateLimits(osd, models, { count: 1, role: 'Ceph OSD' }).failures.map((f) => f.message), ['There must be at least as many Ceph OSD nodes as the Ceph replication factor.']);
  assert.deepEqual(evaluateLimits({ min: 1, recommended: 3 }, {}, { count: 0, role: 'Database' }).failures.map((f) => f.message), [
    'At least 1 Database node is required (0 selected currently).',
    'At least 3 Database nodes are recommended (0 selected currently).',
  ]);
});
