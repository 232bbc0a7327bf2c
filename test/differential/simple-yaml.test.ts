/**
 * The light YAML reader (src/package/yaml/simple.ts) against the full one on the real corpus:
 * every file it accepts must read exactly as the full reader reads it (data, key order, shared
 * aliases, every position), and it must accept the bulk of plugin files, or it saves nothing.
 * Then the same on corpus files damaged at random, where the light reader must give up on whatever
 * the full reader reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { readSimpleYaml } from '../../src/package/yaml/simple.js';
import { parseYaml } from '../../src/package/yaml/parse.js';
import { corpusRoot, needsCorpus, yamlFiles } from '../support/corpus.js';
import { readingDifference } from '../support/yaml-reading.js';

const numRuns = (n: number) => Number(process.env.HEARTH_PROPERTY_RUNS ?? n);

const text = (path: string) => readFileSync(path, 'utf8').replace(/^\uFEFF/, '');

/** Undefined when the light reader gave up or read `doc` as the full reader does; else the problem. */
function disagreement(doc: string, name: string): string | undefined {
  const light = readSimpleYaml(doc, name);
  if (!light) return undefined;
  const full = parseYaml(doc, name, { simple: false });
  // What the light reader says (a repeated key) is what the full reader says, word for word, at the same place.
  const said = parseYaml(doc, name).findings;
  if (JSON.stringify(said) !== JSON.stringify(full.findings)) return `${name}: the light reader says ${JSON.stringify(said)}, the full reader ${JSON.stringify(full.findings)}`;
  if (full.ok !== true) return `${name}: the light reader accepts it, the full reader refuses it`;
  const difference = readingDifference(light.value, full.value);
  return difference ? `${name}: ${difference}` : undefined;
}

test('every corpus file the light reader accepts reads exactly as the full reader reads it', needsCorpus, () => {
  const root = corpusRoot as string;
  const files = ['plugins', 'release', 'heat'].flatMap((area) => yamlFiles(join(root, area)));
  const problems: string[] = [];
  let accepted = 0;
  let pluginFiles = 0;
  let pluginAccepted = 0;
  for (const path of files) {
    const name = relative(root, path);
    const doc = text(path);
    const light = readSimpleYaml(doc, name) !== undefined;
    if (light) accepted++;
    if (name.startsWith('plugins/')) {
      pluginFiles++;
      if (light) pluginAccepted++;
    }
    const problem = disagreement(doc, name);
    if (problem) problems.push(problem);
  }
  console.log(`light reader: ${accepted} of ${files.length} corpus files, ${pluginAccepted} of ${pluginFiles} plugin files`);
  assert.deepEqual(problems, []);
  assert.ok(pluginAccepted > pluginFiles * 0.8, `the light reader read only ${pluginAccepted} of ${pluginFiles} plugin files`);
});

test('a key repeated in a block mapping: the light reader reads it, the later value wins, and it says so as the full reader does', () => {
  const doc = 'a: 1\nb:\n  c: 2\n  c: 3\n  d: [x]\na: 4\n';
  const light = readSimpleYaml(doc, 'f.yaml');
  assert.ok(light, 'the light reader gave up');
  assert.deepEqual(light.value, { a: 4, b: { c: 3, d: ['x'] } });
  assert.equal(disagreement(doc, 'f.yaml'), undefined);
  const said = parseYaml(doc, 'f.yaml').findings;
  assert.deepEqual(said.map((f) => [f.code, f.severity, f.line, f.column]), [['yaml/duplicate-key', 'warning', 4, 3], ['yaml/duplicate-key', 'warning', 6, 1]]);
  assert.match(said[1].message, /the key 'a' appears twice in one mapping \(first at line 1\)/);
  assert.equal(parseYaml(doc, 'f.yaml', { duplicateKeySeverity: 'error' }).findings[0].severity, 'error');
  // In a flow mapping it still leaves the file to the full reader.
  assert.equal(readSimpleYaml('a: {b: 1, b: 2}\n', 'f.yaml'), undefined);
});

test('an explicit key in a flow mapping, as PyYAML writes a long condition: the light reader reads it as the full reader does', () => {
  // Fuel's release attributes hold restrictions such as these; before, the whole 28 KB file went to the full reader (about 50 ms warm, 200 cold).
  const read = [
    "r:\n- {? 'networking_parameters:segmentation_type != ''vlan'' and settings:x.value\n    == false' : DVR requires L2 population.}\n",
    'r: {? plain long key : v, b: 2}\n',
    'r: {?\n    a : b}\n',
    'r: {a: {? "x\\ty" : [1, 2]}}\n',
  ];
  for (const doc of read) {
    assert.ok(readSimpleYaml(doc, 'f.yaml'), `the light reader gave up on ${JSON.stringify(doc)}`);
    assert.equal(disagreement(doc, 'f.yaml'), undefined);
  }
  assert.deepEqual(readSimpleYaml(read[0], 'f.yaml')!.value, { r: [{ "networking_parameters:segmentation_type != 'vlan' and settings:x.value == false": 'DVR requires L2 population.' }] });
  // Whatever it does not read exactly is left to the full reader, never read otherwise.
  const left = ['r: {? a}\n', 'r: {? [x] : 1}\n', 'r: {? a : 1, ? a : 2}\n', 'r: [? a : 1]\n', 'r: {?a : 1}\n', 'r: {? a: 1}\n', 'r: {? : 1}\n', '? a\n: b\n'];
  for (const doc of left) assert.equal(disagreement(doc, 'f.yaml'), undefined, doc);
});

test('property: on corpus files damaged at random, the light reader agrees with the full reader or gives up', needsCorpus, () => {
  const root = corpusRoot as string;
  const files = yamlFiles(join(root, 'plugins')).filter((path) => readSimpleYaml(text(path), path) !== undefined);
  const pieces = [' ', '  ', '\n', ':', ': ', '- ', '#', ' #', "'", '"', '[', ']', '{', '}', ',', '&a ', '*a', '|', '>', '-', '?', '!', '\\', 'é', '---\n', '\n  ', 'yes'];
  let runs = 0;
  let accepted = 0;
  const edit = fc.record({ at: fc.nat(), cut: fc.nat({ max: 3 }), insert: fc.constantFrom(...pieces) });
  fc.assert(
    fc.property(fc.constantFrom(...files), fc.array(edit, { minLength: 1, maxLength: 3 }), (path, edits) => {
      let doc = text(path);
      for (const { at, cut, insert } of edits) {
        const i = doc.length === 0 ? 0 : at % doc.length;
        doc = doc.slice(0, i) + insert + doc.slice(i + cut);
      }
      runs++;
      if (readSimpleYaml(doc, path) !== undefined) accepted++;
      const problem = disagreement(doc, relative(root, path));
      assert.equal(problem, undefined, `${problem}\nafter edits ${JSON.stringify(edits)}`);
    }),
    { numRuns: numRuns(400) },
  );
  console.log(`damaged files read by the light reader: ${accepted} of ${runs}`);
  assert.ok(accepted > runs / 5, `the light reader read only ${accepted} of ${runs} damaged files: the property tested little`);
});
