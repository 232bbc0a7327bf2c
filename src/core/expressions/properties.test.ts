/** Property tests (fast-check, fixed seed) over both parsers: round trips, no crash on any input. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluateExpression, formatExpression, parseExpression, withoutColumns, type Expr } from './index.js';
import { evaluateYaql, formatYaql, parseYaql, parseYaqlSyntax, stripYaqlColumns, type YaqlNode } from '../yaql/index.js';

const seed = Number(process.env.HEARTH_PROPERTY_SEED ?? 20240611);
const numRuns = Number(process.env.HEARTH_PROPERTY_RUNS ?? 300);
const options = { seed, numRuns };

const name = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,6}$/).filter((s) => !['true', 'false', 'null', 'in', 'and', 'or', 'not', 'mod'].includes(s));
const expressionArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.string({ maxLength: 6 }).filter((s) => !(s.includes("'") && s.includes('"'))).map((value) => ({ kind: 'literal' as const, value, column: 1 })),
      fc.integer({ min: -1000, max: 1000 }).map((value) => ({ kind: 'literal' as const, value, column: 1 })),
      fc.constantFrom(true, false, null).map((value) => ({ kind: 'literal' as const, value, column: 1 })),
      fc.record({ model: fc.constantFrom('settings', 'cluster', 'version', 'default'), path: fc.array(name, { minLength: 1, maxLength: 3 }) }).map((r) => ({ kind: 'reference' as const, ...r, column: 1 })),
    ),
    tie('e').map((operand) => ({ kind: 'not' as const, operand, column: 1 })),
    fc
      .record({ operator: fc.constantFrom('==' as const, '!=' as const, 'in' as const, 'and' as const, 'or' as const), left: tie('e'), right: tie('e') })
      .map((r) => ({ kind: 'binary' as const, ...r, column: 1 })),
  ),
})).e;

const yaqlName = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/).filter((s) => !['true', 'false', 'null', 'in', 'and', 'or', 'not', 'mod'].includes(s));
const models = fc.dictionary(fc.constantFrom('settings', 'cluster', 'version'), fc.jsonValue({ maxDepth: 3 }));

test('restriction language: parse(format(ast)) is ast', () => {
  fc.assert(
    fc.property(expressionArb, (ast) => {
      const printed = formatExpression(ast);
      const reparsed = parseExpression(printed);
      assert.ok(reparsed.ast, `${printed}: ${JSON.stringify(reparsed.findings)}`);
      assert.deepEqual(withoutColumns(reparsed.ast), withoutColumns(ast));
    }),
    options,
  );
});

test('restriction language: no input crashes the parser; findings carry a column', () => {
  const text = fc.oneof(fc.string({ maxLength: 80 }), fc.array(fc.constantFrom('(', ')', 'not ', ' and ', ' or ', ' == ', ' in ', "'a'", 'settings:a.b', '1', '"', ':', '.', '$', '[', 'true'), { maxLength: 30 }).map((a) => a.join('')));
  fc.assert(
    fc.property(text, (t) => {
      const { ast, findings } = parseExpression(t);
      assert.ok(ast || findings.length > 0);
      for (const f of findings) assert.ok(f.severity === 'error' && typeof f.column === 'number' && f.column >= 1 && f.column <= t.length + 1, JSON.stringify(f));
    }),
    options,
  );
});

test('restriction language: evaluation never throws on a well-formed tree', () => {
  fc.assert(fc.property(expressionArb, models, (ast, context) => void evaluateExpression(ast, context)), options);
});

const yaqlArb: fc.Arbitrary<YaqlNode> = fc.letrec<{ n: YaqlNode }>((tie) => ({
  n: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.string({ maxLength: 5 }).map((value) => ({ kind: 'constant' as const, value, column: 1 })),
      fc.integer({ min: 0, max: 99 }).map((value) => ({ kind: 'constant' as const, value, column: 1 })),
      fc.constantFrom(true, false, null).map((value) => ({ kind: 'constant' as const, value, column: 1 })),
      fc.constant({ kind: 'variable' as const, name: '', column: 1 }),
      yaqlName.map((n) => ({ kind: 'keyword' as const, name: n, column: 1 })),
    ),
    fc.record({ target: tie('n'), name: yaqlName, safe: fc.boolean() }).map((r) => ({ kind: 'member' as const, ...r, column: 1 })),
    fc.record({ target: tie('n'), index: tie('n') }).map((r) => ({ kind: 'index' as const, ...r, column: 1 })),
    fc.array(tie('n'), { maxLength: 3 }).map((items) => ({ kind: 'list' as const, items, column: 1 })),
    fc.record({ operand: tie('n'), operator: fc.constantFrom('not' as const, '-' as const) }).map((r) => ({ kind: 'unary' as const, ...r, column: 1 })),
    fc
      .record({ operator: fc.constantFrom('=' as const, '!=' as const, '<' as const, 'in' as const, 'and' as const, 'or' as const, '+' as const, '*' as const, 'mod' as const), left: tie('n'), right: tie('n') })
      .map((r) => ({ kind: 'binary' as const, ...r, column: 1 })),
    fc
      .record({ name: fc.constantFrom('len', 'keys', 'values', 'flatten', 'toSet', 'first'), receiver: tie('n') })
      .map((r) => ({ kind: 'call' as const, ...r, args: [], column: 1 })),
    fc.record({ name: fc.constantFrom('where', 'select', 'any', 'all'), receiver: tie('n'), arg: tie('n') }).map((r) => ({ kind: 'call' as const, name: r.name, receiver: r.receiver, args: [r.arg], column: 1 })),
    fc.array(fc.record({ key: tie('n'), value: tie('n') }), { minLength: 1, maxLength: 2 }).map((pairs) => ({ kind: 'call' as const, name: 'switch', args: pairs.map((p) => ({ kind: 'pair' as const, ...p, column: 1 })), column: 1 })),
  ),
})).n;

test('YAQL: parse(format(ast)) is ast', () => {
  fc.assert(
    fc.property(yaqlArb, (ast) => {
      const printed = formatYaql(ast);
      const reparsed = parseYaqlSyntax(printed);
      assert.ok(reparsed.ast, `${printed}: ${JSON.stringify(reparsed.findings)}`);
      assert.deepEqual(stripYaqlColumns(reparsed.ast), stripYaqlColumns(ast), printed);
    }),
    options,
  );
});

test('YAQL: no input crashes the parser; evaluation never throws', () => {
  const text = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc.array(fc.constantFrom('$', '.', 'a', 'get(', ')', '(', '[', ']', '{', '}', ',', '=>', ' = ', ' and ', 'not ', "'x'", '1', 'where(', 'changed(', '$.b', ' in ', '?.'), { maxLength: 30 }).map((a) => a.join('')),
  );
  fc.assert(
    fc.property(text, fc.jsonValue({ maxDepth: 3 }), fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }), (t, data, old) => {
      const { ast, findings } = parseYaql(t);
      if (!ast) {
        assert.ok(findings.length > 0);
        for (const f of findings) assert.ok(typeof f.column === 'number' && f.column >= 1 && f.column <= t.length + 1, JSON.stringify(f));
        return;
      }
      const result = evaluateYaql(ast, { data, old });
      assert.ok(result.ok || result.error.code.startsWith('yaql/'));
    }),
    options,
  );
  fc.assert(fc.property(yaqlArb, fc.jsonValue({ maxDepth: 3 }), (ast, data) => void evaluateYaql(ast, { data })), options);
});
