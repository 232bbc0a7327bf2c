/**
 * The validator on the components design's own examples and a real plugin (issue 28): the
 * design's ML2 spelling `network:ml2:<driver>`, a plain `requires` spanning several types (where
 * Hearth reads it as Nailgun did, not as the design's prose), and an incompatible entry's
 * `description` (shown by Hearth, ignored by Fuel).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlugin } from '../../src/package/create/index.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { needsCorpus, corpusPath } from '../support/corpus.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';
import { tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());

function pluginWith(components: string): string {
  const created = createPlugin(`design${Math.random().toString(36).slice(2, 8)}`, { parentDir: work.path, packageVersion: '5.0.0' });
  assert.ok(created.ok);
  writeFileSync(join(created.dir!, 'components.yaml'), components);
  return created.dir!;
}
const place = (f: { file?: string; line?: number; column?: number }) => `${f.file}:${f.line}:${f.column}`;

// The design's plugin example ("Plugins" section), with its stray commas and missing spaces fixed.
const DESIGN_PLUGIN = `- name: 'hypervisor:xen'
  label: 'Xen'
  description: 'Xen hypervisor'

- name: 'network:core:contrail'
  label: 'Contrail'
  description: 'Contrail network'
  incompatible:
    - name: 'hypervisor:vmware'
      description: 'Contrail not compatible with VMware for now'

- name: 'network:ml2:dvs'
  label: 'DVS'
  description: 'Vmware DVS network'
  compatible:
    - name: 'hypervisor:vmware'
  requires:
    - name: 'hypervisor:vmware'
`;

test("the design's network:ml2:dvs is an ML2 driver to the validator: it is told to require the ML2 core (item 4)", () => {
  const r = validatePlugin(pluginWith(DESIGN_PLUGIN));
  const f = r.findings.filter((x) => x.code === 'component/ml2-without-core');
  assert.deepEqual(f.map(place), ['components.yaml:12:9']);
  assert.match(f[0].message, /'network:ml2:dvs' is an ML2 mechanism driver but does not require network:neutron:core:ml2/);
  // Required through a wildcard that matches the core, it is satisfied.
  const fixed = validatePlugin(pluginWith(`${DESIGN_PLUGIN}    - name: 'network:neutron:core:*'\n`));
  assert.deepEqual(fixed.findings.filter((x) => x.code === 'component/ml2-without-core'), []);
});

test("an incompatible entry's description (the design's spelling) is shown by Hearth, and the finding says so (item 20)", () => {
  const r = validatePlugin(pluginWith(DESIGN_PLUGIN));
  const f = r.findings.filter((x) => x.code === 'component/unknown-rule-key');
  assert.deepEqual(f.map(place), ['components.yaml:10:7']);
  assert.match(f[0].message, /'description', which Hearth shows as the entry's message but Fuel does not read/);
  assert.doesNotMatch(f[0].message, /Fuel does not read \(an entry/);
  assert.match(f[0].hint ?? '', /rename it 'message', so Fuel shows it too/);
  // A key nobody reads is said to be read by neither.
  const typo = validatePlugin(pluginWith("- name: 'additional_service:x'\n  label: X\n  compatible:\n    - name: 'hypervisor:*'\n      descripton: works\n"));
  const t = typo.findings.filter((x) => x.code === 'component/unknown-rule-key');
  assert.match(t[0].message, /'descripton', which neither Fuel nor Hearth reads/);
});

test("the real calico plugin's incompatible description gets the same plain finding (item 20)", needsCorpus, () => {
  const parent = tempDir('hearth-calico-');
  try {
    const r = validatePlugin(copyWithReleaseFolders(corpusPath('plugins', 'fuel-plugin-calico'), parent.path));
    const f = r.findings.filter((x) => x.code === 'component/unknown-rule-key');
    assert.equal(f.length, 1);
    assert.equal(place(f[0]), 'components.yaml:12:7');
    assert.match(f[0].message, /component 'network:neutron:calico': an 'incompatible' entry has the key 'description', which Hearth shows/);
  } finally {
    parent.remove();
  }
});

// The design's requires example: "Condition is next: A OR B OR C" (in lower case, as names are).
const DESIGN_REQUIRES = `- name: 'hypervisor:sub:a'
  label: A
- name: 'hypervisor:sub:b'
  label: B
- name: 'network:c'
  label: C
- name: 'storage:d'
  label: D
  requires:
    - name: 'hypervisor:sub:a'
    - name: 'hypervisor:sub:b'
    - name: 'network:c'
- name: 'storage:e'
  label: E
  requires:
    - name: 'hypervisor:sub:a'
    - name: 'hypervisor:sub:b'
- name: 'storage:f'
  label: F
  requires:
    - any_of:
        items: ['hypervisor:sub:a', 'hypervisor:sub:b', 'network:c']
`;

test("a plain requires naming several types is told how Hearth reads it and how to write the design's OR, at its requires (item 5)", () => {
  const r = validatePlugin(pluginWith(DESIGN_REQUIRES));
  const f = r.findings.filter((x) => x.code === 'component/requires-across-types');
  // storage:d only: storage:e names one type, storage:f is the predicate form.
  assert.deepEqual(f.map(place), ['components.yaml:9:3']);
  assert.equal(f[0].severity, 'warning');
  assert.match(f[0].message, /component 'storage:d' requires names of 2 types \(hypervisor, network\): Hearth reads this as Fuel did, one of each type — \(hypervisor:sub:a or hypervisor:sub:b\) and network:c — not as the design's "any of them"/);
  assert.match(f[0].hint ?? '', /requires: \[\{any_of: \{items: \[hypervisor:sub:a, hypervisor:sub:b, network:c\]\}\}\]/);
  assert.deepEqual(r.findings.filter((x) => x.severity === 'error' && x.file === 'components.yaml'), []);
});

test('a Neutron service in components.yaml is told how Hearth and Fuel 9.0 read it, at its name (item 1)', () => {
  const r = validatePlugin(pluginWith("- name: 'network:neutron:service:lbaas'\n  label: LBaaS\n- name: 'network:neutron:ipam:builtin'\n  label: IPAM\n- name: 'network:neutron:core:nsx'\n  label: NSX\n"));
  const f = r.findings.filter((x) => x.code === 'component/beside-network-core');
  assert.deepEqual(f.map(place), ['components.yaml:1:9', 'components.yaml:3:9']);
  assert.equal(f[0].severity, 'info');
  assert.match(f[0].message, /'network:neutron:service:lbaas' is a Neutron service: Hearth offers it beside the network core plugin.*Fuel 9\.0's wizard showed it as one more core plugin/);
  assert.match(f[1].message, /IPAM driver/);
});
