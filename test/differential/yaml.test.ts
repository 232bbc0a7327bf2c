/**
 * Differential test: our YAML reader against PyYAML's safe loader (libyaml's CSafeLoader when
 * available, as Heat uses; Fuel used PyYAML too) on every `*.yaml` of the shared corpus. Both must
 * give the same data, in the same key order, and a file PyYAML refuses must be refused or reported
 * by us too. One python3 process reads every file and answers in JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { readYamlFile } from '../../src/package/yaml/index.js';
import { corpusRoot, needsCorpus, yamlFiles } from '../support/corpus.js';

// Differences we choose, normalised on the Python side rather than listed file by file:
// - timestamps: PyYAML builds date objects; we keep the text (Heat's own loader does the same, and
//   the data ends up in JSON, where a date is a string anyway);
// - `!!binary`: bytes there, base64 text here; `!!set`: a Python set there, a mapping to null here;
//   `!!pairs`/`!!omap`: tuples there, two-item lists here; NaN and infinities have no JSON form.
const PYTHON = String.raw`
import sys, json, math, base64, yaml
Base = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)
class Loader(Base): pass
Loader.add_constructor('tag:yaml.org,2002:timestamp', lambda loader, node: loader.construct_scalar(node))
def key(k):
    if k is True: return 'true'
    if k is False: return 'false'
    if k is None: return 'null'
    if isinstance(k, tuple): return json.dumps(conv(list(k)))
    return str(k)
def conv(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return {'$float': 'nan' if math.isnan(v) else ('inf' if v > 0 else '-inf')}
    if isinstance(v, bytes): return base64.b64encode(v).decode()
    if isinstance(v, (list, tuple)): return [conv(x) for x in v]
    if isinstance(v, set): return {key(k): None for k in v}
    if isinstance(v, dict): return {key(k): conv(x) for k, x in v.items()}
    return v
out = {'libyaml': Base is not yaml.SafeLoader, 'files': {}}
for path in sys.stdin.read().split('\0'):
    if not path: continue
    try:
        with open(path, 'rb') as f: out['files'][path] = {'ok': True, 'value': conv(yaml.load(f, Loader=Loader))}
    except Exception as e:
        out['files'][path] = {'ok': False, 'error': str(e).split('\n')[0]}
json.dump(out, sys.stdout)
`;

/**
 * Files where we knowingly read something else than PyYAML, with the reason. None of the corpus
 * needs one today; one known kind is a mapping with both `1` and `true` as keys (Python's
 * `True == 1` merges them into one key; we keep two).
 */
const KNOWN_DIFFERENCES: Record<string, string> = {};

const python = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' });
const pythonMissing = python.status !== 0;
const skip = needsCorpus.skip || (pythonMissing && !process.env.CI ? 'python3 with PyYAML is not installed: YAML differential test skipped' : false);

function normalise(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return { $float: Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf' };
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

/** Where two JSON texts first differ, with some context, for a readable failure. */
function firstDifference(ours: string, theirs: string): string {
  let i = 0;
  while (i < ours.length && ours[i] === theirs[i]) i++;
  return `ours:   …${ours.slice(Math.max(0, i - 60), i + 60)}…\npyyaml: …${theirs.slice(Math.max(0, i - 60), i + 60)}…`;
}

test('every corpus YAML file reads as PyYAML reads it', { skip }, () => {
  assert.ok(!pythonMissing, 'python3 with PyYAML is required when CI is set');
  const root = corpusRoot as string;
  const files = ['plugins', 'release', 'heat'].flatMap((area) => yamlFiles(join(root, area)));
  assert.ok(files.length > 500, `expected the whole corpus, found only ${files.length} YAML files`);
  const run = spawnSync('python3', ['-c', PYTHON], { input: files.join('\0'), encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  assert.equal(run.status, 0, run.stderr);
  const answer = JSON.parse(run.stdout) as { libyaml: boolean; files: Record<string, { ok: boolean; value?: unknown; error?: string }> };
  if (!answer.libyaml) console.log('note: PyYAML has no libyaml here; compared with the pure-Python SafeLoader');

  const problems: string[] = [];
  let refusedByBoth = 0;
  let lenient = 0;
  for (const path of files) {
    const name = relative(root, path);
    if (KNOWN_DIFFERENCES[name]) continue;
    const theirs = answer.files[path];
    const ours = readYamlFile(path, name);
    if (ours.findings.some((f) => f.code === 'yaml/lenient-indentation')) lenient++;
    const oursRefused = !ours.ok || ours.findings.some((f) => f.severity === 'error' && f.code !== 'yaml/duplicate-key');
    if (!theirs.ok) {
      if (oursRefused) refusedByBoth++;
      else problems.push(`${name}: PyYAML refuses it (${theirs.error}) but we read it without an error`);
      continue;
    }
    if (oursRefused) {
      const first = ours.findings.find((f) => f.severity === 'error');
      problems.push(`${name}: PyYAML reads it but we refuse it: ${first?.line}:${first?.column} ${first?.message}`);
      continue;
    }
    const a = JSON.stringify(normalise(ours.value));
    const b = JSON.stringify(theirs.value);
    if (a !== b) problems.push(`${name}: values differ\n${firstDifference(a, b)}`);
  }
  console.log(`compared ${files.length} files: ${refusedByBoth} refused by both, ${lenient} read through libyaml's indentation leniency`);
  assert.deepEqual(problems, []);
  // The corpus holds unparseable Jinja files and at least one file that needs the leniency: make sure
  // both kinds were really exercised, so this test cannot pass by comparing nothing.
  assert.ok(refusedByBoth >= 1, 'expected some files refused by both readers (the Jinja templates)');
  assert.ok(lenient >= 1, 'expected some files that need libyaml leniency');
});
