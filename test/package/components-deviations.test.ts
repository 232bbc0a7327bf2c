/**
 * The decided deviations from the components design (docs/components.md), over real plugin files:
 * the design's capitalised sample names get a plain finding saying names are lower case and why;
 * `requires` in the plain form is OR within a type and AND across types, and an author who means OR
 * across types writes `any_of`; the green light holds with a wildcard compatible list when every
 * chosen component is in it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileCatalog, state, validate } from '../../src/core/components/index.js';
import { composeFromDisk } from '../../src/package/release/compose.js';
import { createPlugin } from '../../src/package/create/index.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());

const SAMPLE = `- name: 'hypervisor:sub:A'
  label: A
- name: 'hypervisor:sub:B'
  label: B
- name: 'network:C'
  label: C
- name: 'storage:D'
  label: D
  requires:
    - name: 'hypervisor:sub:A'
    - name: 'hypervisor:sub:B'
    - name: 'network:C'
- name: 'storage:E'
  label: E
  requires:
    - name: 'hypervisor:sub:*'
    - name: 'network:C'
`;

function pluginWith(components: string): string {
  const created = createPlugin(`names${Math.random().toString(36).slice(2, 8)}`, { parentDir: work.path, packageVersion: '5.0.0' });
  assert.ok(created.ok);
  writeFileSync(join(created.dir!, 'components.yaml'), components);
  return created.dir!;
}

test("the design's capitalised sample names: one plain finding per name, saying names are lower case and why", () => {
  const r = validatePlugin(pluginWith(SAMPLE));
  const cases = r.findings.filter((f) => f.code === 'component/name-not-lower-case');
  assert.deepEqual(cases.map((f) => f.line), [1, 3, 5, 7, 10, 11, 12, 13, 17]);
  assert.ok(cases.every((f) => f.severity === 'error' && f.file === 'components.yaml'));
  assert.match(cases[0].message, /'hypervisor:sub:A' has capital letters; component names are lower case: Fuel accepts only a-z, 0-9, '_' and '-'/);
  assert.match(cases[0].hint ?? '', /write 'hypervisor:sub:a'/);
  assert.deepEqual(r.findings.filter((f) => f.code === 'schema/bad-format' && f.file === 'components.yaml'), [], 'the pattern findings are replaced');
  assert.equal(r.valid, false);
});

test('the same catalog in lower case is valid; a name wrong in another way is still the schema finding', () => {
  const lower = validatePlugin(pluginWith(SAMPLE.replace(/sub:A/g, 'sub:a').replace(/sub:B/g, 'sub:b').replace(/:C'/g, ":c'").replace(/:D'/g, ":d'").replace(/:E'/g, ":e'")));
  assert.deepEqual(lower.findings.filter((f) => f.severity === 'error'), []);
  const other = validatePlugin(pluginWith("- name: 'hypervisor:Sub A'\n  label: A\n"));
  assert.deepEqual(other.findings.filter((f) => f.file === 'components.yaml').map((f) => f.code), ['schema/bad-format']);
});

const RULES = `- name: additional_service:needs-both
  label: Needs Ceph and VLAN
  requires:
    - name: storage:block:ceph
    - name: network:neutron:ml2:vlan
- name: additional_service:needs-either
  label: Needs Ceph or VLAN
  requires:
    - any_of:
        items: [storage:block:ceph, network:neutron:ml2:vlan]
- name: additional_service:tested-on-any-hypervisor
  label: Tested on every hypervisor
  compatible:
    - name: hypervisor:*
`;

test('requires: the plain form is OR within a type and AND across types; any_of is OR across types; a wildcard compatible list gives the green light', () => {
  const dir = pluginWith(RULES);
  const checked = validatePlugin(dir);
  assert.deepEqual(checked.findings.filter((f) => f.severity === 'error'), []);
  const { composition } = composeFromDisk({ release: join(import.meta.dirname, '..', '..', 'release'), plugin: [dir] });
  assert.ok(composition);
  const catalog = compileCatalog(composition.composed.components, { requiredTypes: composition.composed.required_component_types });
  const base = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:lvm'];
  const both = validate(catalog, [...base, 'additional_service:needs-both']);
  assert.equal(both.valid, false, 'VLAN alone does not meet the storage type');
  assert.deepEqual(both.findings.map((f) => f.code), ['component/requires-unmet']);
  const withCeph = [...base.filter((n) => n !== 'storage:block:lvm'), 'storage:block:ceph'];
  assert.deepEqual(validate(catalog, [...withCeph, 'additional_service:needs-both']).findings, []);
  assert.equal(validate(catalog, [...base, 'additional_service:needs-either']).valid, true, 'any_of: VLAN alone is enough');
  const green = state(catalog, [...base, 'additional_service:tested-on-any-hypervisor']).components.find((c) => c.name === 'additional_service:tested-on-any-hypervisor');
  assert.equal(green?.green, false, 'the chosen network and storage are not in its compatible list');
  const lit = state(catalog, ['hypervisor:qemu', 'additional_service:tested-on-any-hypervisor']).components.find((c) => c.name === 'additional_service:tested-on-any-hypervisor');
  assert.equal(lit?.green, true, 'hypervisor:* covers the one chosen hypervisor; not every hypervisor need be chosen');
});

test('mixing the two forms of requires is an error at the requires key', () => {
  const r = validatePlugin(pluginWith('- name: additional_service:mixed\n  label: M\n  requires:\n    - name: storage:block:ceph\n    - any_of:\n        items: [network:neutron:ml2:vlan]\n'));
  assert.deepEqual(r.findings.filter((f) => f.code === 'component/requires-mixed-format').map((f) => `${f.file}:${f.line}`), ['components.yaml:3']);
});
