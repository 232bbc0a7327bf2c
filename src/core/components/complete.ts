/**
 * The smallest valid completion of a selection: fewest added components, lower total weight
 * breaking ties; or, when none exists, why.
 */
import type { Catalog } from './catalog.js';
import { render } from './explain.js';
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

export function complete(catalog: Catalog, selectionNames: readonly string[], options: { budget?: number } = {}): Completion {
  const { indices, findings } = resolveSelection(catalog, selectionNames);
  const fail = (reason: string): Completion => ({ ok: false, selection: [], added: [], optimal: true, reason, findings });
  if (findings.length > 0) return fail(findings.map((f) => f.message).join(' '));
  const solver = new Solver(catalog);
  if (!solver.assume(indices)) return fail(solver.baseRefutation ? render(catalog, solver.baseRefutation) : 'the selection breaks a rule');
  const r = solver.minimise({ budget: options.budget ?? 20_000 });
  if (r.status === 'unsat') return fail(render(catalog, r.why));
  if (r.status === 'unknown') return { ...fail('the search ran out of budget before finding a completion'), optimal: false };
  const given = new Set(indices);
  const names = [...r.model].map((x) => catalog.components[x].name);
  return { ok: true, selection: names, added: [...r.model].filter((x) => !given.has(x)).map((x) => catalog.components[x].name), optimal: r.optimal ?? false, findings };
}
