import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYaml } from '../../package/yaml/index.js';
import { releasesFromFixture } from './fixture.js';

const fixture = (text: string) => releasesFromFixture(parseYaml(text, 'openstack.yaml').value, 'openstack.yaml');

test('records without pk are templates; extend deep-merges, lists are replaced; placeholders stay text', () => {
  const r = fixture(`
- &base
  model: nailgun.release
  fields:
    state: available
    operating_system: Ubuntu
    roles_metadata: {controller: {name: Controller, conflicts: [compute]}}
    attributes_metadata: {editable: {common: {a: {value: 1}, b: {value: 2}}}, generated: {}}
    modes: [ha_compact]
    networks_metadata: {url: "http://{settings.MASTER_IP}:8080/"}
- pk: 1
  extend: *base
  fields:
    name: One
    version: newton-10.0
    attributes_metadata: {editable: {common: {b: {value: 3}}}}
    modes: [multinode]
`);
  assert.deepEqual(r.findings, []);
  assert.equal(r.releases.length, 1);
  const one = r.releases[0];
  assert.equal(one.id, 'One@newton-10.0');
  assert.deepEqual(one.attributes_metadata.editable, { common: { a: { value: 1 }, b: { value: 3 } } });
  assert.deepEqual(one.modes, ['multinode']);
  assert.equal(one.networks_metadata.url, 'http://{settings.MASTER_IP}:8080/');
  assert.equal(one.roles_metadata.controller.name, 'Controller');
});

test('bad input becomes findings, never a crash', () => {
  assert.deepEqual(fixture('name: x').findings.map((f) => f.code), ['fixture/not-a-list']);
  assert.deepEqual(fixture('- pk: 1\n  extend: 7\n  fields: {}').findings.map((f) => f.code), ['fixture/unknown-extend']);
  assert.deepEqual(fixture('- pk: 1\n  model: nailgun.release').findings.map((f) => f.code), ['fixture/no-fields']);
  const missing = fixture('- pk: 1\n  fields: {name: X, roles_metadata: [1]}');
  assert.deepEqual(missing.findings.map((f) => f.code).sort(), ['release/missing-field', 'release/missing-field', 'release/wrong-type']);
  assert.equal(missing.findings[0].line, 2);
  assert.deepEqual(fixture('- 3\n- {model: x}').findings.map((f) => f.code), ['fixture/wrong-record']);
  assert.deepEqual(fixture('- {model: x}').findings.map((f) => f.code), ['fixture/no-release']);
  for (const text of ['', '[]', '- pk: 1\n  extend: {extend: {extend: 1}}\n  fields: 5', '- {pk: 1, fields: {name: [], version: {}, operating_system: 1}}']) {
    assert.doesNotThrow(() => fixture(text));
  }
});
