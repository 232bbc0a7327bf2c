/**
 * Property tests on random small catalogs, checked against brute force over every subset:
 * an enabled option really has a valid completion, a dead end really has none, `validate` and
 * `state` agree, and `complete` finds a smallest completion.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { WIZARD_PANES, compileCatalog, complete, state, validate, wizardPaneOf } from './index.js';
import { buildComponents, clickMask, randomCatalog } from './fixtures/random-catalog.js';
import { readFileSync } from 'node:fs';
import { corpusPath, needsCorpus } from '../../../test/support/corpus.js';

// The random catalogs shared with engine.test.ts, plus a starting selection.
const catalogArb = fc.tuple(randomCatalog, fc.array(fc.nat(7), { maxLength: 3 })).map(([catalog, selection]) => ({ ...catalog, selection }));
const build = buildComponents;
// HEARTH_PROPERTY_RUNS (npm run fuzz) asks for more.
const numRuns = (n: number) => Number(process.env.HEARTH_PROPERTY_RUNS ?? n);

test('state, validate and complete agree with brute force on random catalogs', () => {
  fc.assert(
    fc.property(catalogArb, (input) => {
      const components = build(input);
      const catalog = compileCatalog(components, { requiredTypes: input.required });
      const names = catalog.components.map((c) => c.name);
      const n = names.length;
      const valid: boolean[] = [];
      for (let mask = 0; mask < 1 << n; mask++) valid.push(validate(catalog, names.filter((_, i) => mask & (1 << i))).valid);
      const selMask = input.selection.filter((i) => i < n).reduce((m, i) => m | (1 << i), 0);
      const selection = names.filter((_, i) => selMask & (1 << i));
      const completable = (m: number) => valid.some((ok, t) => ok && (t & m) === m);
      const s = state(catalog, selection);
      assert.equal(s.valid, valid[selMask], 'state.valid agrees with validate');
      assert.equal(s.completable, completable(selMask), 'completable agrees with brute force');
      s.components.forEach((c, i) => {
        if (c.checked) return;
        // A radio member's click replaces its checked sibling: that is the selection it is judged by.
        const possible = completable(clickMask(catalog, selMask, i).mask);
        if (c.enabled) assert.ok(possible, `${c.name} is enabled but has no valid completion`);
        if (c.deadEnd) assert.ok(!possible, `${c.name} is a dead end but ${c.name} has a completion`);
        if (!possible) assert.ok(!c.enabled, `${c.name} has no completion but is enabled`);
      });
      const done = complete(catalog, selection);
      assert.equal(done.ok, completable(selMask));
      if (done.ok) {
        assert.equal(validate(catalog, done.selection).valid, true);
        const best = Math.min(...valid.map((ok, t) => (ok && (t & selMask) === selMask ? popcount(t) : Infinity)));
        if (done.optimal) assert.equal(done.selection.length, best);
      }
    }),
    { seed: 20240405, numRuns: numRuns(400) },
  );
});

test('state after a sequence of clicks equals state computed from scratch', () => {
  fc.assert(
    fc.property(catalogArb, fc.array(fc.nat(7), { minLength: 1, maxLength: 6 }), (input, clicks) => {
      const components = build(input);
      const incremental = compileCatalog(components, { requiredTypes: input.required });
      const names = incremental.components.map((c) => c.name);
      let selection: string[] = [];
      for (const i of clicks) {
        const name = names[i % names.length];
        selection = selection.includes(name) ? selection.filter((x) => x !== name) : [...selection, name];
        const a = state(incremental, selection);
        const b = state(compileCatalog(components, { requiredTypes: input.required }), selection);
        assert.deepEqual(
          a.components.map((c) => [c.name, c.enabled, c.deadEnd]),
          b.components.map((c) => [c.name, c.enabled, c.deadEnd]),
        );
      }
    }),
    { seed: 7, numRuns: numRuns(150) },
  );
});

// The server shares one engine per catalog across users: what one user asked before must never
// change what another is shown. Everything (checked, enabled, reasons, fixes, green light) is
// compared, not only the yes/no answers: the "also choose X" a disabled component offers and the
// sentence of a dead end once depended on the proofs found for earlier questions.
test('the whole state is a function of the catalog and the selection: a walked engine answers as a fresh one', () => {
  const selectionArb = fc.array(fc.nat(7), { maxLength: 4 });
  fc.assert(
    fc.property(randomCatalog, fc.array(selectionArb, { minLength: 1, maxLength: 5 }), selectionArb, (input, walk, target) => {
      const components = build(input);
      const walked = compileCatalog(components, { requiredTypes: input.required });
      const names = walked.components.map((c) => c.name);
      const pick = (xs: number[]) => [...new Set(xs.map((i) => names[i % names.length]))];
      for (const sel of walk) state(walked, pick(sel));
      const fresh = compileCatalog(components, { requiredTypes: input.required });
      assert.deepEqual(state(walked, pick(target)), state(fresh, pick(target)));
    }),
    { seed: 30, numRuns: numRuns(300) },
  );
});

// The web UI asks for the pane it shows (issue 30: a pane's first answer proves that pane's
// components, as Fuel's Compute pane checks only hypervisors). Whatever panes were asked before,
// by whichever users, a pane's answer for each of its components and each chosen one is exactly
// the whole state's, the rest are `unchecked` and disabled, and the whole state asked next is the
// fresh engine's. Fails when a component outside the panes is shown as proved, or a pane's proof
// depends on what the earlier narrow questions left open.
test('a state asked for some panes answers each of their components as the whole state does', () => {
  const selectionArb = fc.array(fc.nat(7), { maxLength: 4 });
  const panesArb = fc.subarray([...WIZARD_PANES], { minLength: 1 });
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.tuple(selectionArb, panesArb), { minLength: 1, maxLength: 6 }), (input, walk) => {
      const components = build(input);
      const walked = compileCatalog(components, { requiredTypes: input.required });
      const names = walked.components.map((c) => c.name);
      const pick = (xs: number[]) => [...new Set(xs.map((i) => names[i % names.length]))];
      for (const [sel, panes] of walk) {
        const selection = pick(sel);
        const narrow = state(walked, selection, { panes });
        const whole = state(compileCatalog(components, { requiredTypes: input.required }), selection);
        assert.equal(narrow.valid, whole.valid);
        assert.equal(narrow.completable, whole.completable);
        assert.equal(narrow.blocked, whole.blocked);
        assert.deepEqual(narrow.findings, whole.findings);
        narrow.components.forEach((c, i) => {
          if (c.checked || panes.includes(wizardPaneOf(c.name))) assert.deepEqual(c, whole.components[i], `${c.name} on ${panes.join(',')}`);
          else {
            assert.equal(c.unchecked, true, `${c.name} outside ${panes.join(',')}`);
            assert.equal(c.enabled, false);
            assert.equal(whole.components[i].unchecked, undefined);
          }
        });
      }
      const last = pick(walk[walk.length - 1][0]);
      assert.deepEqual(state(walked, last), state(compileCatalog(components, { requiredTypes: input.required }), last));
    }),
    { seed: 31, numRuns: numRuns(300) },
  );
});

test('the synthetic 200 catalog: one choice or a few, asked after a walk or first, give identical states', needsCorpus, () => {
  const components = JSON.parse(readFileSync(corpusPath('synthetic/components-200.json'), 'utf8'));
  const options = { requiredTypes: ['hypervisor', 'network', 'storage'] };
  const walked = compileCatalog(components, options);
  const names = walked.components.map((c) => c.name);
  const at = (i: number) => names[i % names.length];
  // Others' clicks first: single choices, then pairs across the panes.
  for (let i = 0; i < 12; i++) state(walked, i % 2 ? [at(i * 37)] : [at(i * 37), at(i * 53 + 7)]);
  for (let i = 0; i < 12; i++) {
    const selection = i % 3 === 2 ? [at(i * 13 + 5), at(i * 29 + 11), at(i * 41 + 3)] : [at(i * 13 + 5)];
    const whole = state(compileCatalog(components, options), selection);
    assert.deepEqual(state(walked, selection), whole, `selection ${selection.join(', ')}`);
    // Each pane asked alone, as the wizard asks on entering it: its components as in the whole state.
    for (const pane of WIZARD_PANES) {
      const narrow = state(walked, selection, { panes: [pane] });
      narrow.components.forEach((c, k) => {
        if (c.checked || wizardPaneOf(c.name) === pane) assert.deepEqual(c, whole.components[k], `${c.name} on ${pane}, selection ${selection.join(', ')}`);
        else assert.equal(c.unchecked, true);
      });
    }
  }
});

function popcount(x: number): number {
  let c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}
