/**
 * The designs' own examples (issue 28): where Fuel 9.0 read a design's example differently from
 * what the design shows, the validator says what to change, at the place the reading differs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { perReleaseFilesPlugin } from '../support/multi-release.js';
import { fixture, place, validateCorpusPlugin, withCode } from './support.js';

test("the role-as-a-plugin design's node role skeleton (metadata:, volumes_mapping:) is told to flatten, at its metadata: line", () => {
  const r = validatePlugin(fixture('design-role-skeleton'));
  const [f, ...more] = withCode(r.findings, 'role/metadata-wrapper');
  assert.ok(f, r.findings.map((x) => x.code).join());
  assert.deepEqual(more, []);
  assert.equal(place(f), 'node_roles.yaml:3:3');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /role 'role_name'.*'metadata:'.*'volumes_mapping:'/);
  assert.match(f.hint ?? '', /flatten the role/);
  assert.match(f.hint ?? '', /volumes\.yaml as 'volumes_roles_mapping: \{role_name: \[\.\.\.\]\}'/);
  // Not the schema's "missing required key 'name'" for the wrapped role; a flat role is still checked.
  const required = withCode(r.findings, 'schema/required');
  assert.deepEqual(required.map((x) => `${place(x)} ${x.message}`), ["node_roles.yaml:17:3 flat_role is missing the required key 'description'"]);
  assert.equal(r.valid, false);
});

test("role: in a package 5.0.0 task (the design renames it roles) is a warning at the key; a group's role: is not", needsCorpus, () => {
  const r = validateCorpusPlugin('fuel-plugins--fuel_plugin_example_v5');
  const found = withCode(r.findings, 'task/role-renamed');
  assert.deepEqual(found.map(place), ['deployment_tasks.yaml:39:3']);
  assert.equal(found[0].severity, 'warning');
  assert.match(found[0].message, /task 'fuel_plugin_example_v5-post-deployment-sh' uses role, which package 5\.0\.0 renames roles/);
  assert.match(found[0].hint ?? '', /rename role to roles \(roles: \["fuel_plugin_example_v5"\]\)/);
  // 4.0.0 tasks keep role: without a word (fuel_plugin_example_v4 writes it on its tasks).
  assert.deepEqual(withCode(validateCorpusPlugin('fuel-plugins--fuel_plugin_example_v4').findings, 'task/role-renamed'), []);
});

test("a role defined only in a release record's own node_roles file is known to the top-level volumes.yaml (plugins-v5 variant 2)", () => {
  const folder = perReleaseFilesPlugin('per_release', {
    'node_roles_mitaka.yaml': 'pr_role:\n  name: Role for Mitaka\n  description: Mitaka\nmitaka_only:\n  name: Mitaka only\n  description: Only in node_roles_mitaka.yaml\n',
    'volumes.yaml': 'volumes: []\nvolumes_roles_mapping:\n  pr_role:\n    - {id: os, allocate_size: min}\n  mitaka_only:\n    - {id: os, allocate_size: min}\n  mitaka_onyl:\n    - {id: os, allocate_size: min}\n',
    'volumes_mitaka.yaml': 'volumes: []\nvolumes_roles_mapping:\n  pr_role:\n    - {id: os, allocate_size: all}\n  mitaka_only:\n    - {id: os, allocate_size: all}\n  nowhere_role:\n    - {id: os, allocate_size: all}\n',
  });
  try {
    const r = validatePlugin(folder.path);
    const unknown = withCode(r.findings, 'volumes/unknown-role');
    // The slip in volumes.yaml and the role no file defines in volumes_mitaka.yaml; not mitaka_only.
    assert.deepEqual(unknown.map((f) => `${place(f)} '${/for '([^']+)'/.exec(f.message)?.[1]}'`), ["volumes.yaml:7:3 'mitaka_onyl'", "volumes_mitaka.yaml:7:3 'nowhere_role'"]);
    assert.match(unknown[0].message, /closest: 'mitaka_only'/);
  } finally {
    folder.remove();
  }
});

/** The release-as-a-plugin design's metadata.yaml, as the design writes it ("..." stands for the other fields). */
const DESIGN_RELEASE_METADATA = `name: 'ExampleRelease'
version: '10.0.0'
package_version: '5.0.0'       # plugin package version

releases:
  - release_name: 'ExampleRelease'
    description: 'Example Release Description'  #required
    operating_system: 'ubuntu'                  #required, or its alias "os"
    version: 'mitaka-10.0'                      #required
    is_release: true
    base_release_path: ubuntu-10.0.0/_base.yaml
    networks_path: ubuntu-10.0.0/metadata/networks.yaml
    volumes_path: ubuntu-10.0.0/metadata/volumes.yaml
    roles_path: ubuntu-10.0.0/metadata/roles.yaml
    network_roles_path: ubuntu-10.0.0/metadata/network_roles.yaml
    components_path: ubuntu-10.0.0/metadata/components.yaml
    attributes_path: ubuntu-10.0.0/attributes/attributes.yaml
    vmware_attributes_path: ubuntu-10.0.0/attributes/vmware.yaml
    node_attributes_path: ubuntu-10.0.0/attributes/node.yaml
    nic_attributes_path: ubuntu-10.0.0/attributes/nic.yaml
    bond_attributes_path: ubuntu-10.0.0/attributes/bond.yaml
    graphs:
      - type: default
        tasks_path: ubuntu-10.0.0/graphs/deployment_graph.yaml
    deployment_scripts_path: ubuntu-10.0.0/deployment_scripts/
    repository_path: ubuntu-10.0.0/repositories
`;

/** The design's layout, filled with the files of the public release plugin (gerrit 365418/12, Newton on Ubuntu). */
function designReleasePlugin(metadata: string): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-example-release-'));
  const real = corpusPath('plugins', 'fuel-plugins--release-plugin@gerrit-365418-12');
  for (const sub of ['metadata', 'attributes', 'graphs', 'deployment_scripts', 'repositories']) mkdirSync(join(dir, 'ubuntu-10.0.0', sub), { recursive: true });
  cpSync(join(real, 'newton-on-ubuntu-16-04', 'metadata'), join(dir, 'ubuntu-10.0.0', 'metadata'), { recursive: true });
  cpSync(join(real, 'newton-on-ubuntu-16-04', 'attributes'), join(dir, 'ubuntu-10.0.0', 'attributes'), { recursive: true });
  for (const f of ['nic.yaml', 'bond.yaml']) cpSync(join(real, 'attributes', f), join(dir, 'ubuntu-10.0.0', 'attributes', f));
  cpSync(join(real, 'metadata', 'components.yaml'), join(dir, 'ubuntu-10.0.0', 'metadata', 'components.yaml'));
  cpSync(join(real, 'graphs', 'deployment_tasks.yaml'), join(dir, 'ubuntu-10.0.0', 'graphs', 'deployment_graph.yaml'));
  writeFileSync(join(dir, 'ubuntu-10.0.0', '_base.yaml'), '{}\n');
  writeFileSync(join(dir, 'metadata.yaml'), metadata);
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test("the release-as-a-plugin design's ExampleRelease: told exactly what to change, and valid once changed, with no top-level files", needsCorpus, () => {
  const design = designReleasePlugin(DESIGN_RELEASE_METADATA);
  try {
    const errors = validatePlugin(design.dir).findings.filter((f) => f.severity === 'error');
    assert.deepEqual(errors.map((f) => `${f.code} ${place(f)}`), ['schema/required metadata.yaml:1:1', 'schema/bad-format metadata.yaml:1:7'], errors.map((f) => f.message).join('\n'));
    assert.match(errors[0].message, /missing the required keys 'title', 'description', 'licenses', 'authors', 'homepage', 'groups'/);
    assert.match(errors[0].hint ?? '', /add title: .*; groups: \[\]/);
    assert.equal(errors[1].hint, "write name: 'example-release' (a plugin's name has only a-z, 0-9, '_' and '-'); release_name may keep 'ExampleRelease', which users see");
  } finally {
    design.done();
  }
  // As told: the fields added, the name in lower case. No environment_config.yaml, an empty deployment_tasks.yaml.
  const fixed = designReleasePlugin(
    DESIGN_RELEASE_METADATA.replace("name: 'ExampleRelease'\n", "name: 'example-release'\ntitle: Example release\ndescription: From the design\nlicenses: ['Apache License Version 2.0']\nauthors: ['Hearth tests']\nhomepage: 'https://example.org'\ngroups: []\n"),
  );
  try {
    writeFileSync(join(fixed.dir, 'deployment_tasks.yaml'), '# the tasks are in the graphs\n');
    const r = validatePlugin(fixed.dir);
    assert.deepEqual(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.message}`), []);
    assert.deepEqual(withCode(r.findings, 'release/name-differs'), [], "'example-release' and 'ExampleRelease' are one name");
    assert.equal(r.valid, true);
  } finally {
    fixed.done();
  }
});

test("a release definition's keys in an extension record (attributes_path, networks_path) are named as such, not as a near miss", () => {
  const folder = perReleaseFilesPlugin('per_release');
  try {
    const path = join(folder.path, 'metadata.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replace('    node_roles_path: node_roles_mitaka.yaml\n', '    attributes_path: node_roles_mitaka.yaml\n    networks_path: node_roles_mitaka.yaml\n'));
    const r = validatePlugin(folder.path);
    assert.deepEqual(withCode(r.findings, 'key/misspelt'), []);
    const found = withCode(r.findings, 'release/release-key-in-extension');
    assert.deepEqual(found.map((f) => [/'([a-z_]+)'/.exec(f.message)?.[1], f.hint]), [
      ['attributes_path', "rename it to 'environment_config_path' (the extension's key for the same file, package 5.0.0)"],
      ['networks_path', "an extension cannot change this; define a release of your own (is_release: true, release_name, ...) or drop 'networks_path'"],
    ]);
  } finally {
    folder.remove();
  }
});
