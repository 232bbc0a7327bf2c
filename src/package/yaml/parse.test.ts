import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYaml } from './parse.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';

test('plain scalars resolve as PyYAML (YAML 1.1) resolves them', () => {
  const { value, ok } = parseYaml(
    ['a: yes', 'b: off', 'c: 1e3', 'd: 0755', 'e: 1:30', 'f: 08', 'g: 1.0', 'h: ~', 'i: 0x1F', 'j: "yes"', 'k: 1_000', 'l: .inf', 'm:'].join('\n'),
    'x.yaml',
  );
  assert.equal(ok, true);
  assert.deepEqual(value, { a: true, b: false, c: '1e3', d: 493, e: 90, f: '08', g: 1, h: null, i: 31, j: 'yes', k: 1000, l: Infinity, m: null });
});

test('positions are kept for keys and values', () => {
  const { value } = parseYaml('top:\n  name: x\n  list:\n    - one\n    - two\n', 'p.yaml');
  const top = (value as { top: { list: string[] } }).top;
  assert.deepEqual(keyPositionOf(top, 'name'), { file: 'p.yaml', line: 2, column: 3 });
  assert.deepEqual(positionOf(top.list, 1), { file: 'p.yaml', line: 5, column: 7 });
});

test('duplicate keys are a finding and the last value wins, as in PyYAML', () => {
  const { value, findings } = parseYaml('a: 1\nb: 2\na: 3\n', 'd.yaml');
  assert.deepEqual(value, { a: 3, b: 2 });
  assert.equal(findings.length, 1);
  assert.equal(findings[0].code, 'yaml/duplicate-key');
  assert.equal(findings[0].line, 3);
});

test('merge keys, anchors and !!pairs work', () => {
  const { value } = parseYaml('base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\np: !!pairs [a: 1, b: 2]\n', 'm.yaml');
  assert.deepEqual(value, { base: { x: 1, y: 2 }, other: { x: 1, y: 3 }, p: [['a', 1], ['b', 2]] });
});

test('__proto__ is data, never the prototype', () => {
  const { value } = parseYaml('__proto__: {polluted: 1}\n', 'p.yaml');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(value as object), ['__proto__']);
});

test('syntax errors, alias bombs, self-referencing aliases and several documents are findings', () => {
  const bad = parseYaml('a: [1, 2\nb: c', 'bad.yaml');
  assert.equal(bad.ok, false);
  assert.equal(bad.findings[0].code, 'yaml/syntax');
  assert.equal(bad.findings[0].file, 'bad.yaml');

  const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) levels.push(`l${i}: &l${i} [${Array(10).fill(i === 1 ? '*a' : `*l${i - 1}`).join(', ')}]`);
  const bomb = parseYaml(levels.join('\n'), 'bomb.yaml');
  assert.equal(bomb.ok, false);
  assert.equal(bomb.findings[0].code, 'yaml/too-large');

  assert.equal(parseYaml('a: &a [*a]', 'r.yaml').findings[0].code, 'yaml/recursive-alias');
  assert.equal(parseYaml('a: 1\n---\nb: 2\n', 'two.yaml').findings[0].code, 'yaml/multiple-documents');
  assert.equal(parseYaml('x: ' + '['.repeat(3000) + ']'.repeat(3000), 'deep.yaml').ok, false);
});

test('tags PyYAML safe_load refuses are findings, on scalars and collections alike', () => {
  for (const text of ['a: !!python/object:os.system {}\n', 'a: !!python/name:os.system\n', 'a: !custom [1, 2]\n', 'a: !foo bar\n']) {
    const { ok, findings } = parseYaml(text, 't.yaml');
    assert.equal(ok, false, text);
    assert.equal(findings[0].code, 'yaml/unknown-tag', text);
    assert.equal(findings[0].line, 1);
  }
  assert.deepEqual(parseYaml('a: !!str 1\nb: !!set {x: null}\nc: !!binary aGk=\n', 'ok.yaml').value, { a: '1', b: { x: null }, c: 'aGk=' });
});
