import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateExpression, evaluateExpressionDetailed, formatExpression, parseExpression, withoutColumns, type ExpressionContext } from './index.js';

const models: ExpressionContext = {
  settings: {
    common: { debug: { value: false }, libvirt_type: { value: 'kvm' } },
    storage: { volumes_ceph: { value: true }, osd_pool_size: { value: '3' } },
    empty: { list: { value: [] } },
  },
  cluster: { mode: 'ha_compact', net_provider: 'neutron' },
  version: { feature_groups: ['mirantis', 'experimental'] },
  networking_parameters: { segmentation_type: 'vlan' },
};

const value = (text: string, context: ExpressionContext = models): unknown => {
  const parsed = parseExpression(text);
  assert.ok(parsed.ast, `${text}: ${JSON.stringify(parsed.findings)}`);
  return evaluateExpression(parsed.ast, context);
};

test('literals and references evaluate to their values', () => {
  assert.equal(value('true'), true);
  assert.equal(value('null'), null);
  assert.equal(value('-12'), -12);
  assert.equal(value('1.5'), 1.5);
  assert.equal(value(`"it's"`), "it's");
  assert.equal(value('cluster:mode'), 'ha_compact');
  assert.deepEqual(value('version:feature_groups'), ['mirantis', 'experimental']);
  assert.equal(value('networking_parameters:segmentation_type'), 'vlan');
});

test('the real conditions of the corpus evaluate as Fuel did', () => {
  assert.equal(value("settings:common.libvirt_type.value != 'kvm'"), false);
  assert.equal(value("not ('experimental' in version:feature_groups)"), false);
  assert.equal(value("cluster:net_provider != 'neutron'"), false);
  assert.equal(value('settings:common.debug.value == false and settings:storage.volumes_ceph.value == true'), true);
  assert.equal(value("cluster:mode == 'ha_compact' or cluster:mode == 'multinode'"), true);
});

test('equality is strict and deep', () => {
  assert.equal(value("123 == '123'"), false);
  assert.equal(value('123 != "123"'), true);
  assert.equal(value('null == false'), false);
  assert.equal(value('true == 1'), false);
  assert.equal(value('settings:empty.list.value == settings:empty.list.value'), true);
});

test('and/or return an operand, with Python truthiness', () => {
  assert.equal(value('1 == 1 and 2'), 2);
  assert.equal(value("false or 'x'"), 'x');
  assert.equal(value("'kvm' and 5"), 5);
  assert.deepEqual(value('settings:empty.list.value or 0'), 0);
  assert.equal(value('not settings:empty.list.value'), true);
  assert.equal(value("not ''"), true);
});

test('in tests substrings, list membership and map keys', () => {
  assert.equal(value("'vm' in 'kvm'"), true);
  assert.equal(value("'experimental' in version:feature_groups"), true);
  assert.equal(value("'advanced' in version:feature_groups"), false);
  assert.equal(value("'common' in settings:common"), false);
  assert.equal(value("'debug' in settings:common"), true);
  assert.equal(value("1 in 'abc'"), false);
  assert.equal(value("'a' in null"), false);
});

test("Fuel's precedence: not and in bind tighter than ==", () => {
  // (not 1) == 2 → false == 2 → false
  assert.equal(value('not 1 == 2'), false);
  // ('a' in 'xa') == true
  assert.equal(value("'a' in 'xa' == true"), true);
  assert.equal(value("not 'a' == 'b'"), false);
  assert.deepEqual(withoutColumns(parseExpression('a or b and c').ast!), withoutColumns(parseExpression('a or (b and c)').ast!));
  assert.deepEqual(withoutColumns(parseExpression('a == b and c != d').ast!), withoutColumns(parseExpression('(a == b) and (c != d)').ast!));
  assert.deepEqual(withoutColumns(parseExpression('not a in b').ast!), withoutColumns(parseExpression('(not a) in b').ast!));
});

test('unknown references evaluate to null and are reported', () => {
  const parsed = parseExpression('settings:common.nope.value == null and nomodel:x == null');
  const result = evaluateExpressionDetailed(parsed.ast!, models);
  assert.equal(result.value, true);
  assert.deepEqual(
    result.unresolved.map((u) => [u.reference, u.unknownModel, u.column]),
    [
      ['settings:common.nope.value', false, 1],
      ['nomodel:x', true, 40],
    ],
  );
});

test('a path without a model reads the default model (the settings)', () => {
  assert.equal(value('common.debug.value == false'), true);
  assert.equal(value('x == 1', { default: { x: 1 } }), true);
});

test('syntax errors are findings with a column', () => {
  const cases: Array<[string, string, number]> = [
    ['(true', 'expression/syntax-error', 6],
    ['false and', 'expression/syntax-error', 10],
    ['== 123', 'expression/syntax-error', 1],
    ['true $', 'expression/unexpected-character', 6],
    ["settings:x.value in ['a']", 'expression/unexpected-character', 21],
    ["'abc", 'expression/unterminated-string', 1],
    ['', 'expression/empty', 1],
    ['   ', 'expression/empty', 1],
    ['a = b', 'expression/unexpected-character', 3],
    ['settings:a..b', 'expression/syntax-error', 1],
    ['se-t:a', 'expression/syntax-error', 1],
    [':a', 'expression/syntax-error', 1],
    ['a:b:c', 'expression/syntax-error', 1],
    ['true false', 'expression/syntax-error', 6],
    ['not', 'expression/syntax-error', 4],
    ['()', 'expression/syntax-error', 2],
  ];
  for (const [text, code, column] of cases) {
    const { ast, findings } = parseExpression(text);
    assert.equal(ast, undefined, text);
    assert.equal(findings.length, 1, text);
    assert.equal(findings[0].code, code, text);
    assert.equal(findings[0].column, column, text);
    assert.equal(findings[0].severity, 'error');
    assert.ok(findings[0].hint, text);
  }
});

test('deep, enormous or operator-heavy expressions are findings, not stack overflows', () => {
  assert.equal(parseExpression('('.repeat(100_000) + 'true' + ')'.repeat(100_000)).findings[0].code, 'expression/too-long');
  assert.equal(parseExpression('('.repeat(2_000) + 'true' + ')'.repeat(2_000)).findings[0].code, 'expression/too-deep');
  assert.equal(parseExpression('not '.repeat(1_000) + 'true').findings[0].code, 'expression/too-deep');
  assert.equal(parseExpression(Array(1_500).fill('a').join(' or ')).findings[0].code, 'expression/too-complex');
  const ok = parseExpression('('.repeat(60) + 'true' + ')'.repeat(60));
  assert.ok(ok.ast);
  assert.equal(parseExpression(42 as unknown as string).findings[0].code, 'expression/not-a-string');
});

test('keywords are whole words', () => {
  assert.equal(value('trueish:x == null', { trueish: { x: null } }), true);
  assert.equal(value('settings:in.and == 1', { settings: { in: { and: 1 } } }), true);
});

test('formatExpression prints what parses back to the same tree', () => {
  for (const text of [
    "not ('experimental' in version:feature_groups)",
    "settings:a.b.value == 'x' or cluster:mode != \"it's\" and not 1 == -2",
    '(a or b) and (c or d)',
    'a == (b == c)',
    'not (a and b) in c',
    'a in (b in c)',
    'x in not y',
    'default:true == default:1',
  ]) {
    const ast = parseExpression(text).ast!;
    const printed = formatExpression(ast);
    assert.deepEqual(withoutColumns(parseExpression(printed).ast!), withoutColumns(ast), `${text} → ${printed}`);
  }
  assert.equal(formatExpression(parseExpression("not ('x' in version:feature_groups)").ast!), "not ('x' in version:feature_groups)");
  assert.equal(formatExpression(parseExpression('(a == b) and c').ast!), 'a == b and c');
});
