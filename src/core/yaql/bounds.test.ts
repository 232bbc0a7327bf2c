/**
 * What one YAQL evaluation may cost (issue 20, item 1): regexes run in linear time, and a budget
 * ends an evaluation that loops or builds too much, as a finding.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { YaqlSet, evaluateYaql, parseYaql, type YaqlContext } from './index.js';
import { pyEqual } from './values.js';

const run = (text: string, context: YaqlContext = { data: {} }) => {
  const parsed = parseYaql(text);
  assert.ok(parsed.ast, `${text}: ${JSON.stringify(parsed.findings)}`);
  return evaluateYaql(parsed.ast, context);
};
const cpu = (f: () => void): number => {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

test('a pattern that backtracks exponentially elsewhere matches in linear time', () => {
  for (const text of [`'${'a'.repeat(5000)}!'.matches('^(a+)+$')`, `'${'a'.repeat(5000)}!' =~ '^(a|a)*$'`, `'${'a'.repeat(5000)}' !~ '(.*a){20}$'`]) {
    let result;
    const ms = cpu(() => (result = run(text)));
    assert.ok(ms < 500, `${text.slice(-30)}: ${ms} ms`);
    assert.ok(result!.ok, JSON.stringify(result));
  }
  assert.deepEqual(run(`'${'a'.repeat(40)}!'.matches('^(a+)+$')`), { ok: true, value: false });
  assert.deepEqual(run(`'${'a'.repeat(5000)}' !~ '(.*a){20}$'`), { ok: true, value: false });
});

test("matches() keeps Python's re.search: anywhere in the string, named groups, inline flags", () => {
  assert.deepEqual(run("'primary-controller'.matches('controller')"), { ok: true, value: true });
  assert.deepEqual(run("'primary-controller'.matches('^controller')"), { ok: true, value: false });
  assert.deepEqual(run("'primary-controller'.matches('^(primary-)?(controller|rabbitmq)$')"), { ok: true, value: true });
  assert.deepEqual(run("'Controller' =~ '(?i)^(?P<r>controller)$'"), { ok: true, value: true });
  assert.deepEqual(run("'127.127.3.4' !~ '127\\\\.127\\\\.[0-9]+\\\\.[0-9]+'"), { ok: true, value: false });
});

test('a pattern RE2 cannot run is refused when parsed, or when evaluated if computed', () => {
  for (const text of ["'aa'.matches('(a)\\\\1')", "'ab' =~ 'a(?=b)'", "'a'.matches('(?<!b)a')", `'a'.matches('${'a'.repeat(5000)}')`]) {
    const parsed = parseYaql(text);
    const found = parsed.findings.find((f) => f.code === 'yaql/bad-regex');
    assert.ok(found, `${text.slice(0, 40)}: ${JSON.stringify(parsed.findings)}`);
    assert.equal(found.severity, 'error');
    assert.ok(found.column && found.hint);
  }
  const computed = run("'aa'.matches($.p)", { data: { p: '(a)\\1' } });
  assert.equal(computed.ok, false);
  assert.equal(!computed.ok && computed.error.code, 'yaql/bad-regex');
});

test('an evaluation that does too much work ends with yaql/too-much-work, in bounded time', () => {
  const list = Array.from({ length: 300 }, (_, i) => ({ uid: String(i), name: `node-${i}`, roles: ['compute'] }));
  for (const text of [
    "'a' * 500000000",
    "('ab' * 1000) * 1000000",
    '$a.select($a.select($a.select($.uid))).len()',
    '$a.select($a.select($a)).flatten().flatten().len()',
    '$a.select($a.select(dict(k => $.name, v => $.roles.toJson(), w => $.name.matches(\'^(node|x)-[0-9]+$\'), x => [$.uid, $.uid, $.uid]))).len()',
    '$a.select($a.select($.name + $.name + $.name + $.name + $.name)).len()',
    '$a.select($a.name.select($a.name)).len()',
  ]) {
    let result;
    const ms = cpu(() => (result = run(text, { data: {}, variables: { a: list } })));
    assert.equal(result!.ok, false, text);
    assert.equal(!result!.ok && result!.error.code, 'yaql/too-much-work', `${text}: ${JSON.stringify(result)}`);
    assert.match(!result!.ok ? (result!.error.hint ?? '') : '', /fewer|shorter/);
    assert.ok(ms < 1500, `${text}: ${ms} ms`);
  }
});

test("Fuel's own kinds of conditions on a 10,000-node cluster stay far inside the budget", () => {
  const nodes = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`node-${i}`, { uid: String(i), fqdn: `node-${i}.local`, node_roles: [i < 3 ? 'controller' : 'compute'] }]));
  const context: YaqlContext = { data: { uid: '5', network_metadata: { nodes } } };
  for (const text of [
    "$.network_metadata.nodes.values().where($.node_roles.any($.matches('^(primary-)?controller$'))).len() = 3",
    '$.uid in $.network_metadata.nodes.values().uid',
    "$.network_metadata.nodes.values().select($.fqdn).toSet().len() = 10000",
    "len($.network_metadata.nodes.values().where('compute' in $.node_roles).toYaml()) > 0",
  ]) {
    assert.deepEqual(run(text, context), { ok: true, value: true }, text);
  }
});

test('toSet and intersect answer as pairwise Python equality did, keyed in linear time', () => {
  const item = fc.constantFrom<unknown>(1, true, 1.0, 0, false, '1', 'a', null, [1], [true], [1, 2], [2, 1], { a: 1 }, { a: true }, { b: 2, a: 1 }, { a: 1, b: 2 }, Number.NaN, {}, []);
  const naiveSet = (items: unknown[]) => items.filter((x, i) => !items.slice(0, i).some((y) => pyEqual(x, y)));
  fc.assert(
    fc.property(fc.array(item, { maxLength: 20 }), fc.array(item, { maxLength: 20 }), (a, b) => {
      assert.deepEqual(YaqlSet.of(a).items, naiveSet(a));
      const both = run('$a.toSet().intersect($b.toSet())', { data: {}, variables: { a, b } });
      assert.ok(both.ok);
      assert.deepEqual(both.value, naiveSet(a).filter((x) => naiveSet(b).some((y) => pyEqual(x, y))));
    }),
    { seed: 42, numRuns: 300 },
  );
  const many = Array.from({ length: 50_000 }, (_, i) => String(i % 25_000));
  const ms = cpu(() => assert.deepEqual(run('$a.toSet().len()', { data: {}, variables: { a: many } }), { ok: true, value: 25_000 }));
  assert.ok(ms < 1000, `${ms} ms`);
});

test('functions that build lists pay per element built, not per character read (issue 24, item 10)', () => {
  // 3.5 MB of text cost 220,000 units to build; split it into 1.75 million strings and the budget ends.
  const split = run("('a,' * 1750000).split(',').len()");
  assert.equal(split.ok, false, JSON.stringify(split));
  assert.equal(!split.ok && split.error.code, 'yaql/too-much-work');
  const words = run("('a ' * 1750000).split().len()");
  assert.equal(!words.ok && words.error.code, 'yaql/too-much-work');
  const keys = run('$.m.keys().len() + $.m.values().len() + $.m.items().len()', { data: { m: Object.fromEntries(Array.from({ length: 400_000 }, (_, i) => [`k${i}`, i])) } });
  assert.equal(!keys.ok && keys.error.code, 'yaql/too-much-work');
  // Ordinary uses stay far inside it.
  assert.deepEqual(run("'controller,compute'.split(',')"), { ok: true, value: ['controller', 'compute'] });
  assert.deepEqual(run("$.m.keys()", { data: { m: { a: 1, b: 2 } } }), { ok: true, value: ['a', 'b'] });
});
