/**
 * The mechanisms behind a fast `state`, each checked against brute force on small random
 * catalogs: the clause-learning solver (answers, models and cores, with learned clauses kept
 * across questions), the greedy repair (what it returns is a real model), the proof ladder under
 * a zero search budget (never enabled without a proof), and the "unselect" fixes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyse, compileCatalog, complete, state, validate, type Catalog } from './index.js';
import { Cdcl } from './cdcl.js';
import { Repair } from './repair.js';
import { buildComponents, clickMask, randomCatalog, validMasks } from './fixtures/random-catalog.js';
import { needsCorpus, corpusPath } from '../../../test/support/corpus.js';
import { readFileSync } from 'node:fs';

function brute(catalog: Catalog) {
  const names = catalog.components.map((c) => c.name);
  const n = names.length;
  const valid = validMasks(n, (mask) => validate(catalog, names.filter((_, i) => mask & (1 << i))).valid);
  const completable = (m: number) => valid.some((ok, t) => ok && (t & m) === m);
  const maskOf = (xs: Iterable<number>) => [...xs].reduce((m, i) => m | (1 << i), 0);
  return { names, n, valid, completable, maskOf };
}

const picks = fc.array(fc.array(fc.nat(7), { maxLength: 4 }), { minLength: 1, maxLength: 8 });

test('Cdcl: sat, unsat and cores agree with brute force over many questions to one solver', () => {
  fc.assert(
    fc.property(randomCatalog, picks, (input, questions) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const b = brute(catalog);
      const solver = new Cdcl(catalog);
      for (const q of questions) {
        const assumptions = [...new Set(q.filter((i) => i < b.n))];
        const r = solver.solve(assumptions);
        const m = b.maskOf(assumptions);
        assert.notEqual(r.status, 'unknown');
        assert.equal(r.status === 'sat', b.completable(m), `question ${assumptions}`);
        if (r.status === 'sat') {
          const model = b.maskOf(r.model);
          assert.ok(b.valid[model], 'the model is a valid selection');
          assert.equal(model & m, m, 'the model contains the assumptions');
        } else if (r.status === 'unsat') {
          for (const x of r.core) assert.ok(assumptions.includes(x), 'a core holds assumptions only');
          assert.ok(!b.completable(b.maskOf(r.core)), 'the core alone cannot be completed');
        }
      }
    }),
    { seed: 11, numRuns: 300 },
  );
});

test('Repair: what it returns is a valid selection with the base choices and the component', () => {
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.nat(7), { maxLength: 3 }), (input, sel) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const b = brute(catalog);
      const selection = [...new Set(sel.filter((i) => i < b.n))].sort((x, y) => x - y);
      const solver = new Cdcl(catalog);
      const base = solver.solve(selection);
      if (base.status !== 'sat') return;
      solver.settle(selection.length);
      const repair = new Repair(catalog);
      repair.setBase(base.model, selection, (c) => solver.fixedFalse(c));
      for (let c = 0; c < b.n; c++) {
        if (repair.extendsBase(c)) assert.ok(b.valid[b.maskOf(base.model) | (1 << c)], `base + ${b.names[c]} is valid`);
        const mended = repair.tryAdd(c);
        if (mended) {
          const m = b.maskOf(mended);
          assert.ok(b.valid[m], `the mended model for ${b.names[c]} is valid`);
          assert.ok(m & (1 << c));
          assert.equal(m & b.maskOf(selection), b.maskOf(selection), 'the user choices are kept');
        }
        // Propagation only excludes what really cannot be completed.
        if (solver.fixedFalse(c)) assert.ok(!b.completable(b.maskOf(selection) | (1 << c)));
      }
      // Several at once ("also choose X" asks for the component and X together): a yes means a
      // valid selection holds all of them, even when one is already in the base and another clashes with it.
      for (let c = 0; c < b.n; c++) {
        for (let d = 0; d < b.n; d++) {
          if (c !== d && repair.canAddAll([c, d])) assert.ok(b.completable(b.maskOf(selection) | (1 << c) | (1 << d)), `${b.names[c]} and ${b.names[d]} can be chosen together`);
        }
      }
    }),
    { seed: 5, numRuns: 300 },
  );
});

test('with no search budget at all, nothing is enabled without a proof', () => {
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.nat(7), { maxLength: 3 }), (input, sel) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const b = brute(catalog);
      const selection = b.names.filter((_, i) => sel.includes(i));
      const s = state(catalog, selection, { budget: 0 });
      const m = b.maskOf(sel.filter((i) => i < b.n));
      s.components.forEach((c, i) => {
        if (c.checked) return;
        const after = clickMask(catalog, m, i).mask;
        if (c.enabled) assert.ok(b.completable(after), `${c.name} enabled without a completion`);
        if (c.deadEnd) assert.ok(!b.completable(after), `${c.name} called a dead end but has a completion`);
      });
    }),
    { seed: 3, numRuns: 200 },
  );
});

test('"unselect Y" fixes are true, and clicks reusing models and nogoods give the same fixes as a fresh state', () => {
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.nat(7), { minLength: 1, maxLength: 6 }), (input, clicks) => {
      const components = buildComponents(input);
      const catalog = compileCatalog(components, { requiredTypes: input.required });
      const b = brute(catalog);
      let selection: string[] = [];
      for (const i of clicks) {
        const name = b.names[i % b.n];
        selection = selection.includes(name) ? selection.filter((x) => x !== name) : [...selection, name];
        const s = state(catalog, selection);
        const fresh = state(compileCatalog(components, { requiredTypes: input.required }), selection);
        const chosen = b.maskOf(selection.map((x) => b.names.indexOf(x)));
        s.components.forEach((c, k) => {
          const unselect = c.fix.filter((f) => f.startsWith('unselect '));
          assert.deepEqual(unselect, fresh.components[k].fix.filter((f) => f.startsWith('unselect ')));
          assert.deepEqual([c.enabled, c.deadEnd], [fresh.components[k].enabled, fresh.components[k].deadEnd]);
          for (const f of unselect) {
            const y = catalog.components.findIndex((x) => f === `unselect ${x.display}`);
            assert.ok(y >= 0);
            assert.ok(b.completable(clickMask(catalog, chosen & ~(1 << y), k).mask), `${f} would not free ${c.name}`);
          }
        });
      }
    }),
    { seed: 17, numRuns: 120 },
  );
});

test('analyse: never-choosable components are exactly those no valid selection contains', () => {
  fc.assert(
    fc.property(randomCatalog, (input) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const b = brute(catalog);
      const findings = analyse(catalog);
      if (!b.valid.some(Boolean)) {
        assert.ok(findings.some((f) => f.code === 'component/catalog-unsatisfiable'));
        return;
      }
      const never = new Set(findings.filter((f) => f.code === 'component/never-choosable').flatMap((f) => f.components));
      b.names.forEach((name, i) => assert.equal(never.has(name), !b.completable(1 << i), name));
    }),
    { seed: 23, numRuns: 200 },
  );
});

test('the synthetic 2,000 catalog: every answer of a walk is backed by a valid model or a refutation', needsCorpus, () => {
  const components = JSON.parse(readFileSync(corpusPath('synthetic/components-2000.json'), 'utf8'));
  const catalog = compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] });
  const solver = new Cdcl(catalog);
  let selection: string[] = [];
  for (const group of ['hypervisor', 'network:core', 'storage:block']) {
    const s = state(catalog, selection, { fixes: false });
    const indices = selection.map((x) => catalog.byName.get(x) as number);
    // Spot-check every 25th component against the complete solver on its own.
    s.components.forEach((c, i) => {
      if (c.checked || i % 25 !== 0 || c.reasons.some((r) => r.includes('which is not chosen yet') || r.includes('cannot be used with'))) return;
      // A radio member is asked with the selection its click makes (its sibling replaced).
      const kept = indices.filter((x) => !c.replaces?.includes(catalog.components[x].name));
      const r = solver.solve([...kept, i]);
      assert.equal(r.status === 'sat', c.enabled, `${c.name} after ${selection.join(', ')}`);
      if (r.status === 'sat') assert.equal(validate(catalog, [...r.model].map((x) => catalog.components[x].name)).valid, true);
    });
    const pick = s.components.find((c) => c.enabled && !c.checked && c.group === group);
    assert.ok(pick);
    selection = [...selection, pick.name];
  }
});

test('the synthetic 10,000 catalog: X909 is a dead end (the chronological search gave up on it)', needsCorpus, () => {
  const components = JSON.parse(readFileSync(corpusPath('synthetic/components-10000.json'), 'utf8'));
  const catalog = compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] });
  const r = new Cdcl(catalog).solve([catalog.byName.get('hypervisor:x909') as number]);
  assert.equal(r.status, 'unsat');
  if (r.status === 'unsat') assert.deepEqual(r.core, [catalog.byName.get('hypervisor:x909')]);
  // complete says so too, proved rather than "ran out of budget" (it took the old search 5 s).
  const done = complete(catalog, ['hypervisor:x909']);
  assert.equal(done.ok, false);
  assert.equal(done.optimal, true);
  assert.match(done.reason ?? '', /X909 \(hypervisor:x909\) cannot be part of any valid selection/);
  const some = complete(catalog, ['hypervisor:x0']);
  assert.equal(some.ok, true);
  assert.equal(validate(catalog, some.selection).valid, true);
});
