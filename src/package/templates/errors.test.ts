/** The error paths of find, capabilities and resolve, on small trees written to a temp folder. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findTemplates, resolveEnvironments, summariseTemplateFiles } from './index.js';

/** The trees made, removed when the tests end (runs left them in /tmp). */
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-templates-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const hot = (caps: string, resources = '') => `heat_template_version: rocky\ncapabilities:\n${caps}\nresources:\n${resources || '  r: {type: OS::Heat::None}'}\n`;
const codes = (findings: { code: string }[]) => findings.map((f) => f.code);

const controllers = {
  'puppet/controller.yaml': hot('  deployment: puppet\n  resource_type: OS::TripleO::Controller'),
  'docker/controller.yaml': hot('  deployment: docker\n  resource_type: [OS::TripleO::Controller, OS::TripleO::Compute]'),
  'bare/controller.yaml': hot('  resource_type: OS::TripleO::Controller'),
};

test("the design's own example resolves: requires deployment: puppet picks the puppet controller", () => {
  const root = tree({ ...controllers, 'env.yaml': 'requires: {deployment: puppet}\nresource_registry:\n  OS::TripleO::Controller: [puppet/controller.yaml, docker/controller.yaml]\n' });
  const result = resolveEnvironments([join(root, 'env.yaml')], { root });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.resolved, { 'OS::TripleO::Controller': 'puppet/controller.yaml' });
});

test('zero fits: every candidate is listed with the key that failed', () => {
  const root = tree({
    ...controllers,
    'env.yaml': 'requires: {deployment: ansible, resource_type: OS::TripleO::Controller}\nresource_registry:\n  OS::TripleO::Controller: [puppet/controller.yaml, bare/controller.yaml, OS::Heat::None]\n',
  });
  const result = resolveEnvironments([join(root, 'env.yaml')], { root });
  assert.equal(result.errors.length, 1);
  const [error] = result.errors;
  assert.equal(error.kind, 'zero');
  assert.deepEqual(error.candidates, ['puppet/controller.yaml', 'bare/controller.yaml', 'OS::Heat::None']);
  assert.deepEqual(error.matching, []);
  assert.match(error.message, /puppet\/controller\.yaml: has deployment 'puppet', not 'ansible'/);
  assert.match(error.message, /bare\/controller\.yaml: has no 'deployment' capability/);
  assert.match(error.message, /OS::Heat::None: a type, not a template/);
  assert.ok(codes(result.findings).includes('resolve/no-fit'));
  assert.equal(result.findings.find((f) => f.code === 'resolve/no-fit')?.line, 3);
});

test('several fits: ambiguous, and each fitting candidate says it also fits; list values match by membership', () => {
  const root = tree({ ...controllers, 'env.yaml': 'requires: {resource_type: OS::TripleO::Controller}\nresource_registry:\n  OS::TripleO::Controller: [docker/controller.yaml, bare/controller.yaml]\n' });
  const [error] = resolveEnvironments([join(root, 'env.yaml')], { root }).errors;
  assert.equal(error.kind, 'ambiguous');
  assert.deepEqual(error.matching, ['docker/controller.yaml', 'bare/controller.yaml']);
  assert.match(error.message, /docker\/controller\.yaml: fits/);
});

test('numbers and booleans compare as text; a capability list must contain the value', () => {
  const root = tree({
    'a.yaml': hot('  version: 6\n  ha: yes\n  zones: [1, 2]'),
    'b.yaml': hot('  version: "7"\n  ha: false\n  zones: [3]'),
    'env.yaml': 'requires: {version: "6", ha: true, zones: 2}\nresource_registry:\n  OS::X: [a.yaml, b.yaml]\n',
  });
  const result = resolveEnvironments([join(root, 'env.yaml')], { root });
  assert.deepEqual(result.resolved, { 'OS::X': 'a.yaml' });
  assert.deepEqual(findTemplates([root], { zones: '3' }).templates, [join(root, 'b.yaml')]);
});

test('a single value keeps its meaning whatever requires says; no requires needs a one-item list', () => {
  const root = tree({ ...controllers, 'env.yaml': 'requires: {deployment: none}\nresource_registry:\n  OS::A: puppet/controller.yaml\n  OS::B: OS::Heat::None\n  OS::C: [bare/controller.yaml]\n' });
  const result = resolveEnvironments([join(root, 'env.yaml')], { root });
  assert.deepEqual(result.resolved, { 'OS::A': 'puppet/controller.yaml', 'OS::B': 'OS::Heat::None' });
  assert.equal(result.errors[0].type, 'OS::C');
  const loose = tree({ ...controllers, 'env.yaml': 'resource_registry:\n  OS::C: [bare/controller.yaml]\n  OS::D: [bare/controller.yaml, OS::Heat::None]\n' });
  const second = resolveEnvironments([join(loose, 'env.yaml')], { root: loose });
  assert.deepEqual(second.resolved, { 'OS::C': 'bare/controller.yaml' });
  assert.equal(second.errors[0].kind, 'ambiguous');
});

test('later environments win key by key; null deletes, a trailing * deletes by prefix', () => {
  const root = tree({
    ...controllers,
    'one.yaml': 'requires: {deployment: puppet}\nresource_registry:\n  OS::A: [puppet/controller.yaml, docker/controller.yaml]\n  OS::B: x.yaml\n  OS::Net::One: OS::Heat::None\n  OS::Net::Two: OS::Heat::None\n',
    'two.yaml': 'requires: {deployment: docker}\nresource_registry:\n  OS::B: null\n  OS::Net::*: null\n',
  });
  const result = resolveEnvironments([join(root, 'one.yaml'), join(root, 'two.yaml')], { root });
  assert.deepEqual(result.resolved, { 'OS::A': 'docker/controller.yaml' });
});

test('alias loops are reported, never a stack overflow', () => {
  const root = tree({
    'env.yaml': [
      'resource_registry:',
      '  OS::A: OS::B',
      '  OS::B: OS::C',
      '  OS::C: OS::A',
      '  "One::*": "Two::*"',
      '  "Two::*": "One::*"',
      '  "Grow::*": "Grow::More::*"',
      '  "OS::Networking::*": "OS::Neutron::*"',
      '  OS::Fine: OS::Heat::None',
      '',
    ].join('\n'),
  });
  const result = resolveEnvironments([join(root, 'env.yaml')], { root });
  const loops = result.findings.filter((f) => f.code === 'environment/alias-loop');
  assert.equal(loops.length, 3, loops.map((f) => f.message).join('\n'));
  assert.match(loops[0].message, /OS::A → OS::B → OS::C → OS::A/);
  assert.ok(loops.some((f) => /One::\* → Two::\* → One::\*/.test(f.message)));
  assert.ok(loops.some((f) => /never end/.test(f.message)));
  assert.deepEqual(result.errors, []);
});

test('template loops through type: paths and through the registry are reported; a facade is not a loop', () => {
  const root = tree({
    'a.yaml': hot('  name: a', '  b: {type: sub/b.yaml}'),
    'sub/b.yaml': hot('  name: b', '  back: {type: OS::Back}'),
    'c.yaml': hot('  name: c', '  d: {type: a.yaml}'),
    'nova.yaml': hot('  name: nova', '  server: {type: OS::Nova::Server}'),
    'env.yaml': 'resource_registry:\n  OS::A: a.yaml\n  OS::Back: c.yaml\n  OS::Nova::Server: nova.yaml\n',
  });
  const result = resolveEnvironments([join(root, 'env.yaml')], { root });
  const loops = result.findings.filter((f) => f.code === 'template/loop');
  assert.equal(loops.length, 1, result.findings.map((f) => `${f.code} ${f.message}`).join('\n'));
  assert.match(loops[0].message, /a\.yaml → \(sub\/b\.yaml\) sub\/b\.yaml → \(OS::Back\) c\.yaml → \(a\.yaml\) a\.yaml/);
});

test('missing and unparseable files: environments, candidates and nested templates', () => {
  const root = tree({
    'broken.yaml': "heat_template_version: rocky\ncapabilities: {name: 'x\n",
    'notemplate.yaml': 'just: data\n',
    'ok.yaml': hot('  name: ok', '  n: {type: gone.yaml}'),
    'env.yaml': 'requires: {name: ok}\nresource_registry:\n  OS::X: [missing.yaml, broken.yaml, notemplate.yaml, ok.yaml]\n',
    'bad-env.yaml': 'resource_registry: [\n',
  });
  const result = resolveEnvironments([join(root, 'env.yaml'), join(root, 'nowhere.yaml'), join(root, 'bad-env.yaml')], { root });
  assert.deepEqual(result.resolved, { 'OS::X': 'ok.yaml' });
  const found = codes(result.findings);
  assert.ok(found.includes('file/missing'));
  assert.ok(found.includes('yaml/syntax'));
  assert.equal(found.filter((c) => c === 'template/unreadable-candidate').length, 3);
  assert.ok(result.findings.some((f) => f.code === 'template/unreadable-candidate' && /no such file/.test(f.message)));
  assert.ok(result.findings.some((f) => f.code === 'template/unreadable-candidate' && /not a HOT template/.test(f.message)));
  assert.ok(result.findings.some((f) => f.code === 'template/missing-nested' && /gone\.yaml/.test(f.message)));
});

test("bad sections and values are Heat's own errors", () => {
  const root = tree({
    'env.yaml': [
      'parameter_defaults:',
      '  # only a comment: an empty section',
      'resource_registery: {}',
      'requires:',
      '  list: [a, b]',
      'resource_registry:',
      '  OS::Map: {a: 1}',
      '  OS::Tasks::*PreConfig: OS::Heat::None',
      '  ParamTemplate: templates/net.j2',
      '  resources:',
      '    server:',
      '      hooks: [pre-create, pre-lunch]',
      '',
    ].join('\n'),
    'list.yaml': '- a\n',
  });
  const result = resolveEnvironments([join(root, 'env.yaml'), join(root, 'list.yaml')], { root });
  const byCode = new Map(result.findings.map((f) => [f.code, f]));
  assert.equal(byCode.get('environment/empty-section')?.message, 'environment has empty section "parameter_defaults"');
  assert.equal(byCode.get('environment/unknown-section')?.message, 'environment has wrong section "resource_registery"');
  assert.equal(byCode.get('environment/unknown-section')?.line, 3);
  assert.ok(byCode.has('environment/bad-requires'));
  assert.ok(byCode.has('environment/bad-registry-value'));
  assert.equal(byCode.get('environment/literal-star')?.severity, 'warning');
  assert.equal(byCode.get('environment/not-a-template')?.severity, 'warning');
  assert.match(byCode.get('environment/bad-hook')?.message ?? '', /Invalid hook type "pre-lunch"/);
  assert.equal(byCode.get('environment/not-a-mapping')?.message, 'The environment is not a valid YAML mapping data type.');
  assert.deepEqual(result.resolved, { 'OS::Tasks::*PreConfig': 'OS::Heat::None', ParamTemplate: 'templates/net.j2' });
});

test('per-resource overrides resolve lists too; absolute TripleO paths are read under --root', () => {
  const root = tree({
    ...controllers,
    'envs/env.yaml': [
      'requires: {deployment: docker}',
      'resource_registry:',
      '  OS::TripleO::Controller: /usr/share/openstack-tripleo-heat-templates/puppet/controller.yaml',
      '  resources:',
      '    ctl0:',
      '      OS::TripleO::Controller: [../puppet/controller.yaml, ../docker/controller.yaml]',
      '',
    ].join('\n'),
  });
  const result = resolveEnvironments([join(root, 'envs/env.yaml')], { root });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.resolved, { 'OS::TripleO::Controller': 'puppet/controller.yaml' });
  assert.deepEqual(result.resources, { ctl0: { 'OS::TripleO::Controller': 'docker/controller.yaml' } });
});

test('find: strict keys, non-recursive, hidden folders, Jinja and unparseable files', () => {
  const root = tree({
    ...controllers,
    'top.yaml': hot('  deployment: puppet'),
    '.hidden/controller.yaml': hot('  deployment: puppet'),
    'roles.j2.yaml': hot('  deployment: puppet'),
    'broken.yaml': "heat_template_version: rocky\ncapabilities: {deployment: 'puppet\n",
    'env.yaml': 'resource_registry: {capabilities: x.yaml}\n',
    'nocaps.yaml': 'heat_template_version: rocky\nresources: {}\n',
  });
  assert.deepEqual(findTemplates([root], { deployment: 'puppet' }, { recursive: true }).templates, [join(root, 'puppet/controller.yaml'), join(root, 'top.yaml')]);
  const flat = findTemplates([root], { deployment: 'puppet' });
  assert.deepEqual(flat.templates, [join(root, 'top.yaml')]);
  assert.deepEqual(codes(flat.findings).sort(), ['template/jinja-skipped', 'template/unparseable']);
  assert.deepEqual(findTemplates([root], {}, { recursive: true }).templates.length, 4);
  assert.deepEqual(findTemplates([join(root, 'nowhere')], {}).findings[0].code, 'file/missing');
});

test('capabilities summary: first-seen order, no repeats, files without capabilities add nothing', () => {
  const root = tree({ ...controllers, 'nocaps.yaml': 'heat_template_version: rocky\n', 'bad.yaml': hot('  - a list') });
  const files = ['puppet/controller.yaml', 'docker/controller.yaml', 'bare/controller.yaml', 'nocaps.yaml', 'bad.yaml'].map((f) => join(root, f));
  const summary = summariseTemplateFiles(files);
  assert.deepEqual(summary.tags, { deployment: ['puppet', 'docker'] });
  assert.deepEqual(summary.types, { 'OS::TripleO::Controller': files.slice(0, 3), 'OS::TripleO::Compute': [files[1]] });
  assert.ok(codes(summary.findings).includes('template/bad-capabilities'));
  assert.ok(codes(summary.findings).includes('template/no-capabilities'));
});

test('duplicate mapping keys in templates and environments are findings, once per file, and the last value wins', () => {
  const root = tree({
    'dup.yaml': 'heat_template_version: rocky\ncapabilities:\n  name: first\n  name: dup\n',
    'env.yaml': 'requires: {name: dup}\nresource_registry:\n  OS::X: [dup.yaml]\n  OS::Y: [dup.yaml]\n  OS::Y: [dup.yaml, OS::Heat::None]\n',
  });
  const result = resolveEnvironments([join(root, 'env.yaml')], { root });
  assert.deepEqual(result.resolved, { 'OS::X': 'dup.yaml', 'OS::Y': 'dup.yaml' });
  const duplicates = result.findings.filter((f) => f.code === 'yaml/duplicate-key');
  assert.deepEqual(
    duplicates.map((f) => [f.file, f.line]),
    [
      [join(root, 'env.yaml'), 5],
      ['dup.yaml', 4],
    ],
  );
  assert.equal(findTemplates([root], { name: 'dup' }).findings.filter((f) => f.code === 'yaml/duplicate-key').length, 1);
});
