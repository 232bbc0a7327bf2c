import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { YaqlSet, dependsOnNode, evaluateYaql, evaluateYaqlCondition, formatYaql, memoizedEqual, parseYaql, stripYaqlColumns, yaqlReads, type YaqlContext } from './index.js';
import { pyEqual, toPlain } from './values.js';

const data = {
  uid: '2',
  roles: ['compute'],
  storage: { objects_ceph: false, images_ceph: true },
  network_metadata: { nodes: { 'node-1': { uid: '1', fqdn: 'a', node_roles: ['primary-controller'] }, 'node-2': { uid: '2', fqdn: 'b', node_roles: ['compute'] } } },
  list: [3, 1, 2],
};
const run = (text: string, context: YaqlContext = { data }) => {
  const parsed = parseYaql(text);
  assert.ok(parsed.ast, `${text}: ${JSON.stringify(parsed.findings)}`);
  return evaluateYaql(parsed.ast, context);
};
const value = (text: string, context?: YaqlContext) => {
  const r = run(text, context);
  assert.ok(r.ok, `${text}: ${JSON.stringify(!r.ok && r.error)}`);
  return r.value;
};

test('queries over deployment data', () => {
  assert.equal(value("'compute' in $.roles"), true);
  assert.deepEqual(value("$.network_metadata.nodes.values().where('compute' in $.node_roles).uid"), ['2']);
  assert.deepEqual(value('$.network_metadata.nodes.values().select($.fqdn)'), ['a', 'b']);
  assert.equal(value("$.network_metadata.nodes.values().any($.node_roles.any($.matches('controller')))"), true);
  assert.equal(value("$.get('missing', {}).get('enabled', false)"), false);
  assert.equal(value("switch($.get('deployed_before', {}).get('value') => 1, true => 6)"), 6);
  assert.deepEqual(value("[{name=>'x', role=>$.roles.select('primary-' + $)}]"), [{ name: 'x', role: ['primary-compute'] }]);
  assert.equal(value("len($.roles.toSet().intersect(['compute', 'x'].toSet()))"), 1);
  assert.deepEqual(value("concat('node-', $.uid)"), 'node-2');
  assert.deepEqual(value('$.list.where($ > 1).select($ * 10)'), [30, 20]);
  assert.deepEqual(value("'a, b'.split(', ')"), ['a', 'b']);
  assert.deepEqual(value('[[1, [2]], 3].flatten()'), [1, 2, 3]);
  assert.equal(value('coalesce(null, $.uid)'), '2');
  assert.deepEqual(value("dict(a => 1, 'b' => 2)"), { a: 1, b: 2 });
  assert.equal(value('not $.storage.objects_ceph and $.storage.images_ceph'), true);
  assert.equal(value('7 / 2 + 7 mod 3'), 4);
  assert.equal(value('$.list[-1]'), 2);
});

test('runtime failures are findings, never exceptions', () => {
  for (const [text, code] of [
    ['$.nope', 'yaql/missing-key'],
    ['$.uid.x', 'yaql/no-attribute'],
    ['$.list[9]', 'yaql/index-out-of-range'],
    ['[].first()', 'yaql/empty-collection'],
    ["1 + 'a'", 'yaql/bad-operands'],
    ["'a' in 1", 'yaql/bad-operands'],
    ['1 / 0', 'yaql/division-by-zero'],
    // A pattern written out is refused when parsed (bounds.test.ts); one computed, when evaluated.
    ["'x'.matches(concat('', '('))", 'yaql/bad-regex'],
    ['len(null)', 'yaql/bad-argument'],
    ['$.roles.intersect($.roles)', 'yaql/bad-argument'],
  ] as const) {
    const r = run(text);
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.equal(r.error.code, code, text);
  }
  assert.deepEqual(evaluateYaqlCondition(parseYaql('$.nope').ast!, { data }).value, false);
});

test('expressions outside the subset are reported when parsed, with a column', () => {
  for (const [text, code, column] of [
    ['$.foo(', 'yaql/syntax-error', 7],
    ['sum($.list)', 'yaql/unknown-function', 1],
    ['$.list.dict()', 'yaql/not-a-method', 8],
    ['where($.list, true)', 'yaql/not-a-function', 1],
    ['$.get()', 'yaql/wrong-argument-count', 3],
    ['switch(true)', 'yaql/switch-needs-pairs', 1],
    ['len(a => 1)', 'yaql/unexpected-pair', 5],
    ['$.a # b', 'yaql/unexpected-character', 5],
    ["'abc", 'yaql/unterminated-string', 1],
    ['', 'yaql/empty', 1],
    ['$.', 'yaql/syntax-error', 3],
    ['[1, 2', 'yaql/syntax-error', 6],
    ['{1}', 'yaql/syntax-error', 1],
  ] as const) {
    const { ast, findings } = parseYaql(text);
    assert.equal(ast, undefined, text);
    assert.equal(findings[0]?.code, code, text);
    assert.equal(findings[0]?.column, column, text);
  }
  assert.equal(parseYaql('('.repeat(5_000) + '1' + ')'.repeat(5_000)).findings[0].code, 'yaql/too-deep');
  assert.equal(parseYaql('1'.repeat(30_000)).findings[0].code, 'yaql/too-long');
  assert.equal(parseYaql(Array(3_000).fill('1').join(' + ')).findings[0].code, 'yaql/too-complex');
});

test('YAQL precedence: not is looser than comparisons, . binds tightest', () => {
  const same = (a: string, b: string) => assert.deepEqual(stripYaqlColumns(parseYaql(a).ast), stripYaqlColumns(parseYaql(b).ast), `${a} vs ${b}`);
  same('not $.a = 1', 'not ($.a = 1)');
  same('$.a and $.b or $.c', '($.a and $.b) or $.c');
  same('-$.a.b', '-($.a.b)');
  same('1 + 2 * 3 = 7', '(1 + (2 * 3)) = 7');
  same("'x' in $.a and not $.b", "('x' in $.a) and (not $.b)");
});

test('lifecycle functions over {new, old}', () => {
  const old = { ...data, uid: '2', storage: { objects_ceph: true, images_ceph: true }, list: [3, 1], network_metadata: { nodes: { 'node-1': data.network_metadata.nodes['node-1'] } } };
  const both: YaqlContext = { data, old };
  assert.equal(value('changed($.storage)', both), true);
  assert.equal(value('changed($.roles)', both), false);
  assert.equal(value('changedAny($.roles, $.uid)', both), false);
  assert.equal(value('changedAny($.roles, $.storage.objects_ceph)', both), true);
  assert.equal(value('changedAll($.roles, $.storage)', both), false);
  assert.equal(value('old($.storage.objects_ceph)', both), true);
  assert.equal(value('new($.storage.objects_ceph)', both), false);
  assert.deepEqual(value('added($.list)', both), [2]);
  assert.deepEqual(value('deleted($.list)', both), []);
  assert.deepEqual(value('added($.storage)', both), { objects_ceph: false });
  assert.deepEqual(value('deleted($.storage)', both), { objects_ceph: true });
  assert.equal(value('$.uid in added($.network_metadata.nodes.values()).uid', both), true);
  assert.equal(value('$.uid in added($.network_metadata.nodes.values().uid)', both), true);
  // A key missing from the old data counts as changed (Fuel: a failure on old data means changed).
  assert.equal(value('changed($.uid)', { data, old: {} }), true);
  assert.equal(value('old($.uid).isUndef()', { data, old: {} }), true);
  // First deployment: no old state, everything has changed; added is everything, deleted nothing.
  const first: YaqlContext = { data };
  assert.equal(value('changed($.roles)', first), true);
  assert.equal(value('changedAll($.roles, $.uid)', first), true);
  assert.deepEqual(value('added($.list)', first), [3, 1, 2]);
  assert.equal(value('deleted($.list)', first), null);
  assert.equal(value("{'old' => old($)}.toJson()", first), '{"old":null}');
});

test('read paths and node dependence', () => {
  const reads = yaqlReads(parseYaql("changedAny($.network_metadata.vips, $.get('use_ssl'), $.network_metadata.nodes.values().where($.uid = '1'))").ast!);
  assert.deepEqual(reads.paths, [['network_metadata', 'vips'], ['use_ssl'], ['network_metadata', 'nodes']]);
  assert.equal(reads.lifecycle, true);
  assert.equal(reads.wholeData, false);
  assert.equal(dependsOnNode(parseYaql("$.network_metadata.nodes.values().where($.uid = '1')").ast!), false);
  assert.equal(dependsOnNode(parseYaql("'compute' in $.roles").ast!), true);
  assert.equal(dependsOnNode(parseYaql('changed($)').ast!), true);
  assert.equal(dependsOnNode(parseYaql('$node.toYaml()').ast!), true);
  assert.equal(dependsOnNode(parseYaql('$.storage.objects_ceph and $common.x').ast!), false);
  assert.equal(dependsOnNode(parseYaql("$.network_metadata.nodes.get(concat('node-', $.uid))").ast!), true);
});

test('formatYaql round-trips corpus-like expressions', () => {
  for (const text of [
    "$.get('detach-murano', {}).get('metadata', {}).get('enabled', false) and $.network_metadata.nodes.values().any('primary-murano-node' in $.node_roles)",
    "switch(($.roles.any($.matches('^(primary-)?(mongo)$'))) => [], true => [{name => 'virtual_ips', role => $.roles}])",
    "$?.a[0]['b'] != -1 and not -$.x < 2 or 'it\\'s\\n' =~ 'x'",
  ]) {
    const ast = parseYaql(text).ast!;
    assert.deepEqual(stripYaqlColumns(parseYaql(formatYaql(ast)).ast), stripYaqlColumns(ast), text);
  }
});

test('read analysis: `$` in element lambdas is the item, in lifecycle functions the node again', () => {
  const node = (text: string) => dependsOnNode(parseYaql(text).ast!);
  // Inside where/select/any/all, `$.uid` and `$.node_roles` read each list item, not the node.
  assert.equal(node("$.network_metadata.nodes.values().where($.uid = '1').fqdn"), false);
  assert.equal(node("$.network_metadata.nodes.values().select($.node_roles).flatten()"), false);
  assert.equal(node("$.network_metadata.nodes.values().any('primary-controller' in $.node_roles)"), false);
  assert.equal(node("$.network_metadata.nodes.values().where($.node_roles.any($.matches('controller')))"), false);
  assert.equal(node("$.network_metadata.nodes.values().all($.uid != '')"), false);
  // ... but the receiver of a lambda function is still the node's data.
  assert.equal(node("$.roles.where($ = 'compute')"), true);
  assert.equal(node("$.roles.any($.matches('^(primary-)?mongo$'))"), true);
  // new() and old() evaluate their argument on the node's data, even from inside a lambda.
  assert.equal(node('$.network_metadata.nodes.values().where($.fqdn = new($.fqdn))'), true);
  assert.deepEqual(yaqlReads(parseYaql('$.network_metadata.nodes.values().where($.fqdn = new($.fqdn))').ast!).paths, [['network_metadata', 'nodes'], ['fqdn']]);
  assert.equal(node('$.network_metadata.nodes.values().where(changed($.storage))'), false);
  // The legacy `nodes` list is common to the cluster; `$.uid` next to it is not.
  assert.equal(node('added($.nodes).uid'), false);
  assert.equal(node('$.uid in added($.nodes).uid'), true);
  // A nested lambda's `$` is the inner item; the outer receiver decides.
  assert.equal(node("$.network_metadata.nodes.values().select($.network_roles.values().where($ != $.uid))"), false);
});

test('membership over long lists agrees with item-by-item equality', () => {
  const list = Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? i : String(i)));
  const data = { list, set: list };
  for (const [needle, expected] of [["'5'", true], ["'3'", false], ['3', true], ['true', false], ["'100'", false]] as const) {
    const result = evaluateYaql(parseYaql(`${needle} in $.list`).ast!, { data });
    assert.deepEqual(result, { ok: true, value: expected }, needle);
  }
  assert.deepEqual(evaluateYaql(parseYaql("'1' in $.set.toSet()").ast!, { data }), { ok: true, value: true });
});

test('memoizedEqual agrees with Python equality on random values, repeated comparisons included', () => {
  const leaf = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constantFrom('a', 'b', ''), fc.constant(null), fc.double({ min: -2, max: 2, noNaN: true }));
  const tree = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('list'), tie('dict')),
    list: fc.array(tie('value'), { maxLength: 20 }),
    dict: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's'), tie('value'), { maxKeys: 19 }),
  })).value;
  fc.assert(
    fc.property(tree, tree, fc.integer({ min: 1, max: 4 }), (a, b, minSize) => {
      const equal = memoizedEqual(minSize);
      const expected = pyEqual(a, b);
      // Twice: the second answer comes from the memo for large containers and must not differ.
      assert.equal(equal(a, b), expected);
      assert.equal(equal(a, b), expected);
      assert.equal(equal(b, a), expected);
      assert.equal(equal(a, structuredClone(a)), true);
    }),
    { numRuns: 300 },
  );
  // 1 and true, 1 and 1.0 are equal in Python; a list never equals a dict.
  const equal = memoizedEqual(1);
  assert.equal(equal({ x: [1, 2] }, { x: [true, 2.0] }), true);
  assert.equal(equal([], {}), false);
  assert.equal(equal({ x: 1 }, { x: 1, y: undefined }), false);
});

test('memoizedEqual walks a large pair once, however often it is compared', () => {
  let walks = 0;
  const big = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`node-${i}`, { uid: String(i) }]));
  const counted = <T extends object>(target: T) => new Proxy(target, { ownKeys: (t) => (walks++, Reflect.ownKeys(t)) });
  const now = counted(big(2000));
  const before = counted(big(1800));
  const equal = memoizedEqual();
  for (let i = 0; i < 100; i++) assert.equal(equal({ uid: String(i), network_metadata: { nodes: now } }, { uid: String(i), network_metadata: { nodes: before } }), false);
  assert.ok(walks <= 4, `the large pair was walked ${walks} times`);
  // Equal large pairs are remembered as equal too; small containers are still compared afresh.
  const same = big(50);
  const copy = structuredClone(same);
  assert.equal(equal(same, copy), true);
  copy['node-0'] = { uid: 'changed' };
  assert.equal(memoizedEqual()(same, copy), false, 'a fresh memo sees the change');
});

test('lifecycle functions answer the same with a shared memoizing comparison', () => {
  const old = { ...data, storage: { objects_ceph: true, images_ceph: true }, list: [3, 1], network_metadata: { nodes: { 'node-1': data.network_metadata.nodes['node-1'] } } };
  const equal = memoizedEqual(1);
  for (const text of ['changed($)', 'changed($.storage)', 'changed($.roles)', 'changedAny($.roles, $.network_metadata)', 'changedAll($.roles, $.storage)', 'added($.list)', 'deleted($.storage)', 'added($.network_metadata.nodes)', '$.uid in added($.network_metadata.nodes.values()).uid']) {
    for (const context of [{ data, old }, { data }, { data, old: {} }, { data, old: data }] as YaqlContext[]) {
      assert.deepEqual(value(text, { ...context, equal }), value(text, context), text);
      assert.deepEqual(value(text, { ...context, equal }), value(text, context), `${text}, again`);
    }
  }
});

test('added and deleted on lists match items by Python equality, keyed or pairwise alike', () => {
  // The pairwise multiset difference Fuel's datadiff computed, as the reference.
  const naive = (a: unknown[], b: unknown[]) => {
    const unused = [...a];
    return b.filter((x) => {
      const at = unused.findIndex((y) => pyEqual(x, y));
      if (at >= 0) unused.splice(at, 1);
      return at < 0;
    });
  };
  const item = fc.constantFrom<unknown>(1, true, 1.0, 0, false, -0, '1', 'a', null, [1], [true], [1, 2], [2, 1], { a: 1 }, { a: true }, { a: 1, b: 2 }, { b: 2, a: 1 }, new YaqlSet([1, 2]), new YaqlSet([2, 1]), new YaqlSet([1]), {}, []);
  fc.assert(
    fc.property(fc.array(item, { maxLength: 30 }), fc.array(item, { maxLength: 30 }), (before, now) => {
      const context: YaqlContext = { data: { list: now }, old: { list: before } };
      assert.deepEqual(value('added($.list)', context), toPlain(naive(before, now)));
      assert.deepEqual(value('deleted($.list)', context), toPlain(naive(now, before)));
    }),
    { numRuns: 300 },
  );
  // NaN equals nothing (not even itself), as in Python: it is always added.
  const nan = Array.from({ length: 10 }, (_, i) => (i === 3 ? Number.NaN : i));
  assert.equal((value('added($.list)', { data: { list: nan }, old: { list: nan } }) as unknown[]).length, 1);
});

test('added($.nodes) after a node left the middle of the list reads each entry a bounded number of times', () => {
  let walks = 0;
  const entry = (i: number) => new Proxy({ uid: String(i), internal_address: `192.168.0.${i}` }, { ownKeys: (t) => (walks++, Reflect.ownKeys(t)) });
  // Every entry after the removed one shifted its address, so nothing after it matches.
  const before = Array.from({ length: 2000 }, (_, i) => entry(i));
  const now = Array.from({ length: 2100 }, (_, i) => entry(i < 100 ? i : i + 5000));
  const added = value('added($.nodes)', { data: { nodes: now }, old: { nodes: before } }) as unknown[];
  assert.equal(added.length, 2000);
  assert.ok(walks <= 3 * 4100, `entries were read ${walks} times`);
});
