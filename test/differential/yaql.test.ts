/**
 * Differential test: every YAQL expression of the corpus that uses only standard functions is
 * evaluated by Hearth and by the reference implementation (Debian's python3-yaql, configured as
 * Nailgun configured it) on the same deployment data; they must agree on the value, or both fail.
 * The lifecycle functions are Fuel's own and are tested directly in src/core/yaql.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath, corpusRoot } from '../support/corpus.js';
import { parseYaml } from '../../src/package/yaml/index.js';
import { evaluateYaql, formatYaql, parseYaql, standardFunctionNames, yaqlFunctions, type YaqlNode } from '../../src/core/yaql/index.js';
import { deploymentData } from './deployment-data.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The first Python that can import yaql: $HEARTH_PYTHON, python3 on PATH, Debian's own. */
function findPython(): string | undefined {
  for (const candidate of [process.env.HEARTH_PYTHON, 'python3', '/usr/bin/python3']) {
    if (!candidate) continue;
    const probe = spawnSync(candidate, ['-c', 'import yaql'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

const python = findPython();
const skip = !corpusRoot
  ? 'HEARTH_CORPUS not set: corpus tests skipped (CI runs them)'
  : !python && !process.env.CI
    ? 'python3 with yaql not found (apt-get install python3-yaql): YAQL differential test skipped (CI runs it)'
    : false;

function corpusYaql(): string[] {
  const found = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'yaql_exp' && typeof x === 'string') found.add(x.trim());
        else visit(x);
      }
    }
  };
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) visit(parseYaml(readFileSync(p, 'utf8'), p).value);
    }
  };
  walk(corpusPath('release'));
  walk(corpusPath('plugins'));
  return [...found].sort();
}

/** Only standard functions and only `$` (no Fuel variables): what the reference can evaluate. */
function standardOnly(ast: YaqlNode): boolean {
  let ok = true;
  const visit = (n: unknown): void => {
    if (!ok || n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(visit);
    const node = n as { kind?: string; name?: string };
    if (node.kind === 'call' && !standardFunctionNames.has(node.name!)) ok = false;
    if (node.kind === 'variable' && node.name !== '') ok = false;
    Object.values(n).forEach(visit);
  };
  visit(ast);
  return ok;
}

/**
 * The arguments of lifecycle calls (`changedAny($.a, $.b.where(...))`) are standard expressions
 * evaluated on the new data: printed back with formatYaql, they widen the comparison to nearly every
 * query the corpus makes.
 */
function lifecycleArguments(ast: YaqlNode, into: Set<string>): void {
  const visit = (n: unknown): void => {
    if (n === null || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(visit);
    const node = n as YaqlNode;
    if (node.kind === 'call' && yaqlFunctions[node.name]?.lifecycle) {
      for (const a of node.args) if (a.kind !== 'pair' && standardOnly(a)) into.add(formatYaql(a));
    }
    Object.values(n).forEach(visit);
  };
  visit(ast);
}

test('Hearth and python3-yaql agree on every standard YAQL expression of the corpus', { skip }, (t) => {
  assert.ok(python, 'CI must provide python3 with yaql (apt-get install python3-yaql)');
  const all = corpusYaql();
  assert.ok(all.length > 200, `only ${all.length} YAQL expressions found`);
  const parsed = all.map((text) => ({ text, ast: parseYaql(text).ast }));
  assert.deepEqual(parsed.filter((p) => !p.ast).map((p) => p.text), [], 'every corpus expression parses');
  const arguments_ = new Set<string>();
  parsed.forEach((p) => lifecycleArguments(p.ast!, arguments_));
  const whole = parsed.filter((p) => standardOnly(p.ast!));
  const standard = [...whole, ...[...arguments_].sort().map((text) => ({ text, ast: parseYaql(text).ast }))];
  assert.ok(arguments_.size > 100, `only ${arguments_.size} lifecycle arguments`);
  assert.ok(standard.length >= 20, `only ${standard.length} standard-only expressions`);
  const contexts = deploymentData();
  const run = spawnSync(python!, [join(here, 'yaql_reference.py')], {
    input: JSON.stringify({ contexts, expressions: standard.map((s) => s.text) }),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(run.status, 0, run.stderr);
  const reference = JSON.parse(run.stdout) as Array<Array<{ ok: boolean; value?: unknown; error?: string }>>;
  const disagreements: string[] = [];
  let evaluatedOk = 0;
  contexts.forEach((data, c) => {
    standard.forEach(({ text, ast }, e) => {
      const ours = evaluateYaql(ast!, { data });
      const theirs = reference[c][e];
      if (ours.ok && theirs.ok) {
        evaluatedOk++;
        try {
          assert.deepEqual(JSON.parse(JSON.stringify(ours.value)), theirs.value);
        } catch {
          disagreements.push(`context ${c}: ${text}\n  hearth: ${JSON.stringify(ours.value)}\n  yaql:   ${JSON.stringify(theirs.value)}`);
        }
      } else if (ours.ok !== theirs.ok) {
        disagreements.push(`context ${c}: ${text}\n  hearth: ${ours.ok ? JSON.stringify(ours.value) : ours.error.message}\n  yaql:   ${theirs.ok ? JSON.stringify(theirs.value) : theirs.error}`);
      }
    });
  });
  t.diagnostic(`${whole.length} of ${all.length} expressions are standard-only, plus ${arguments_.size} lifecycle arguments; ${evaluatedOk} of ${standard.length * contexts.length} evaluations compared values, the rest failed on both sides`);
  assert.deepEqual(disagreements, []);
  // The data must be rich enough that most comparisons are of values, not of two failures.
  assert.ok(evaluatedOk >= standard.length * contexts.length * 0.8, `only ${evaluatedOk} evaluations succeeded on both sides`);
});
