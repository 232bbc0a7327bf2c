/**
 * The smallest valid completion of a selection: fewest added components, lower total weight
 * breaking ties; or, when none exists, why.
 *
 * Whether one exists is asked of the clause-learning solver first (it refutes in a few conflicts
 * what the chronological search gave up on after seconds, e.g. `hypervisor:x909` at 10,000
 * components); its model steers the branch and bound, and stands in (not `optimal`) when the
 * branch and bound runs out of budget.
 */
import type { Catalog } from './catalog.js';
import { Cdcl } from './cdcl.js';
import { deadEndByCore, render } from './explain.js';
import { Solver } from './solver.js';
import { resolveSelection, type ComponentFinding } from './validate.js';

export interface Completion {
  ok: boolean;
  /** The full valid selection (chosen plus added), in catalog order. */
  selection: string[];
  /** What was added to the given selection. */
  added: string[];
  /** True when the search proved no smaller completion exists (false: budget ran out first). */
  optimal: boolean;
  /** Why no completion exists. */
  reason?: string;
  findings: ComponentFinding[];
}

/** Conflict budget of the yes/no question and decision budget of the explanation. */
const DECIDE_BUDGET = 100_000;
const EXPLAIN_BUDGET = 300;

const deciders = new WeakMap<Catalog, Cdcl>();

export function complete(catalog: Catalog, selectionNames: readonly string[], options: { budget?: number } = {}): Completion {
  const { indices, findings } = resolveSelection(catalog, selectionNames);
  const fail = (reason: string, optimal = true): Completion => ({ ok: false, selection: [], added: [], optimal, reason, findings });
  if (findings.length > 0) return fail(findings.map((f) => f.message).join(' '));
  let cdcl = deciders.get(catalog);
  if (!cdcl) deciders.set(catalog, (cdcl = new Cdcl(catalog)));
  const answer = cdcl.solve(indices, { budget: DECIDE_BUDGET });
  if (answer.status === 'unknown') return fail('the search ran out of budget before finding a completion', false);
  const solver = new Solver(catalog);
  if (!solver.assume(indices)) return fail(solver.baseRefutation ? render(catalog, solver.baseRefutation) : 'the selection breaks a rule');
  if (answer.status === 'unsat') {
    const why = solver.solve([], { explain: true, budget: EXPLAIN_BUDGET });
    if (why.status === 'unsat') return fail(render(catalog, why.why));
    const core = answer.core;
    if (core.length === 0) return fail('no selection of these components satisfies every rule');
    // The core names the choices that together leave nothing; told from the last of them.
    return fail(deadEndByCore(catalog, core[core.length - 1], core.slice(0, -1)));
  }
  const prefer = new Uint8Array(catalog.components.length);
  for (const x of answer.model) prefer[x] = 1;
  const r = solver.minimise({ budget: options.budget ?? 20_000, prefer });
  // The branch and bound's first model can still miss its budget; the decider's model is valid.
  const [model, optimal] = r.status === 'sat' ? [r.model, r.optimal ?? false] : [answer.model, false];
  const given = new Set(indices);
  return {
    ok: true,
    selection: [...model].map((x) => catalog.components[x].name),
    added: [...model].filter((x) => !given.has(x)).map((x) => catalog.components[x].name),
    optimal,
    findings,
  };
}
