/**
 * Moving repaired proofs onto the next click's base (rebase.ts), checked against brute force:
 * whatever the check lets through is a valid selection with the new choices and the component,
 * and every proof `Proofs` keeps over a sequence of clicks (carried, rebased, repaired or
 * searched) is a real model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { compileCatalog, state, validate, type Catalog } from './index.js';
import { Cdcl } from './cdcl.js';
import { Proofs } from './proofs.js';
import { Rebase } from './rebase.js';
import { Replacements, inWitness, replacementsOf, replacingMembers } from './radio.js';
import { Repair } from './repair.js';
import { buildComponents, randomCatalog, validMasks } from './fixtures/random-catalog.js';
import { corpusPath, needsCorpus } from '../../../test/support/corpus.js';

const numRuns = (n: number) => Number(process.env.HEARTH_PROPERTY_RUNS ?? n);

function validity(catalog: Catalog) {
  const names = catalog.components.map((c) => c.name);
  const valid = validMasks(names.length, (mask) => validate(catalog, names.filter((_, i) => mask & (1 << i))).valid);
  const maskOf = (xs: Iterable<number>): number => [...xs].reduce((mask, i) => mask | (1 << i), 0);
  return { n: names.length, valid, maskOf };
}

/** The model proving `c`, built from what `Proofs` answers about its members. */
function witnessOf(e: Proofs, c: number): number[] {
  const out: number[] = [];
  for (let x = 0; x < e.catalog.components.length; x++) if (x === c || e.inWitness(c, x)) out.push(x);
  return out;
}

/** The selection with each of `step` (modulo n) toggled. */
function toggled(selection: number[], step: readonly number[], n: number): number[] {
  let out = selection;
  for (const i of new Set(step.map((x) => x % n))) out = out.includes(i) ? out.filter((y) => y !== i) : [...out, i];
  return out;
}

/** `itemsInWitness` answers exactly `inWitness` over the items, in ascending order. */
function assertItemsInWitness(e: Proofs, c: number, items: Int32Array): void {
  const out: number[] = [];
  const k = e.itemsInWitness(c, items, out);
  assert.deepEqual(out.slice(0, k), [...items].filter((x) => e.inWitness(c, x)));
}

test('Rebase: a change that passes the check is a valid selection on the new base', () => {
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.nat(7), { maxLength: 3 }), fc.nat(7), (input, sel, click) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const b = validity(catalog);
      const before = [...new Set(sel.filter((i) => i < b.n))];
      const x = click % b.n;
      if (before.includes(x)) return;
      const after = [...before, x];
      const solver = new Cdcl(catalog);
      const oldBase = solver.solve(before);
      const newBase = new Cdcl(catalog).solve(after);
      if (oldBase.status !== 'sat' || newBase.status !== 'sat') return;
      solver.settle(before.length);
      const repair = new Repair(catalog);
      repair.setBase(oldBase.model, before, (c) => solver.fixedFalse(c));
      const rebase = new Rebase(catalog);
      rebase.setBase(newBase.model, after);
      const chosen = b.maskOf(after);
      for (let c = 0; c < b.n; c++) {
        if (repair.isInBase(c)) continue;
        // The check starts from a model: the old base + c must be one.
        if (repair.extendsBase(c) && rebase.holdsWith(oldBase.model, c)) {
          const m: number = b.maskOf(newBase.model) | (1 << c);
          assert.ok(b.valid[m], `new base + ${c} is valid`);
          assert.equal(m & chosen, chosen);
        }
        if (!repair.canAdd(c)) continue;
        const { added, dropped } = repair.lastChange();
        if (!rebase.holds(oldBase.model, added, dropped, c)) continue;
        const m: number = (b.maskOf(newBase.model) & ~b.maskOf(dropped)) | b.maskOf(added);
        assert.ok(b.valid[m], `new base - [${dropped}] + [${added}] is valid`);
        assert.equal(m & chosen, chosen, 'the new choices are kept');
        assert.ok(m & (1 << c), 'the component is in it');
      }
    }),
    { seed: 41, numRuns: numRuns(400) },
  );
});

test('Proofs: over a sequence of clicks every proof kept is a valid selection with the choices', () => {
  let rebased = 0;
  fc.assert(
    // A step toggles one to three components at once (a radio click removes and adds in one step).
    fc.property(randomCatalog, fc.array(fc.array(fc.nat(7), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }), (input, steps) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const b = validity(catalog);
      const e = new Proofs(catalog);
      let selection: number[] = [];
      for (const step of steps) {
        selection = toggled(selection, step, b.n);
        e.refresh(selection, 100_000);
        rebased += e.stats.rebased;
        if (!e.baseOk) continue;
        const chosen = b.maskOf(selection);
        // A dead end kept or told again rests only on what is chosen now, and so does its sentence.
        for (const [c, d] of e.dead) {
          assert.equal(b.maskOf(d.core) & chosen, b.maskOf(d.core), `the core of ${c} is chosen`);
          if (d.cites) assert.equal(b.maskOf(d.cites) & chosen, b.maskOf(d.cites), `the explanation of ${c} cites only chosen components`);
        }
        for (let c = 0; c < b.n; c++) {
          if (!e.choosable(c)) continue;
          const m = b.maskOf(witnessOf(e, c));
          assert.ok(b.valid[m], `the witness of ${c} after [${selection}] is valid`);
          for (const k of catalog.triggeredBy[c]) assertItemsInWitness(e, c, catalog.constraints[k].items);
          assert.equal(m & chosen, chosen, `the witness of ${c} keeps the choices`);
        }
      }
    }),
    { seed: 43, numRuns: numRuns(300) },
  );
  assert.ok(rebased > 0, 'some proofs were rebased');
});

test('the synthetic 2,000 catalog: the witnesses of a walk, rebased from click to click, are valid selections', needsCorpus, () => {
  const components = JSON.parse(readFileSync(corpusPath('synthetic/components-2000.json'), 'utf8'));
  const catalog = compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] });
  const names = catalog.components.map((c) => c.name);
  const e = new Proofs(catalog);
  const selection: number[] = [];
  // Proofs keeps the array it is given: each click passes a new one, as state does.
  e.refresh([], 100_000);
  for (const group of ['hypervisor', 'network:core', 'network:ml2', 'storage:block', 'storage:image', 'additional_service']) {
    const pick = catalog.components.find((c) => c.group === group && !selection.includes(c.index) && e.choosable(c.index) && catalog.conflicts[c.index].every((y) => !selection.includes(y)));
    assert.ok(pick, group);
    selection.push(pick.index);
    e.refresh([...selection], 100_000);
    assert.ok(e.baseOk);
    let checked = 0;
    for (let c = 0; c < catalog.components.length; c += 7) {
      if (!e.choosable(c)) continue;
      const model = witnessOf(e, c);
      for (const s of selection) assert.ok(model.includes(s));
      // Long rules (thousands of items) are answered by walking the witness instead.
      for (const k of catalog.triggeredBy[c]) assertItemsInWitness(e, c, catalog.constraints[k].items);
      assertItemsInWitness(e, c, catalog.constraints[catalog.global[0]].items);
      assert.equal(validate(catalog, model.map((x) => names[x])).valid, true, `${names[c]} after ${selection.map((x) => names[x]).join(', ')}`);
      checked++;
    }
    assert.ok(checked > 100);
    if (selection.length > 1) assert.ok(e.stats.rebased > 0, 'proofs were rebased');
  }
});

test('Replacements: over a sequence of clicks every radio member proved choosable has a valid selection with its kept choices', () => {
  let members = 0;
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.nat(7), { minLength: 1, maxLength: 8 }), (input, clicks) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const b = validity(catalog);
      const radio = new Replacements(catalog);
      const e = new Proofs(catalog);
      let selection: number[] = [];
      for (const i of clicks) {
        const x = i % b.n;
        selection = selection.includes(x) ? selection.filter((y) => y !== x) : [...selection, x];
        const replacing = replacementsOf(catalog, selection, replacingMembers(catalog, selection));
        // As state does: the main proofs first (their answers for the selection before are reused
        // when a member's kept selection is that one), and the selection's model to start from.
        e.refresh(selection, 100_000, [...replacing.keys()]);
        const verdicts = radio.prove([...replacing].map(([member, rep]) => ({ member, kept: rep.kept })), 100_000, e.baseModel, (c, kept) => e.previously(c, kept));
        for (const [m, v] of verdicts) {
          if (v.status === 'unsat') {
            assert.ok(!b.valid.some((ok, t) => ok && (t & (b.maskOf(v.kept) | (1 << m))) === (b.maskOf(v.kept) | (1 << m))), `${m} with [${v.kept}] has a completion`);
            continue;
          }
          if (v.status !== 'sat') continue;
          members++;
          const model: number[] = [m];
          for (let y = 0; y < b.n; y++) if (inWitness(v.witness, y)) model.push(y);
          const mask = b.maskOf(model);
          assert.ok(b.valid[mask], `the witness of ${m} after [${selection}] is valid`);
          const kept = b.maskOf(v.kept);
          assert.equal(mask & kept, kept, 'it keeps what the click keeps');
        }
      }
    }),
    { seed: 47, numRuns: numRuns(300) },
  );
  assert.ok(members > 0);
});

test('state after steps that add and remove several components at once equals state from scratch', () => {
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.array(fc.nat(7), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 6 }), (input, steps) => {
      const components = buildComponents(input);
      const incremental = compileCatalog(components, { requiredTypes: input.required });
      const names = incremental.components.map((c) => c.name);
      let selection: number[] = [];
      for (const step of steps) {
        selection = toggled(selection, step, names.length);
        const chosen = selection.map((x) => names[x]);
        const a = state(incremental, chosen);
        const b = state(compileCatalog(components, { requiredTypes: input.required }), chosen);
        assert.deepEqual(
          a.components.map((c) => [c.name, c.enabled, c.deadEnd]),
          b.components.map((c) => [c.name, c.enabled, c.deadEnd]),
        );
      }
    }),
    { seed: 53, numRuns: numRuns(200) },
  );
});
