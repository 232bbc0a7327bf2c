import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyBind } from './bind.js';

test('a chosen component sets the settings and cluster values it binds, leaving the input untouched', () => {
  const settings = { storage: { volumes_ceph: { value: false }, volumes_lvm: { value: true } }, other: { x: { value: 1 } } };
  const before = structuredClone(settings);
  const out = applyBind(settings, [
    { name: 'storage:block:ceph', bind: [['settings:storage.volumes_ceph.value', true], ['settings:storage.volumes_lvm.value', false]] },
    { name: 'network:neutron:ml2:vlan', bind: [['cluster:net_segment_type', 'vlan']] },
    { name: 'additional_service:x', bind: ['settings:extra.enabled.value'] },
  ]);
  assert.deepEqual(out.problems, []);
  assert.equal((out.settings.storage as Record<string, { value: unknown }>).volumes_ceph.value, true);
  assert.equal((out.settings.storage as Record<string, { value: unknown }>).volumes_lvm.value, false);
  assert.deepEqual(out.settings.extra, { enabled: { value: true } });
  assert.deepEqual(out.cluster, { net_segment_type: 'vlan' });
  assert.equal(settings.storage.volumes_ceph.value, false, 'the stored settings are not modified in place');
  // Two binds in one section, and a section no bind touches: the input stays as it was, deep down.
  assert.deepEqual(settings, before);
  assert.deepEqual(out.settings.other, { x: { value: 1 } });
});

test('bad bind items are problems, never a crash or a polluted prototype', () => {
  const out = applyBind({ a: { b: 1 } }, [
    { name: 'x', bind: ['nonsense', 42, ['settings:__proto__.polluted', 1], ['settings:a.b.c', 2], ['release:x', 1]] },
  ]);
  assert.equal(out.problems.length, 5);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(out.settings, { a: { b: 1 } });
});
