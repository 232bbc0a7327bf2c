import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYaml } from './parse.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';

// Each expected value below is what python3 `yaml.load(text, Loader=yaml.CSafeLoader)` returns.

test('a quoted string whose closing line sits at the key indentation is read as libyaml reads it', () => {
  // The shape of a real Fuel graph (fuel_plugin_example_v5 graphs/deletion.yaml) and of TripleO templates.
  const text = [
    'tasks:',
    '  - id: netboot',
    '    parameters:',
    '      cmd:',
    "        yaql_exp: 'concat(\"sh /etc/puppet/modular/",
    '        provision/netboot enable ", $.provision.name)\'',
    '      timeout: 180',
    '',
  ].join('\n');
  const { value, ok, findings } = parseYaml(text, 'g.yaml');
  assert.equal(ok, true);
  const params = (value as { tasks: { parameters: { cmd: { yaql_exp: string }; timeout: number } }[] }).tasks[0].parameters;
  assert.equal(params.cmd.yaql_exp, 'concat("sh /etc/puppet/modular/ provision/netboot enable ", $.provision.name)');
  assert.equal(params.timeout, 180);
  assert.deepEqual(
    findings.map((f) => [f.code, f.severity, f.line, f.column]),
    [['yaml/lenient-indentation', 'info', 5, 19]],
  );
  // Positions stay those of the original text: the re-indented lines are mapped back.
  assert.deepEqual(keyPositionOf(params, 'timeout'), { file: 'g.yaml', line: 7, column: 7 });
});

test('double quotes, sequence items and escaped quotes inside the string', () => {
  assert.deepEqual(parseYaml('a:\n  b: "x \\" q\n y"\n', 'q.yaml').value, { a: { b: 'x " q y' } });
  assert.deepEqual(parseYaml("- 'x\ny'\n- z\n", 'q.yaml').value, ['x y', 'z']);
  assert.deepEqual(parseYaml("a:\n  - 'it''s\n  fine'\n", 'q.yaml').value, { a: ["it's fine"] });
  // A blank line inside the string is a line break, as in libyaml.
  assert.deepEqual(parseYaml("a:\n  b: 'x\n\n  y'\n  c: 1\n", 'q.yaml').value, { a: { b: 'x\ny', c: 1 } });
});

test('flow collections with under-indented lines are read as libyaml reads them', () => {
  const seq = parseYaml('a:\n  b: [x,\n  y]\n  c: 2\n', 'f.yaml');
  assert.equal(seq.ok, true);
  assert.deepEqual(seq.value, { a: { b: ['x', 'y'], c: 2 } });
  const map = parseYaml('a:\n  b: {x: 1,\n y: "two\n three"}\n', 'f.yaml');
  assert.deepEqual(map.value, { a: { b: { x: 1, y: 'two three' } } });
  const b = (map.value as { a: { b: object } }).a.b;
  assert.deepEqual(positionOf(b, 'y'), { file: 'f.yaml', line: 3, column: 5 });
});

test('what libyaml refuses stays refused', () => {
  // A document marker inside a quoted string ends the document for libyaml too.
  assert.equal(parseYaml("a:\n  b: 'x\n---\n  y'\n", 'd.yaml').ok, false);
  // An unclosed quote is not "repaired".
  const open = parseYaml("a: 'x\nb: 1\n", 'o.yaml');
  assert.equal(open.ok, false);
  assert.equal(open.findings[0].code, 'yaml/syntax');
  // Wrong indentation of plain (unquoted) text is an error in libyaml as well.
  assert.equal(parseYaml('a:\n  b: x\n  y\n', 'p.yaml').ok, false);
  assert.equal(parseYaml('a: 1\n b: 2\n', 'i.yaml').ok, false);
});

test('the leniency can be turned off for strict YAML', () => {
  const strict = parseYaml("a:\n  b: 'x\n  y'\n", 's.yaml', { libyamlIndentation: false });
  assert.equal(strict.ok, false);
  assert.equal(strict.findings[0].code, 'yaml/syntax');
});

test('anchor names libyaml refuses are errors', () => {
  const bad = parseYaml('a: &a.b 1\nb: *a.b\n', 'a.yaml');
  assert.equal(bad.ok, false);
  assert.equal(bad.findings[0].code, 'yaml/bad-anchor-name');
  assert.equal(bad.findings[0].line, 1);
  assert.equal(parseYaml('a: &good_one-2 1\nb: *good_one-2\n', 'a.yaml').ok, true);
});

test('list or mapping keys, and a plain =, are refused as PyYAML refuses them', () => {
  const list = parseYaml('? [a, b]\n: 1\n', 'k.yaml');
  assert.equal(list.ok, false);
  assert.equal(list.findings[0].code, 'yaml/unhashable-key');
  const value = parseYaml('a: =\n', 'v.yaml');
  assert.equal(value.ok, false);
  assert.equal(value.findings[0].code, 'yaml/value-key');
  assert.deepEqual(parseYaml("a: '='\nb: x=y\n", 'v.yaml').value, { a: '=', b: 'x=y' });
});

test('merge keys follow PyYAML: merged keys come first, earlier maps of one list win, explicit keys win', () => {
  const { value } = parseYaml('a: &a {k: 1, m: 1}\nb: &b {k: 2, n: 2}\nc:\n  z: 0\n  <<: [*a, *b]\n  m: 9\n', 'm.yaml');
  const c = (value as { c: Record<string, number> }).c;
  assert.deepEqual(Object.entries(c), [
    ['k', 1],
    ['n', 2],
    ['m', 9],
    ['z', 0],
  ]);
});

test('tabs libyaml refuses are refused: in the indentation of a line, after - or ?', () => {
  const refused: [string, number, number][] = [
    ['a: 1\n\t\nb: 2\n', 2, 1],
    ['a:\n  - x\n\t\n  - y\n', 3, 1],
    ["a: 'x'\n\t\nb: 2\n", 2, 1],
    ['# c\n\t\na: 1\n', 2, 1],
    ['\t\na: 1\n', 1, 1],
    ['- \ta\n', 1, 3],
    ['k: v\n?\ta\n', 2, 2],
  ];
  for (const [text, line, column] of refused) {
    const result = parseYaml(text, 't.yaml');
    assert.equal(result.ok, false, JSON.stringify(text));
    assert.deepEqual([result.findings[0].code, result.findings[0].line, result.findings[0].column], ['yaml/tab', line, column], JSON.stringify(text));
  }
  // Where libyaml skips tabs: after ':', inside flow collections and quoted strings, after a plain
  // value when the tab is right of the collection's indentation, and inside block scalar content.
  const accepted: [string, unknown][] = [
    ['a:\t\tb\n', { a: 'b' }],
    ['a: [1,\n\t2]\n', { a: [1, 2] }],
    ['a: "x\n\ty"\n', { a: 'x y' }],
    ['a: x\n \t\nb: 1\n', { a: 'x', b: 1 }],
    ['a: |\n  x\n  \ty\nb: 1\n', { a: 'x\n\ty\n', b: 1 }],
    ['a: 1 \t# c\n', { a: 1 }],
  ];
  for (const [text, value] of accepted) assert.deepEqual(parseYaml(text, 't.yaml').value, value, JSON.stringify(text));
});

test('control characters are refused as PyYAML refuses them; tagged scalars are built as PyYAML builds them', () => {
  const control = parseYaml('a: x\u0007y\n', 'c.yaml');
  assert.equal(control.ok, false);
  assert.deepEqual([control.findings[0].code, control.findings[0].line, control.findings[0].column], ['yaml/control-character', 1, 5]);
  assert.equal(parseYaml('a: "x\\ty \u00e9 \u{1F600}"\n', 'c.yaml').ok, true);
  assert.deepEqual(parseYaml("a: !!float 1\nb: !!int '12'\nc: !!bool yes\nd: !!null ''\ne: !!str 12\n", 't.yaml').value, { a: 1, b: 12, c: true, d: null, e: '12' });
  assert.equal(parseYaml('a: !!int abc\n', 't.yaml').ok, false);
});
