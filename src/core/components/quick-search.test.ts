/**
 * The explaining solver's quick search (no proofs recorded) skips a decision that failed by
 * propagation before while everything that failure rested on still holds (solver.ts `failing`).
 * It must take exactly the decisions the recording search takes: `explainWithin` reads its answer
 * and its budget as the recording search's, and the words of a dead end depend on them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { compileCatalog, state } from './index.js';
import { Solver } from './solver.js';
import { buildComponents, randomCatalog } from './fixtures/random-catalog.js';
import type { Catalog } from './catalog.js';
import { corpusPath, needsCorpus } from '../../../test/support/corpus.js';

/** Asks `c` both ways on the solver's assumed selection; returns the decisions taken. */
function sameBothWays(solver: Solver, catalog: Catalog, c: number, budget: number): number {
  const recorded = solver.solve([c], { explain: true, budget });
  const taken = solver.decisions;
  const quick = solver.solve([c], { explain: false, budget });
  const what = `${catalog.components[c].name}, budget ${budget}`;
  assert.equal(quick.status, recorded.status, `${what}: the same answer`);
  assert.equal(solver.decisions, taken, `${what}: the same decisions`);
  if (recorded.status === 'sat' && quick.status === 'sat') assert.deepEqual([...quick.model], [...recorded.model], `${what}: the same model`);
  return taken;
}

test('random catalogs: the quick search answers with the decisions and model of the recording one', () => {
  fc.assert(
    fc.property(randomCatalog, fc.array(fc.nat(7), { maxLength: 3 }), fc.integer({ min: 1, max: 40 }), (input, picks, budget) => {
      const catalog = compileCatalog(buildComponents(input), { requiredTypes: input.required });
      const n = catalog.components.length;
      const solver = new Solver(catalog);
      if (!solver.assume(picks.filter((i) => i < n), true)) return;
      for (let c = 0; c < n; c++) if (!solver.isChosen(c) && !solver.isExcluded(c)) sameBothWays(solver, catalog, c, budget);
    }),
    { numRuns: Number(process.env.HEARTH_PROPERTY_RUNS ?? 300) },
  );
});

test('a decision that failed under one branch is taken again in the next, where it holds', () => {
  // Taking S1 under H1 fails only after S1 is taken (S1 needs A and B; H1 allows one of them), and
  // so does S2; under H2, taken once H1 has failed, S1 is fine and is the lighter storage.
  const catalog = compileCatalog(
    [
      { name: 'hypervisor:h1', weight: 1, requires: [{ one_of: { items: ['additional_service:a', 'additional_service:b'] } }] },
      { name: 'hypervisor:h2', weight: 2 },
      { name: 'storage:block:s1', weight: 1, requires: [{ all_of: { items: ['additional_service:a', 'additional_service:b'] } }] },
      { name: 'storage:block:s2', weight: 2, requires: [{ all_of: { items: ['additional_service:a', 'additional_service:b'] } }] },
      { name: 'additional_service:a', weight: 1 },
      { name: 'additional_service:b', weight: 1 },
    ] as never,
    { requiredTypes: ['hypervisor', 'storage'] },
  );
  const solver = new Solver(catalog);
  assert.ok(solver.assume([], true));
  const recorded = solver.solve([], { explain: true, budget: 10 });
  const taken = solver.decisions;
  const quick = solver.solve([], { explain: false, budget: 10 });
  assert.equal(solver.decisions, taken);
  for (const r of [recorded, quick]) {
    assert.equal(r.status, 'sat');
    assert.deepEqual([...(r as { model: Int32Array }).model].map((x) => catalog.components[x].name), ['hypervisor:h2', 'storage:block:s1', 'additional_service:a', 'additional_service:b']);
  }
});

test('the synthetic 10,000 catalog: dead ends whose search runs to its budget take the same decisions both ways', needsCorpus, () => {
  const components = JSON.parse(readFileSync(corpusPath('synthetic/components-10000.json'), 'utf8'));
  const catalog = compileCatalog(components, { requiredTypes: ['hypervisor', 'network', 'storage'] });
  const solver = new Solver(catalog);
  // The wizard's first state and the one after a hypervisor: every dead end, at the explaining budget and past it.
  const first = state(catalog, [], { fixes: false });
  const hypervisor = first.components.find((c) => c.enabled && c.group === 'hypervisor') as { name: string };
  let long = 0;
  for (const selection of [[], [hypervisor.name]]) {
    const dead = state(catalog, selection, { fixes: false }).components.flatMap((c, i) => (c.deadEnd ? [i] : []));
    assert.ok(solver.assume(selection.map((x) => catalog.byName.get(x) as number), true));
    for (const c of dead) for (const budget of [300, 1000]) if (sameBothWays(solver, catalog, c, budget) >= budget) long++;
  }
  // hypervisor:x909 on the first state is one (it was most of that state's time).
  assert.ok(long > 0, 'some search ran to its budget');
});
