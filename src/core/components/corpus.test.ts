import { test } from 'node:test';
import assert from 'node:assert/strict';
import { needsCorpus, corpusPath } from '../../../test/support/corpus.js';
import { readYamlFile } from '../../package/yaml/index.js';
import { loadReleaseSource } from '../../package/release/source.js';
import { analyse, compileCatalog, state, validate } from './index.js';
import type { Component } from '../release/model.js';

test('the Fuel release fixture: defaults are valid, vlan and tun exclude each other, nothing is unreachable', needsCorpus, () => {
  const source = loadReleaseSource(corpusPath('release/fuel-web/nailgun/nailgun/fixtures/openstack.yaml'));
  assert.ok(source.release);
  const catalog = compileCatalog(source.release.components, { requiredTypes: source.release.required_component_types });
  assert.deepEqual(catalog.findings, []);
  assert.equal(catalog.components.length, 11);
  const defaults = catalog.components.filter((c) => c.default).map((c) => c.name);
  assert.equal(validate(catalog, defaults).valid, true);
  const s = state(catalog, defaults);
  assert.equal(s.components.find((c) => c.name === 'network:neutron:ml2:tun')?.enabled, false);
  assert.equal(s.components.find((c) => c.name === 'storage:block:ceph')?.fix[0], 'unselect storage:block:lvm');
  assert.deepEqual(analyse(catalog).filter((f) => f.severity !== 'info'), []);
});

test('corpus plugins: every components.yaml compiles and is analysed without a crash', needsCorpus, () => {
  const plugins = ['fuel-plugins--fuel_plugin_example_v4', 'fuel-plugin-contrail', 'fuel-plugin-calico', 'fuel-plugin-opendaylight', 'fuel-plugin-cinder-netapp', 'fuel-plugin-manila', 'fuel-plugin-murano'];
  for (const p of plugins) {
    const read = readYamlFile(corpusPath('plugins', p, 'components.yaml'), `${p}/components.yaml`);
    assert.ok(read.ok, p);
    const catalog = compileCatalog(read.value as Component[]);
    const found = analyse(catalog);
    if (p === 'fuel-plugins--fuel_plugin_example_v4') {
      const unknown = found.find((f) => f.code === 'component/unknown-reference');
      assert.ok(unknown, 'hypervisor:xxx is provided by nobody');
      assert.equal(unknown.file, `${p}/components.yaml`);
      assert.ok(found.some((f) => f.code === 'component/never-choosable'));
    }
    if (p === 'fuel-plugin-contrail') assert.equal(catalog.components[0].group, 'network:core');
  }
});
