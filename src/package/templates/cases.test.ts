/** Every case of the shared Heat corpus (`corpus/heat/<release>/cases/*`), run through the library. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { corpusRoot, needsCorpus } from '../../../test/support/corpus.js';
import { findTemplates, resolveEnvironments, summariseTemplateFiles } from './index.js';

interface Case {
  kind: 'find' | 'summary' | 'resolve';
  description: string;
  args: { root: string; recursive?: boolean; constraints?: Record<string, string>; files?: string[]; environment?: string; extra_environments?: string[] };
  expect: Record<string, unknown>;
}

function cases(): { release: string; name: string; dir: string; spec: Case }[] {
  if (!corpusRoot) return [];
  const heat = join(corpusRoot, 'heat');
  const out = [];
  for (const release of readdirSync(heat)) {
    const dir = join(heat, release, 'cases');
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      out.push({ release, name, dir: join(dir, name), spec: JSON.parse(readFileSync(join(dir, name, 'case.json'), 'utf8')) as Case });
    }
  }
  return out;
}

const all = cases();

test('the corpus has cases of every kind', needsCorpus, () => {
  for (const kind of ['find', 'summary', 'resolve']) assert.ok(all.some((c) => c.spec.kind === kind), `no ${kind} case found`);
});

for (const { release, name, dir, spec } of all) {
  test(`${release}/${name}: ${spec.description}`, needsCorpus, () => {
    const root = join(corpusRoot as string, 'heat', release, spec.args.root);
    if (spec.kind === 'find') {
      const found = findTemplates([root], spec.args.constraints ?? {}, { recursive: spec.args.recursive ?? false });
      assert.deepEqual(
        found.templates.map((t) => relative(root, t).split('\\').join('/')),
        spec.expect.templates,
      );
      assert.deepEqual(found.findings.filter((f) => f.severity === 'error'), []);
    } else if (spec.kind === 'summary') {
      const summary = summariseTemplateFiles((spec.args.files ?? []).map((f) => join(root, f)));
      const rel = (paths: string[]) => paths.map((p) => relative(root, p).split('\\').join('/'));
      const types = Object.fromEntries(Object.entries(summary.types).map(([type, files]) => [type, rel(files)]));
      assert.deepEqual(summary.tags, spec.expect.tags);
      assert.deepEqual(types, spec.expect.types);
    } else {
      const envs = [spec.args.environment as string, ...(spec.args.extra_environments ?? [])].map((e) => join(dir, e));
      const result = resolveEnvironments(envs, { root });
      if ('resolved' in spec.expect) {
        assert.deepEqual(result.errors, []);
        assert.deepEqual(result.resolved, spec.expect.resolved);
      } else {
        assert.equal(result.errors.length, 1, result.errors.map((e) => e.message).join('\n'));
        const [error] = result.errors;
        assert.equal(error.kind, spec.expect.error);
        assert.equal(error.type, spec.expect.type);
        assert.deepEqual(error.candidates, spec.expect.candidates);
        assert.deepEqual(error.matching, spec.expect.matching);
      }
    }
  });
}
