import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readSimpleYaml } from './simple.js';
import { parseYaml } from './parse.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { readingDifference } from '../../../test/support/yaml-reading.js';

const numRuns = (n: number) => Number(process.env.HEARTH_PROPERTY_RUNS ?? n);
const full = (text: string) => parseYaml(text, 'f.yaml', { simple: false });

/** The light reader must read `text`, exactly as the full reader does. */
function readsLikeFull(text: string): unknown {
  const simple = readSimpleYaml(text, 'f.yaml');
  assert.ok(simple, `the light reader gave up on ${JSON.stringify(text)}`);
  const reference = full(text);
  assert.deepEqual(reference.findings, [], `the full reader has findings for ${JSON.stringify(text)}`);
  assert.equal(readingDifference(simple.value, reference.value), undefined, JSON.stringify(text));
  return simple.value;
}

test('the light reader reads what plugin files are made of, as the full reader does', () => {
  assert.deepEqual(readsLikeFull('# header\nname: x\nversion: 1.0.0\nflag: yes\nn: 0755\nempty:\nnull_: ~\n'), {
    name: 'x',
    version: '1.0.0',
    flag: true,
    n: 493,
    empty: null,
    null_: null,
  });
  assert.deepEqual(readsLikeFull('- id: a\n  type: puppet\n  role: [primary-controller, controller]\n  requires: [x,\n    y]\n  parameters:\n    timeout: 3600\n- id: b\n'), [
    { id: 'a', type: 'puppet', role: ['primary-controller', 'controller'], requires: ['x', 'y'], parameters: { timeout: 3600 } },
    { id: 'b' },
  ]);
  assert.deepEqual(readsLikeFull('k:\n- a\n-\n- - b\n  - c\nj: "q\\"x\\u00e9"\ns: \'it\'\'s\'\n'), { k: ['a', null, ['b', 'c']], j: 'q"x\u00e9', s: "it's" });
  assert.deepEqual(readsLikeFull('text: |\n  one\n   two\n\nfold: >-\n  a\n  b\n\n  c\nkeep: |+\n  x\n\nz: 1\n'), {
    text: 'one\n two\n',
    fold: 'a b\nc',
    keep: 'x\n\n',
    z: 1,
  });
  assert.deepEqual(readsLikeFull('description: a long\n  sentence over\n\n  lines # comment\nnext: {a: 1, "b": [2]}\n'), {
    description: 'a long sentence over\nlines',
    next: { a: 1, b: [2] },
  });
  assert.deepEqual(readsLikeFull("condition: \"settings:a == true and\n    settings:b   \n\n    == 'x'\"\nq: 'it''s\n  here'\n"), {
    condition: "settings:a == true and settings:b\n== 'x'",
    q: "it's here",
  });
  assert.deepEqual(readsLikeFull('base-os: {description: Install base Operating System without\n    additional packages, weight: 30}\n'), {
    'base-os': { description: 'Install base Operating System without additional packages', weight: 30 },
  });
  assert.deepEqual(readsLikeFull('[]\n'), []);
  assert.equal(readsLikeFull('# only a comment\n'), null);
  assert.deepEqual(readsLikeFull('---\na: 1\n'), { a: 1 });
});

test('anchors and aliases give the very same object, placed where the anchor is', () => {
  const value = readsLikeFull('a: &x\n  b: 1\nc: *x\nd: &s text\ne: *s\n') as Record<string, unknown>;
  assert.equal(value.c, value.a);
  assert.equal(value.e, 'text');
  assert.deepEqual(positionOf(value, 'c'), { file: 'f.yaml', line: 3, column: 4 });
  assert.deepEqual(positionOf(value.c), { file: 'f.yaml', line: 2, column: 3 });
});

test('printable characters beyond ASCII stay with the light reader', () => {
  assert.deepEqual(readsLikeFull('name: caf\u00e9\nlabel: \u2615 \ud83d\ude00\nnbsp: a\u00a0b\n'), { name: 'caf\u00e9', label: '\u2615 \ud83d\ude00', nbsp: 'a\u00a0b' });
});

test('positions: keys, values, empty values and values on the next line', () => {
  const value = readsLikeFull('top:\n  name: x\n  empty:   # note\n  list:\n  - one\n') as { top: Record<string, unknown> };
  assert.deepEqual(keyPositionOf(value.top, 'name'), { file: 'f.yaml', line: 2, column: 3 });
  assert.deepEqual(positionOf(value.top, 'empty'), { file: 'f.yaml', line: 3, column: 12 });
  assert.deepEqual(positionOf(value.top, 'list'), { file: 'f.yaml', line: 5, column: 3 });
  assert.deepEqual(positionOf(value.top.list, 0), { file: 'f.yaml', line: 5, column: 5 });
});

test('the light reader gives up on everything outside its subset, and parseYaml still reads it fully', () => {
  const outside = [
    'a: {b: 1, b: 2}\n', // a key repeated in a flow mapping (in a block mapping it is read and told: simple-yaml.test.ts)
    'a: !!str 1\n', // tags
    'a: !custom x\n',
    '? complex\n: key\n',
    'base: &b {x: 1}\nother:\n  <<: *b\n', // merge keys
    '- &a key: v\n', // an anchored key
    'a: *missing\n',
    'a: "two \\\n  lines"\n', // an escaped line break in a quoted string
    '"a\n  b": 1\n', // a key over two lines
    'a: "one\ntwo"\n', // a continuation no deeper than its key (libyaml leniency)
    'a:\tb\n', // tabs
    'a: 1\r\nb: 2\r\n', // carriage returns
    'a: b\u0001\n', // other controls, DEL and the C1 controls
    'a: b\u007f\n',
    'a: b\u0085c\n', // NEL, a line break in YAML 1.1
    'a: b\u009f\n',
    'a: b\u2028c\n', // the Unicode line and paragraph separators
    'a: b\u2029c\n',
    'a: b\ufeff\n', // a byte order mark past the start
    'a: \ud800\n', // a lone surrogate, which libyaml refuses
    'a: b: c\n', // not YAML
    'a: [x,\ny]\n', // a flow continuation no deeper than its key (libyaml leniency)
    'x: =\n', // the YAML 1.1 value type
    '%YAML 1.1\n---\na: 1\n',
    'a: 1\n---\nb: 2\n',
    'a: |2\n   x\n', // indentation indicators
    'a: "\\/"\n',
    'plain scalar document\n',
    'a: [x: 1]\n',
    `${'[' .repeat(80)}${']'.repeat(80)}\n`,
  ];
  for (const text of outside) {
    assert.equal(readSimpleYaml(text, 'f.yaml'), undefined, `should give up on ${JSON.stringify(text)}`);
    const viaParse = parseYaml(text, 'f.yaml');
    const reference = full(text);
    assert.deepEqual(viaParse.findings, reference.findings, JSON.stringify(text));
    assert.equal(viaParse.ok, reference.ok);
    if (reference.ok) assert.equal(readingDifference(viaParse.value, reference.value), undefined);
  }
});

test('an alias bomb is left to the full reader, which refuses it', () => {
  const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 8; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
  const bomb = `${lines.join('\n')}\n`;
  // Aliases in flow collections are outside the subset anyway; block ones expand just as well.
  const block = ['a0: &a0', ...Array(10).fill('  - x')];
  for (let i = 1; i < 7; i++) block.push(`a${i}: &a${i}`, ...Array(10).fill(`  - *a${i - 1}`));
  for (const text of [bomb, `${block.join('\n')}\n`]) {
    assert.equal(readSimpleYaml(text, 'f.yaml'), undefined);
    const result = parseYaml(text, 'f.yaml', { maxExpandedNodes: 100_000 });
    assert.equal(result.ok, false);
  }
});

// Documents made of the pieces plugin files use, put together at random (often invalid on
// purpose). Whenever the light reader accepts one, the full reader must read the same thing.
const scalar = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('name', 'x y', 'yes', '0755', 'null', 'id-1', '1.5', 'a:b', 'a#b') },
  fc.constantFrom('x', 'yes', 'No', '~', 'null', '1', '-2', '0755', '1.5', '1e3', '0x1F', '1:30', '2024-01-02', 'a b', 'a:b', 'a #b', 'a#b', '-x', ':x', '=', '.inf', 'é', "it's", 'q"', ''),
  fc.stringMatching(/^[a-z0-9 :#'"\-_.,[\]{}&*!|>?%@]{0,8}$/),
);
const quoted = fc
  .tuple(scalar, fc.constantFrom('plain', 'plain', 'single', 'double'))
  .map(([s, style]) => (style === 'single' ? `'${s.replace(/'/g, "''")}'` : style === 'double' ? JSON.stringify(s) : s));
const comment = fc.constantFrom('', '', '', ' # c', '  #c', '#c');
const blank = fc.constantFrom('', '', '', '\n', '\n# note\n', '\n   \n');

type Piece = { text: string };
const inline: fc.Arbitrary<string> = fc.oneof(
  quoted,
  fc.array(quoted, { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`),
  fc
    .tuple(fc.array(quoted, { maxLength: 4 }), fc.constantFrom(',\n    ', '\n    , ', ', ', ',\n\n      ', ',\n'))
    .map(([xs, sep]) => `[${xs.join(sep)}]`),
  fc
    .tuple(scalar, scalar, scalar, fc.constantFrom('\n    ', '\n\n    ', ' \n   ', '\n'))
    .map(([k, a, b, brk]) => `{${k}: ${a}${brk}${b}, z: 1}`),
  fc.array(fc.tuple(scalar, quoted), { maxLength: 3 }).map((kv) => `{${kv.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
  fc.tuple(fc.constantFrom('|', '>', '|-', '>+', '|+'), fc.array(scalar, { minLength: 1, maxLength: 3 })).map(([h, ls]) => `${h}\n${ls.map((l) => `    ${l}`).join('\n')}`),
  fc.constantFrom('*a', '&a v', '&b', '', 'x\n    continued'),
  fc
    .tuple(scalar, scalar, fc.constantFrom('"', "'"), fc.constantFrom('\n    ', '\n\n    ', '  \n      ', '\n  ', '\n', ' \\\n    '))
    .map(([a, b, q, brk]) => `${q}${a.replace(/["'\\]/g, '')}${brk}${b.replace(/["'\\]/g, '')}${q}`),
);

function block(depth: number): fc.Arbitrary<Piece> {
  const leaf = fc.tuple(inline, comment).map(([v, c]) => ({ text: `${v}${c}` }));
  if (depth === 0) return leaf;
  const child = block(depth - 1);
  const indentChild = (t: string, n: number) => t.split('\n').map((l) => (l ? ' '.repeat(n) + l : l)).join('\n');
  const mapping = fc.array(fc.tuple(scalar, fc.boolean(), child, blank, fc.constantFrom(2, 2, 4, 1)), { minLength: 1, maxLength: 4 }).map((entries) => ({
    text: entries
      .map(([k, below, v, b, n]) => (below || v.text.includes('\n') ? `${k}:\n${indentChild(v.text, n)}` : `${k}: ${v.text}`) + b)
      .join('\n'),
  }));
  const sequence = fc.array(fc.tuple(child, blank, fc.boolean()), { minLength: 1, maxLength: 4 }).map((items) => ({
    text: items.map(([v, b, below]) => (below ? `-\n${indentChild(v.text, 2)}` : `- ${indentChild(v.text, 2).trimStart()}`) + b).join('\n'),
  }));
  return fc.oneof(leaf, mapping, sequence);
}

test('property: whatever the light reader accepts, the full reader reads the same way', () => {
  let accepted = 0;
  let runs = 0;
  fc.assert(
    fc.property(block(3), fc.boolean(), ({ text }, header) => {
      runs++;
      const doc = `${header ? '---\n' : ''}${text}\n`;
      const simple = readSimpleYaml(doc, 'f.yaml');
      if (!simple) return;
      accepted++;
      const reference = full(doc);
      // A repeated key is the one thing both say; in the same words, at the same place.
      assert.deepEqual(parseYaml(doc, 'f.yaml').findings, reference.findings, `the light reader and the full reader say different things on:\n${doc}`);
      assert.equal(reference.ok, true, doc);
      assert.equal(readingDifference(simple.value, reference.value), undefined, doc);
    }),
    { numRuns: numRuns(600) },
  );
  // The property says little if the generated documents were all given up on.
  assert.ok(accepted > runs / 10, `only ${accepted} of ${runs} generated documents were read by the light reader`);
});

test("Nailgun's release fixture: !!pairs, and a flow list closed at its key's indentation, read as the full reader reads them", () => {
  assert.deepEqual(readsLikeFull('c:\n  bind: !!pairs\n    - "cluster:net_provider": "neutron"\n    - cluster:segment: vlan\n  weight: 5\n'), { c: { bind: [['cluster:net_provider', 'neutron'], ['cluster:segment', 'vlan']], weight: 5 } });
  assert.deepEqual(readsLikeFull('bind: !!pairs\n- a: {x: 1}\n- b: [1, 2]\nnext: 1\n'), { bind: [['a', { x: 1 }], ['b', [1, 2]]], next: 1 });
  assert.deepEqual(readsLikeFull('top:\n  ids: [\n    "14e4:1639", "14e4:163a",\n    "14e4:16ad"\n  ]\n  more: {a: 1,\n    b: 2\n  }\n'), { top: { ids: ['14e4:1639', '14e4:163a', '14e4:16ad'], more: { a: 1, b: 2 } } });
  assert.deepEqual(readsLikeFull('a: [x,\n  y\n]\n'), { a: ['x', 'y'] });
  // What the light reader leaves to the full one: a key not read as a string, two pairs in one item, anchors inside.
  for (const text of ['b: !!pairs\n  - 1: x\n', 'b: !!pairs\n  - a: 1\n    b: 2\n', 'b: !!pairs\n  - a: &x 1\n', 'b: !!pairs\n  - "yes": 1\n', 'b: !!pairs []\n', '- !!pairs\n  - a: 1\n']) {
    assert.equal(readSimpleYaml(text, 'f.yaml'), undefined, `should give up on ${JSON.stringify(text)}`);
    const reference = full(text);
    const viaParse = parseYaml(text, 'f.yaml');
    assert.equal(readingDifference(viaParse.value, reference.value), undefined);
  }
});
