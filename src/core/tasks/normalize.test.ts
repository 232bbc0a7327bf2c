import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYaml } from '../../package/yaml/index.js';
import { normalizeTasks, parseLegacyStage, unwrapRoleTasks } from './index.js';

const parse = (text: string, file = 'deployment_tasks.yaml') => parseYaml(text, file).value;

test('deployment tasks: role/roles/groups/tags, names as lists, cross dependencies, strategy and timeout', () => {
  const raw = parse(`
- id: db
  type: puppet
  version: 2.1.0
  role: controller
  groups: [primary-controller]
  requires: deploy_start
  required_for: [deploy_end]
  cross-depends:
    - name: /^(primary-)?keystone$/
      role: [controller]
      policy: any
    - name: hiera
      role: self
  cross_depended_by:
    - name: compute-task
  condition:
    yaql_exp: changed($)
  parameters:
    timeout: "120"
    strategy: {type: parallel, amount: 2}
  test_pre: {cmd: true}
- id: all
  type: shell
  roles: ['*']
`);
  const { tasks, findings } = normalizeTasks(raw, { source: 'release', file: 'deployment_tasks.yaml' }, 'deployment');
  assert.deepEqual(findings, []);
  assert.equal(tasks.length, 2);
  const [db, all] = tasks;
  assert.deepEqual(db.roles, ['controller']);
  assert.deepEqual(db.groups, ['primary-controller']);
  assert.deepEqual(db.requires, ['deploy_start']);
  assert.deepEqual(db.crossDepends, [{ name: '/^(primary-)?keystone$/', role: ['controller'], policy: 'any' }, { name: 'hiera', role: ['self'] }]);
  assert.deepEqual(db.crossDependedBy, [{ name: 'compute-task' }]);
  assert.deepEqual(db.condition, { yaql_exp: 'changed($)' });
  assert.equal(db.timeout, 120);
  assert.deepEqual(db.strategy, { type: 'parallel', amount: 2 });
  assert.equal(db.version, '2.1.0');
  assert.deepEqual(db.extra, { test_pre: { cmd: true } });
  assert.equal(db.origin.line, 2);
  assert.equal(all.roles, '*');
  assert.equal(all.version, '1.0.0');
  assert.equal(all.origin.line, 23);
});

test('legacy tasks.yaml: stage anchors and /N order, generated ids, only shell/puppet/reboot', () => {
  const raw = parse(`
- role: ['controller']
  stage: post_deployment/100
  type: shell
  parameters: {cmd: x, timeout: 42}
- role: '*'
  stage: pre_deployment/-101.5
  type: puppet
- role: [compute]
  stage: post_deployment
  type: upload_file
- role: [compute]
  stage: deploy/3
  type: shell
`, 'tasks.yaml');
  const { tasks, findings } = normalizeTasks(raw, { source: 'myplugin', file: 'tasks.yaml' }, 'legacy');
  assert.equal(tasks.length, 3);
  assert.deepEqual(tasks[0].stage, { name: 'post_deployment', order: 100 });
  assert.equal(tasks[0].id, 'myplugin-post_deployment-0');
  assert.equal(tasks[0].version, '1.0.0');
  assert.deepEqual(tasks[1].stage, { name: 'pre_deployment', order: -101.5 });
  assert.equal(tasks[1].roles, '*');
  const codes = findings.map((f) => `${f.code}@${f.line}`);
  assert.deepEqual(codes.sort(), ['task/invalid-stage@13', 'task/unknown-type@11']);
  assert.deepEqual(parseLegacyStage('post_deployment/+101.0'), { name: 'post_deployment', order: 101 });
  assert.equal(parseLegacyStage('deploy'), undefined);
});

test('misspelt keys get a did-you-mean; unknown types and strategies are findings with positions', () => {
  const raw = parse(`
- id: a
  type: puppett
  required_form: [b]
  cross-depened-by:
    - name: c
  parameters:
    strategy: {type: one-by-one}
  whatever_custom: 1
`);
  const { tasks, findings } = normalizeTasks(raw, { source: 'p', file: 'deployment_tasks.yaml' }, 'deployment');
  assert.equal(tasks.length, 1, 'the task is kept; its problems are findings');
  const byCode = (code: string) => findings.filter((f) => f.code === code);
  const misspelt = byCode('task/misspelt-key');
  assert.deepEqual(misspelt.map((f) => [f.line, f.column, f.hint]), [
    [4, 3, "did you mean 'required_for'?"],
    [5, 3, "did you mean 'cross-depended-by'?"],
  ]);
  assert.equal(byCode('task/unknown-type')[0].hint, "did you mean 'puppet'?");
  assert.equal(byCode('task/unknown-type')[0].line, 3);
  assert.equal(byCode('task/unknown-strategy')[0].hint, "did you mean 'one_by_one'?");
  assert.equal(byCode('task/unknown-key')[0].severity, 'info');
  assert.equal(tasks[0].requiredFor.length, 0, 'a misspelt key does not act');
});

test("a top-level strategy Fuel never read warns, even when it is broken (Contrail 5.1's 'one-by-one'); under parameters it is an error", () => {
  const top = normalizeTasks(parse(`
- id: a
  type: puppet
  version: 2.1.0
  groups: [compute]
  parameters: {puppet_manifest: a.pp, puppet_modules: m, timeout: 10}
  strategy:
    type: one-by-one
`), { source: 'p', file: 'deployment_tasks.yaml' }, 'deployment');
  assert.deepEqual(top.findings.filter((f) => f.severity === 'error'), []);
  assert.deepEqual(top.findings.filter((f) => /strategy/.test(f.code)).map((f) => [f.code, f.severity]).sort(), [['task/strategy-outside-parameters', 'warning'], ['task/unknown-strategy', 'warning']]);
  assert.equal(top.tasks[0].strategy, undefined, 'the task runs without one');
  const inside = normalizeTasks(parse(`
- id: a
  type: puppet
  version: 2.1.0
  groups: [compute]
  parameters: {puppet_manifest: a.pp, puppet_modules: m, timeout: 10, strategy: {type: one-by-one}}
`), { source: 'p', file: 'deployment_tasks.yaml' }, 'deployment');
  assert.equal(inside.findings.find((f) => f.code === 'task/unknown-strategy')?.severity, 'error');
});

test('bad input never throws: each problem is a positioned finding', () => {
  const cases: Array<[string, string[]]> = [
    ['{a: 1}', ['task/not-a-list']],
    ['- 3\n- [x]\n', ['task/not-a-mapping', 'task/not-a-mapping']],
    ['- type: puppet\n', ['task/missing-id']],
    ['- id: x\n', ['task/missing-type']],
    ['- id: x\n  type: shell\n  requires: {a: 1}\n', ['task/invalid-field']],
    ['- id: x\n  type: shell\n  requires: [a, {b: 1}]\n', ['task/invalid-name']],
    ['- id: x\n  type: shell\n  cross-depends: [{role: x}]\n', ['task/invalid-cross-dependency']],
    ['- id: x\n  type: shell\n  cross-depends: {yaql_exp: "$.x"}\n', ['task/dynamic-cross-dependency']],
    ['- id: x\n  type: shell\n  condition: [1]\n', ['task/invalid-condition']],
    ['- id: x\n  type: shell\n  version: two\n', ['task/invalid-version']],
    ['- id: x\n  type: shell\n  parameters: {timeout: soon}\n', ['task/invalid-timeout']],
    ['- id: x\n  type: shell\n  parameters: {strategy: {type: parallel, amount: -1}}\n', ['task/invalid-strategy']],
    ['- id: x\n  type: shell\n- id: x\n  type: puppet\n', ['task/duplicate-id']],
  ];
  for (const [text, codes] of cases) {
    const { findings } = normalizeTasks(parse(text), { source: 'p', file: 'f.yaml' }, 'deployment');
    assert.deepEqual(findings.map((f) => f.code), codes, text);
    for (const f of findings) assert.ok(f.file === 'f.yaml' || f.file === 'deployment_tasks.yaml', `${f.code} has a file`);
    for (const f of findings) assert.ok((f.line ?? 0) >= 1, `${f.code} has a line`);
  }
  for (const junk of [undefined, null, 42, 'text', [null], [[]]]) {
    assert.doesNotThrow(() => normalizeTasks(junk, { source: 'p' }, 'graph'));
    assert.doesNotThrow(() => normalizeTasks(junk, { source: 'p' }, 'legacy'));
  }
});

test('graph files: {name, metadata, tasks} or a bare list; unknown graph keys are findings', () => {
  const raw = parse('name: deletion\nmetadata: {}\ntask: []\ntasks:\n  - id: deletion_start\n    type: stage\n', 'graphs/deletion.yaml');
  const { tasks, findings } = normalizeTasks(raw, { source: 'rel', file: 'graphs/deletion.yaml' }, 'graph');
  assert.deepEqual(tasks.map((t) => t.id), ['deletion_start']);
  assert.deepEqual(findings.map((f) => [f.code, f.hint]), [['graph/unknown-key', "did you mean 'tasks'?"]]);
});

test('plugins v5: node roles with tasks become group tasks named after the role', () => {
  const raw = parse('my-role:\n  name: Mine\n  tasks: [hiera, globals]\nplain:\n  name: P\nbad:\n  tasks: hiera\n', 'node_roles.yaml');
  const { tasks, findings } = unwrapRoleTasks(raw, { source: 'plugin-x', file: 'node_roles.yaml' });
  assert.equal(tasks.length, 1);
  assert.equal(tasks[0].id, 'my-role');
  assert.equal(tasks[0].type, 'group');
  assert.deepEqual(tasks[0].roles, ['my-role']);
  assert.deepEqual(tasks[0].tasks, ['hiera', 'globals']);
  assert.equal(tasks[0].origin.line, 3);
  assert.deepEqual(findings.map((f) => [f.code, f.line]), [['role/invalid-tasks', 7]]);
});

test('os-version and fuel-version are known keys kept on the task, with no finding', () => {
  const result = normalizeTasks(
    [
      { id: 'deploy', type: 'puppet', version: '2.1.0', roles: ['controller'], 'fuel-version': '>=9', 'os-version': '>=mitaka-9.0', parameters: { puppet_manifest: 'a.pp' } },
      { id: 'legacy', type: 'puppet', version: '2.1.0', roles: ['controller'], 'fuel-version': '>=7,<=8', parameters: { puppet_manifest: 'b.pp' } },
    ],
    { source: 'p' },
    'deployment',
  );
  assert.deepEqual(result.tasks.map((t) => [t.fuelVersion, t.osVersion, t.extra]), [['>=9', '>=mitaka-9.0', undefined], ['>=7,<=8', undefined, undefined]]);
  assert.deepEqual(result.findings.filter((f) => /key/.test(f.code)), []);
});
