import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { validatePlugin, type ValidationResult } from './index.js';
import type { Release } from '../../core/release/model.js';
import { packageRoot } from '../root.js';

/** A 4.0.0 plugin that validates without errors; tests override one file at a time. */
const BASE_V4: Record<string, string> = {
  'metadata.yaml': `name: demo
title: Demo
version: '1.0.0'
package_version: '4.0.0'
description: A demo plugin
fuel_version: ['9.0']
licenses: ['Apache License Version 2.0']
authors: ['Someone']
homepage: 'https://example.org'
groups: []
is_hotpluggable: false
releases:
  - os: ubuntu
    version: mitaka-9.0
    mode: ['ha']
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
`,
  'environment_config.yaml': `attributes:
  metadata:
    group: other
  demo_text:
    value: 'x'
    label: 'Text'
    type: text
    weight: 25
    restrictions:
      - condition: "settings:demo.demo_text.value == 'y'"
        action: hide
`,
  'deployment_tasks.yaml': `- id: demo-role
  type: group
  role: [demo-role]
  requires: [controller]
  required_for: [deploy_end]
  parameters:
    strategy:
      type: parallel
- id: demo-deploy
  type: puppet
  version: 2.0.0
  roles: [demo-role]
  requires: [demo-prepare]
  cross-depends:
    - name: hiera
  parameters:
    puppet_manifest: deploy.pp
    puppet_modules: .
    timeout: 3600
- id: demo-prepare
  type: shell
  version: 2.0.0
  roles: ['/(primary-)?controller/']
  parameters:
    cmd: echo hi
    timeout: 60
`,
  'node_roles.yaml': `demo-role:
  name: Demo
  description: A demo role
  has_primary: false
  limits:
    min: 1
`,
  'volumes.yaml': `volumes_roles_mapping:
  demo-role:
    - {allocate_size: min, id: os}
    - {allocate_size: all, id: demo_volume}
volumes:
  - id: demo_volume
    type: vg
    min_size: {generator: calc_min_os_size}
    items:
      - {mount: /var/demo, type: lv, name: demo, size: {generator: calc_total_vg}}
`,
  'components.yaml': `- name: additional_service:demo
  label: Demo
  compatible: []
  requires: []
  incompatible: []
`,
  'deployment_scripts/.keep': '',
  'repositories/ubuntu/.keep': '',
};

const roots: string[] = [];
function plugin(overrides: Record<string, string | null> = {}, base = BASE_V4): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-validate-'));
  roots.push(root);
  for (const [path, text] of Object.entries({ ...base, ...overrides })) {
    if (text === null) continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
test.after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const check = (overrides: Record<string, string | null> = {}, options = {}, base = BASE_V4): ValidationResult => validatePlugin(plugin(overrides, base), options);
// The 4.0.0 baseline uses version 2.0.0 tasks, so every check of it carries the 'consider package
// 5.0.0' warning (plugins-v5); it is asserted in its own test and left out of the others' lists.
const ADVICE = 'plugin/consider-package-5';
const codes = (r: ValidationResult, severity?: string) => r.findings.filter((f) => (!severity || f.severity === severity) && (f.code !== ADVICE || severity === 'info')).map((f) => f.code);
const only = (r: ValidationResult, code: string) => r.findings.filter((f) => f.code === code);

test('the baseline plugin is valid, with no warnings but the advice to use package 5.0.0', () => {
  const r = check();
  assert.deepEqual(codes(r, 'error'), []);
  assert.deepEqual(codes(r, 'warning'), []);
  assert.deepEqual(only(r, ADVICE).map((f) => f.severity), ['warning']);
  assert.equal(r.valid, true);
  assert.deepEqual(r.plugin, { name: 'demo', version: '1.0.0', package_version: '4.0.0' });
});

test('schema errors name the exact place and say what is allowed', () => {
  const r = check({ 'metadata.yaml': BASE_V4['metadata.yaml'].replace('os: ubuntu', 'os: ubuntoo') });
  const [f] = only(r, 'schema/not-allowed');
  assert.ok(f, codes(r).join());
  assert.deepEqual([f.file, f.line, f.column], ['metadata.yaml', 13, 9]);
  assert.match(f.message, /releases\[0\]\.os is 'ubuntoo'/);
  assert.match(f.hint ?? '', /did you mean 'ubuntu'/);
  const missing = check({ 'metadata.yaml': BASE_V4['metadata.yaml'].replace('is_hotpluggable: false\n', '') });
  assert.match(only(missing, 'schema/required')[0]?.message ?? '', /'is_hotpluggable'/);
  const typed = check({ 'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'].replace('timeout: 3600', "timeout: 'long'") });
  assert.equal(only(typed, 'schema/wrong-type')[0]?.line, 19);
});

test('package_version: missing, unknown and unquoted', () => {
  assert.deepEqual(codes(check({ 'metadata.yaml': BASE_V4['metadata.yaml'].replace("package_version: '4.0.0'\n", '') }), 'error'), ['metadata/missing-package-version']);
  assert.deepEqual(codes(check({ 'metadata.yaml': BASE_V4['metadata.yaml'].replace("'4.0.0'", "'4.1.0'") }), 'error'), ['metadata/unknown-package-version']);
});

test('fuel_version entries older than the package format, or not versions at all', () => {
  const r = check({ 'metadata.yaml': BASE_V4['metadata.yaml'].replace("['9.0']", "['7.0', '9.0-rc1', '8.0', '10.0.1']") });
  assert.deepEqual(codes(r, 'error'), ['metadata/fuel-version-too-old', 'metadata/bad-fuel-version']);
  assert.match(only(r, 'metadata/fuel-version-too-old')[0].message, /Fuel 8\.0 or newer/);
});

test('the file matrix: required files, empty files, files a version does not read', () => {
  assert.deepEqual(codes(check({ 'deployment_tasks.yaml': null }), 'error'), ['plugin/missing-file']);
  assert.deepEqual(codes(check({ 'environment_config.yaml': null }), 'error'), ['plugin/missing-file']);
  assert.deepEqual(codes(check({ 'environment_config.yaml': '' }), 'error'), [], 'an empty environment_config is fine');
  assert.deepEqual(codes(check({ 'node_roles.yaml': '# nothing\n' }), 'error'), ['file/empty']);
  assert.deepEqual(codes(check({ 'tasks.yaml': '# nothing\n' }), 'error'), [], '4.0.0 allows an empty tasks.yaml');
  const v3 = check({ 'metadata.yaml': BASE_V4['metadata.yaml'].replace("'4.0.0'", "'3.0.0'").replace("['9.0']", "['7.0']").replace('is_hotpluggable: false\n', ''), 'tasks.yaml': '', 'deployment_tasks.yaml': '- {id: x, type: stage}\n' });
  assert.ok(codes(v3, 'error').includes('file/empty'), codes(v3).join());
  assert.ok(codes(v3, 'warning').includes('plugin/file-ignored'), 'components.yaml is not read by 3.0.0');
});

test('roles: bad /regex/, bad names, unknown roles, tasks without roles', () => {
  const tasks = `- id: a
  type: shell
  version: 2.0.0
  roles: ['/[0-9]++/']
  parameters: {cmd: x}
- id: b
  type: shell
  version: 2.0.0
  roles: ['demo role']
  parameters: {cmd: x}
- id: c
  type: shell
  version: 2.0.0
  roles: [compute, controler]
  parameters: {cmd: x}
- id: d
  type: shell
  version: 2.0.0
  roles: []
  parameters: {cmd: x}
- {id: e, type: stage}
`;
  const r = check({ 'deployment_tasks.yaml': tasks });
  assert.deepEqual(codes(r, 'error'), ['task/bad-role-regex', 'task/bad-role-name']);
  const unknown = only(r, 'task/unknown-role');
  assert.equal(unknown.length, 1);
  assert.match(unknown[0].message, /'controler'/);
  assert.deepEqual(only(r, 'task/no-roles').map((f) => f.line), [16]);
  const release = { roles_metadata: { controller: { name: 'C' }, controler: { name: 'typo but real' } }, graphs: {}, volumes_metadata: { volumes: [], volumes_roles_mapping: {} }, name: 'R' } as unknown as Release;
  assert.equal(only(check({ 'deployment_tasks.yaml': tasks }, { release }), 'task/unknown-role').length, 1, 'compute is not in this release');
});

test('dependencies: unknown tasks (with a release), and cycles named in full', () => {
  const release = { roles_metadata: { controller: { name: 'C' } }, graphs: { default: { tasks: [{ id: 'deploy_end' }, { id: 'hiera' }] } }, volumes_metadata: { volumes: [{ id: 'os' }], volumes_roles_mapping: {} }, name: 'R' } as unknown as Release;
  const base = check({}, { release });
  assert.deepEqual(codes(base, 'warning'), ['task/unknown-dependency'], 'requires: [controller] names a group the release lacks');
  const typo = check({ 'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'].replace('requires: [demo-prepare]', 'requires: [demo-prepair]') }, { release });
  assert.ok(only(typo, 'task/unknown-dependency').some((f) => f.message.includes("'demo-prepair'")));
  assert.deepEqual(codes(check(), 'info').filter((c) => c.startsWith('task/')), ['task/dependencies-unchecked'], 'without a release, only a note');
  const cyclic = check({
    'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'].replace("  parameters:\n    cmd: echo hi", '  requires: [demo-deploy]\n  parameters:\n    cmd: echo hi'),
  });
  const [cycle] = only(cyclic, 'task/dependency-cycle');
  assert.ok(cycle, codes(cyclic).join());
  assert.match(cycle.message, /demo-deploy → demo-prepare → demo-deploy/);
  assert.equal(cyclic.valid, false);
  // Each link of the circle at the line that writes it, with the one circle named (issue 28).
  const links = only(cyclic, 'task/dependency-cycle').filter((f) => f.message.includes('a link of the circle demo-deploy → demo-prepare → demo-deploy'));
  assert.deepEqual(links.map((f) => `${f.line} ${f.message.split(',')[0]}`).sort(), ["13 task 'demo-deploy' requires 'demo-prepare'", "24 task 'demo-prepare' requires 'demo-deploy'"]);
});

test('misspelt keys get a "did you mean"', () => {
  const r = check({
    'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'].replace('required_for: [deploy_end]', 'required_form: [deploy_end]').replace('cross-depends:', 'cross_depends:'),
    'node_roles.yaml': BASE_V4['node_roles.yaml'] + '  concflicts: [compute]\n',
  });
  const hints = only(r, 'key/misspelt').map((f) => f.hint);
  assert.deepEqual(hints.sort(), ["rename 'concflicts' to 'conflicts'", "rename 'cross_depends' to 'cross-depends'", "rename 'required_form' to 'required_for'"]);
  assert.ok(only(r, 'key/misspelt').every((f) => f.severity === 'warning'));
});

test('volumes: unknown roles, roles without a mapping, unknown generators and allocate sizes', () => {
  const r = check({
    'volumes.yaml': BASE_V4['volumes.yaml'].replace('  demo-role:\n', '  demo_role:\n').replace('calc_total_vg', 'calc_everything'),
  });
  assert.deepEqual(codes(r, 'warning').sort(), ['volumes/role-without-mapping', 'volumes/unknown-generator', 'volumes/unknown-role']);
  const bad = check({ 'volumes.yaml': BASE_V4['volumes.yaml'].replace('allocate_size: all', 'allocate_size: max') });
  assert.deepEqual(codes(bad, 'error'), ['schema/not-allowed']);
  const missingVolume = check({ 'volumes.yaml': BASE_V4['volumes.yaml'].replace('id: demo_volume}', 'id: demo_volum}') });
  assert.deepEqual(codes(missingVolume, 'warning'), ['volumes/unknown-volume']);
});

test("volume sizes against the release: a minimum no smallest disk holds, a role needing more than a whole disk, with file:line:col (issue 26)", () => {
  const big = check({ 'volumes.yaml': BASE_V4['volumes.yaml'].replace('min_size: {generator: calc_min_os_size}', 'min_size: {generator: calc_gb_to_mb, generator_args: [256]}') });
  const tooLarge = only(big, 'volumes/minimum-too-large');
  assert.equal(tooLarge.length, 1);
  assert.match(tooLarge[0].message, /volume 'demo_volume' needs at least 262144 MB, more than a disk of Fuel's smallest supported size \(51200 MB\)/);
  assert.deepEqual([tooLarge[0].file, tooLarge[0].line, tooLarge[0].column], ['volumes.yaml', 8, 15], 'at the min_size value');
  const role = only(big, 'volumes/role-needs-more-than-a-disk');
  assert.deepEqual(role.map((f) => [f.line, f.column]), [[2, 3]]);
  assert.match(role[0].message, /role 'demo-role' needs 277504 MB/);
  // Together they fit a 50 GiB disk (os 15 GiB at the least, demo the same); a release with 20 GiB disks does not hold both.
  assert.deepEqual([...only(check(), 'volumes/minimum-too-large'), ...only(check(), 'volumes/role-needs-more-than-a-disk')], []);
  const small = { name: 'R', roles_metadata: {}, graphs: {}, volumes_metadata: { min_disk_size: 20480, volumes: [{ id: 'os', min_size: { generator: 'calc_min_os_size' } }], volumes_roles_mapping: {} } } as unknown as Release;
  assert.deepEqual(only(check({}, { release: small }), 'volumes/role-needs-more-than-a-disk').map((f) => f.message), [
    "role 'demo-role' needs 30720 MB for its volumes' minimums together, more than a whole disk of release R's smallest supported size gives (19916 MB of 20480 MB)",
  ]);
});

test('restriction expressions that do not parse are errors at their line', () => {
  const r = check({ 'environment_config.yaml': BASE_V4['environment_config.yaml'].replace("== 'y'\"", "== 'y' and\"") });
  const [f] = only(r, 'expression/does-not-parse');
  assert.ok(f, codes(r).join());
  assert.equal(f.line, 10);
  const limits = check({ 'node_roles.yaml': BASE_V4['node_roles.yaml'] + "  restrictions:\n    - \"settings:a.b.value == (\": 'no'\n" });
  assert.equal(only(limits, 'expression/does-not-parse').length, 1);
});

test('components: rule entries with unknown keys, ML2 drivers without the ML2 core', () => {
  const r = check({
    'components.yaml': `- name: network:neutron:ml2:demo
  label: Demo driver
  compatible:
    - name: hypervisor:qemu
      descripton: works
  requires: []
`,
  });
  assert.deepEqual(codes(r, 'warning').sort(), ['component/ml2-without-core', 'component/unknown-rule-key']);
  const good = check({ 'components.yaml': "- name: network:neutron:ml2:demo\n  label: Demo\n  requires:\n    - name: 'network:neutron:core:ml2'\n" });
  assert.deepEqual(codes(good, 'warning'), []);
});

test('4.0.0: cross-depends and per-task strategy need version 2.0.0; groups with 2.0.0 and "consider package 5.0.0" are warnings', () => {
  const tasks = BASE_V4['deployment_tasks.yaml'].replace('  version: 2.0.0\n  roles: [demo-role]', '  groups: [demo-role]');
  const r = check({ 'deployment_tasks.yaml': tasks + '- id: z\n  type: puppet\n  role: [demo-role]\n  parameters: {puppet_manifest: a, puppet_modules: b, timeout: 1, strategy: {type: one_by_one}}\n- id: y\n  type: shell\n  version: 2.0.0\n  groups: [demo-role]\n  parameters: {cmd: x}\n' });
  assert.deepEqual(codes(r, 'error').sort(), ['task/cross-depends-needs-version-2', 'task/strategy-needs-version-2']);
  assert.ok(codes(r, 'warning').includes('task/groups-with-version-2'));
  assert.deepEqual(only(r, ADVICE).map((f) => f.severity), ['warning']);
});

const V5_METADATA = BASE_V4['metadata.yaml'].replace("'4.0.0'", "'5.0.0'");
test('5.0.0: every task needs version 2.0.0, no group tasks, tasks.yaml must be empty', () => {
  const r = check({ 'metadata.yaml': V5_METADATA, 'tasks.yaml': '- role: [controller]\n  stage: post_deployment\n  type: shell\n  parameters: {cmd: x, timeout: 1}\n' });
  assert.deepEqual(codes(r, 'error').sort(), ['plugin/tasks-yaml-not-empty', 'task/group-in-deployment-tasks', 'task/needs-version-2']);
  const tasks = BASE_V4['deployment_tasks.yaml'].split('- id: demo-deploy')[1];
  const ok = check({ 'metadata.yaml': V5_METADATA, 'deployment_tasks.yaml': '- id: demo-deploy' + tasks });
  assert.deepEqual(codes(ok, 'error'), []);
  assert.ok(codes(ok, 'info').includes('tasks/version-2'));
});

const RELEASE_PLUGIN: Record<string, string> = {
  'metadata.yaml': `name: my-release
title: R
version: '1.0.0'
package_version: '5.0.0'
description: d
licenses: [x]
authors: [y]
homepage: h
groups: []
releases:
  - release_name: my-release
    is_release: true
    description: A release
    operating_system: ubuntu
    version: newton-10.0
    roles_path: meta/roles.yaml
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
    graphs:
      - type: default
        tasks_path: graphs/default.yaml
`,
  'meta/roles.yaml': 'controller:\n  name: Controller\n  description: c\n',
  'graphs/default.yaml': '- {id: start, type: stage}\n- id: work\n  type: puppet\n  version: 2.1.0\n  roles: [controller]\n  requires: [start]\n  parameters: {puppet_manifest: a, puppet_modules: b, timeout: 1}\n',
  'environment_config.yaml': '',
  'deployment_tasks.yaml': '[]\n',
  'deployment_scripts/.keep': '',
  'repositories/ubuntu/.keep': '',
};

test('release plugins: a clean one, then every release warning and error', () => {
  const clean = check({}, {}, RELEASE_PLUGIN);
  assert.deepEqual(codes(clean, 'error'), []);
  assert.deepEqual(codes(clean, 'warning'), []);
  const noisy = check(
    {
      'metadata.yaml': RELEASE_PLUGIN['metadata.yaml']
        .replace('groups: []\n', 'groups: []\nis_hotpluggable: false\n')
        .replace('  - release_name: my-release\n', '  - release_name: other\n    modes: [ha_compact]\n')
        .concat('  - name: second\n    is_release: true\n    version: v-1.0\n    deployment_scripts_path: deployment_scripts/\n    repository_path: repositories/ubuntu\n'),
      'graphs/default.yaml': RELEASE_PLUGIN['graphs/default.yaml'].replace('requires: [start]', 'requires: [strat]'),
    },
    {},
    RELEASE_PLUGIN,
  );
  assert.deepEqual(codes(noisy, 'error').sort(), ['release/missing-description', 'release/missing-operating-system', 'release/missing-release-name']);
  for (const code of ['release/more-than-one', 'release/name-differs', 'release/hotpluggable-ignored', 'release/modes-deprecated', 'task/unknown-dependency']) assert.ok(codes(noisy).includes(code), code);
  const mixed = check(
    { 'metadata.yaml': RELEASE_PLUGIN['metadata.yaml'].concat('  - os: ubuntu\n    version: mitaka-9.0\n    mode: [ha]\n    deployment_scripts_path: deployment_scripts/\n    repository_path: repositories/ubuntu\n') },
    {},
    RELEASE_PLUGIN,
  );
  assert.ok(codes(mixed, 'error').includes('plugin/mixes-releases-and-extensions'), codes(mixed).join());
});

test('fuel_version: required of a 5.0.0 plugin that extends releases, deprecated for one that defines them', () => {
  const withoutV5 = check({ 'metadata.yaml': V5_METADATA.replace("fuel_version: ['9.0']\n", '') });
  assert.deepEqual(
    withoutV5.findings.filter((f) => f.code.startsWith('schema/')).map((f) => `${f.code} ${f.file}:${f.line}`),
    ['schema/required metadata.yaml:1'],
  );
  assert.match(only(withoutV5, 'schema/required')[0].message, /fuel_version/);
  // Older formats keep requiring it too, as Fuel Plugin Builder did.
  assert.ok(codes(check({ 'metadata.yaml': BASE_V4['metadata.yaml'].replace("fuel_version: ['9.0']\n", '') }), 'error').includes('schema/required'));
  const withFuelVersion = check({ 'metadata.yaml': RELEASE_PLUGIN['metadata.yaml'].replace('description: d\n', "description: d\nfuel_version: ['10.0']\n") }, {}, RELEASE_PLUGIN);
  assert.deepEqual(codes(withFuelVersion, 'error'), []);
  const deprecated = only(withFuelVersion, 'release/fuel-version-deprecated');
  assert.equal(deprecated.length, 1);
  assert.equal(deprecated[0].severity, 'warning');
  assert.deepEqual([deprecated[0].file, deprecated[0].line, deprecated[0].column], ['metadata.yaml', 6, 1]);
  // Still checked when present: a bad entry is an error, deprecated or not.
  const bad = check({ 'metadata.yaml': RELEASE_PLUGIN['metadata.yaml'].replace('description: d\n', "description: d\nfuel_version: ['ten']\n") }, {}, RELEASE_PLUGIN);
  assert.ok(codes(bad, 'error').includes('metadata/bad-fuel-version'), codes(bad).join());
});

test('every finding has a code, a severity, a place and a hint or message', () => {
  const r = check({ 'metadata.yaml': 'name: [broken\n' });
  assert.equal(r.valid, false);
  for (const f of r.findings) {
    assert.match(f.code, /^[a-z0-9-]+\/[a-z0-9-]+$/);
    assert.ok(f.file && f.line && f.column);
  }
});

test('multi-release records: constraints parse, fit a declared release; unconstrained repeats are named', () => {
  const extra = `- id: demo-deploy
  type: puppet
  version: 2.0.0
  os-version: ">=liberty-8.0"
  fuel-version: ">=9"
  roles: [demo-role]
  parameters: {puppet_manifest: ten.pp, puppet_modules: ., timeout: 1}
- id: old-only
  type: puppet
  version: 2.0.0
  fuel-version: ">=7,<=8"
  roles: [demo-role]
  parameters: {puppet_manifest: old.pp, puppet_modules: ., timeout: 1}
- id: broken
  type: puppet
  version: 2.0.0
  fuel-version: ">=nine"
  roles: [demo-role]
  parameters: {puppet_manifest: x.pp, puppet_modules: ., timeout: 1}
- id: demo-prepare
  type: shell
  version: 2.0.0
  roles: [demo-role]
  parameters: {cmd: again}
`;
  const r = check({ 'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'] + extra });
  assert.deepEqual(codes(r, 'error'), ['version/bad-constraint']);
  assert.deepEqual(codes(r, 'warning').sort(), ['task/duplicate-id', 'version/fits-no-release']);
  assert.match(only(r, 'version/fits-no-release')[0].message, /old-only/);
});

test('a dependency circle through the release\'s own tasks is found and named', () => {
  const release = {
    name: 'R',
    roles_metadata: { controller: { name: 'C' } },
    graphs: { default: { tasks: [{ id: 'deploy_end', requires: [], requiredFor: [] }, { id: 'hiera', requires: ['demo-deploy'], requiredFor: [] }, { id: 'controller', requires: [], requiredFor: [] }] } },
    volumes_metadata: { volumes: [{ id: 'os' }], volumes_roles_mapping: {} },
  } as unknown as Release;
  const r = check({ 'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'].replace("  roles: ['/(primary-)?controller/']", "  roles: ['/(primary-)?controller/']\n  requires: [hiera]") }, { release });
  const [cycle] = only(r, 'task/dependency-cycle').filter((f) => f.message.includes('tasks wait for each other in a circle'));
  assert.ok(cycle, codes(r).join());
  assert.match(cycle.message, /demo-deploy → hiera → demo-prepare → demo-deploy \(plugin tasks: demo-deploy, demo-prepare\)/);
});

test('components: binds to settings that do not exist; rules naming components that exist nowhere (with a release)', () => {
  const components = `- name: additional_service:demo
  label: Demo
  bind: ['settings:demo.demo_text.value', ['settings:demo.nope.value', true]]
  compatible:
    - name: hypervisor:kvm
    - name: 'network:neutron:*'
    - name: hypervisor:qemu
`;
  const r = check({ 'components.yaml': components });
  assert.deepEqual(only(r, 'component/unknown-bind-key').map((f) => f.line), [3]);
  assert.match(only(r, 'component/unknown-bind-key')[0].message, /settings:demo\.nope\.value/);
  assert.deepEqual(only(r, 'component/unknown-component'), [], 'without a release, core components are unknown: no finding');
  const release = { name: 'R', roles_metadata: {}, graphs: {}, components: [{ name: 'hypervisor:qemu' }], volumes_metadata: { volumes: [], volumes_roles_mapping: {} }, attributes_metadata: {} } as unknown as Release;
  const withRelease = check({ 'components.yaml': components }, { release });
  assert.deepEqual(only(withRelease, 'component/unknown-component').map((f) => f.line), [5]);
});

test('role patterns are judged as Python compiled them', async () => {
  const { fromPythonRegex } = await import('./tasks.js');
  for (const pattern of ['(?i)controller', '(?P<kind>primary-)?controller', '\\Acontroller\\Z', '(?P<a>x)(?P=a)']) {
    const { source, flags } = fromPythonRegex(pattern);
    assert.doesNotThrow(() => new RegExp(source, flags), pattern);
  }
  assert.ok(new RegExp(fromPythonRegex('(?i)^CONTROLLER$').source, fromPythonRegex('(?i)^CONTROLLER$').flags).test('controller'));
  const r = check({ 'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'].replace("'/(primary-)?controller/'", "'/(?P<p>primary-)?controller/'") });
  assert.deepEqual(codes(r, 'error'), []);
});

test('settings values: any mapping is accepted (as the reference did), a number is not', () => {
  const withMap = check({ 'environment_config.yaml': BASE_V4['environment_config.yaml'].replace("value: 'x'", 'value: {list: [1, 2]}') });
  assert.deepEqual(codes(withMap, 'error'), []);
  const withNumber = check({ 'environment_config.yaml': BASE_V4['environment_config.yaml'].replace("value: 'x'", 'value: 5') });
  assert.deepEqual(codes(withNumber, 'error'), ['schema/wrong-shape']);
});

test('roles: conflicts with roles that exist nowhere; with a release, /regex/ roles that match no role', () => {
  const r = check({ 'node_roles.yaml': BASE_V4['node_roles.yaml'] + '  conflicts: [compute, cinder-volume]\n' });
  assert.deepEqual(only(r, 'role/unknown-conflict').map((f) => f.message.includes("'cinder-volume'")), [true]);
  const release = { name: 'R', roles_metadata: { controller: { name: 'C' } }, tags_metadata: {}, graphs: {}, volumes_metadata: { volumes: [{ id: 'os' }], volumes_roles_mapping: {} } } as unknown as Release;
  const ok = check({}, { release });
  assert.deepEqual(only(ok, 'task/role-regex-matches-nothing'), []);
  const none = check({ 'deployment_tasks.yaml': BASE_V4['deployment_tasks.yaml'].replace("'/(primary-)?controller/'", "'/^ceph-.*/'") }, { release });
  assert.equal(only(none, 'task/role-regex-matches-nothing').length, 1);
});

test('5.0.0 extension records: per-release files (a <file>_path key, or a conf_path folder) get their file\'s schema', () => {
  const metadata = V5_METADATA.replace('    repository_path: repositories/ubuntu\n', '    repository_path: repositories/ubuntu\n    node_roles_path: liberty/node_roles.yaml\n    conf_path: liberty/\n');
  const tasks = '- id: demo-deploy' + BASE_V4['deployment_tasks.yaml'].split('- id: demo-deploy')[1];
  const r = check({
    'metadata.yaml': metadata,
    'deployment_tasks.yaml': tasks,
    'liberty/node_roles.yaml': 'demo-role:\n  name: Demo\n',
    'liberty/volumes.yaml': 'volumes_roles_mapping:\n  demo-role:\n    - {allocate_size: max, id: os}\nvolumes: []\n',
  });
  const errors = r.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.file}:${f.line}`);
  assert.deepEqual(errors.sort(), ['schema/not-allowed liberty/volumes.yaml:3', 'schema/required liberty/node_roles.yaml:2']);
});

test('the bundled default release (release/) validates with no errors and no warnings', () => {
  const r = validatePlugin(join(packageRoot(), 'release'));
  assert.deepEqual(r.findings.filter((f) => f.severity !== 'info').map((f) => `${f.code} ${f.file}:${f.line} ${f.message}`), []);
  assert.equal(r.valid, true);
  assert.equal(r.plugin?.name, 'hearth-openstack');
});
