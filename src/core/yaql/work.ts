/**
 * The work one evaluation may do. The parser bounds an expression's size, but not what it does
 * with the data: lambdas nest (`$.a.select($.a.select($.a))` is cubic in a list's length), strings
 * repeat (`'a' * 500000000`), and a condition runs on every node of a graph, often on a server. So
 * each evaluation carries a budget, spent on what can grow: one unit per lambda call, per element
 * of a collection walked or built, and per 16 characters of a string built or searched. Spending
 * past it ends the evaluation with `yaql/too-much-work` (a finding, like any runtime failure).
 */
import { fail } from './values.js';

/** About a tenth of a second of evaluation on a slow machine; Fuel's own conditions spend a few thousand on a 1,000-node cluster. */
export const MAX_YAQL_WORK = 1_000_000;

export interface WorkBudget {
  left: number;
}

export const newBudget = (): WorkBudget => ({ left: MAX_YAQL_WORK });

/** Take `units` from the budget, failing the evaluation when it runs out. */
export function spend(budget: WorkBudget, units: number, column?: number): void {
  budget.left -= units;
  if (budget.left < 0) {
    fail('yaql/too-much-work', `Evaluating this expression takes more than ${MAX_YAQL_WORK.toLocaleString('en')} steps (nested loops over large lists, or very long strings).`, column);
  }
}

/** The units for a string of `length` characters. */
export const stringUnits = (length: number): number => 1 + Math.floor(length / 16);
