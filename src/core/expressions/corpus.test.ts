import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpusPath, needsCorpus } from '../../../test/support/corpus.js';
import { parseYaml } from '../../package/yaml/index.js';
import { checkRestrictions, formatExpression, parseExpression, withoutColumns } from './index.js';

/** Every string condition of the corpus: role/setting restrictions and legacy task conditions. */
function corpusConditions(): string[] {
  const found: string[] = [];
  const visit = (v: unknown, key?: string): void => {
    if (Array.isArray(v)) {
      if (key === 'restrictions') {
        for (const r of v) {
          if (typeof r === 'string') found.push(r);
          else if (r && typeof r === 'object') {
            const m = r as Record<string, unknown>;
            if (typeof m.condition === 'string') found.push(m.condition);
            else if (!('condition' in m)) found.push(Object.keys(m)[0]);
          }
        }
      }
      v.forEach((x) => visit(x));
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'condition' && typeof x === 'string') found.push(x);
        visit(x, k);
      }
    }
  };
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(name)) visit(parseYaml(readFileSync(p, 'utf8'), p).value);
    }
  };
  walk(corpusPath('plugins'));
  walk(corpusPath('release'));
  return [...new Set(found)];
}

test('every restriction and string condition in the corpus parses, prints and evaluates', needsCorpus, () => {
  const conditions = corpusConditions();
  assert.ok(conditions.length > 100, `only ${conditions.length} conditions found`);
  const failures = conditions.filter((c) => !parseExpression(c).ast);
  assert.deepEqual(failures, []);
  for (const c of conditions) {
    const ast = parseExpression(c).ast!;
    assert.deepEqual(withoutColumns(parseExpression(formatExpression(ast)).ast!), withoutColumns(ast), c);
  }
  // With empty models every reference is unknown: each is undecided, with a finding, never a crash.
  const checks = checkRestrictions(conditions, {});
  assert.equal(checks.length, conditions.length);
  for (const check of checks) {
    if (check.unresolved.length) assert.ok(check.findings.length > 0 && !check.met, check.condition);
  }
});
