/**
 * How many nodes may run a paced task at once. `one_by_one` is 1. `parallel` with `amount` is read
 * as Fuel's task-based engine read it: a number; a share of the nodes that run the task ("10%",
 * rounded down, at least 1, as Nailgun rounded fault-tolerance shares); or `{yaql_exp}`, which
 * Nailgun's serializer evaluated over the deployment data of the node the task was serialized for
 * (Fuel's own tasks read cluster-wide keys there, such as `deployed_before`), its value a number or
 * a share again. Hearth evaluates it once per task, over the data of the first node that runs it;
 * without an evaluator (planning without deployment data) the amount is reported and not limited.
 * `parallel` without an amount is not limited.
 */
import { finding, type Finding } from '../findings.js';
import type { Task } from '../tasks/model.js';

/** A share of the nodes: "10%", "2.5%". */
const SHARE = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/;

/** Whether a task's `amount` text is a share of its nodes rather than a YAQL expression. */
export const isShare = (amount: string): boolean => SHARE.test(amount);

export interface AmountContext {
  /** A YAQL expression's value over the data of the node running `vertex`; undefined: cannot evaluate. */
  evaluate?: (expression: string, task: Task, vertex: number) => { value?: unknown; error?: string };
  findings: Finding[];
  /** Tasks already reported (one finding per task). */
  reported: Set<string>;
}

/** Nodes of `count` that may run at once for `amount` (a number or a share); undefined when it is not one. */
export function amountOf(amount: unknown, count: number): number | undefined {
  if (typeof amount === 'number') return Number.isFinite(amount) && amount >= 1 ? Math.floor(amount) : undefined;
  if (typeof amount !== 'string') return undefined;
  if (/^\s*\d+\s*$/.test(amount)) return amountOf(Number(amount), count);
  const share = SHARE.exec(amount);
  if (!share) return undefined;
  const percent = Number(share[1]);
  if (!(percent > 0)) return undefined;
  return Math.max(1, Math.floor((percent * count) / 100));
}

/** The pace of `task` over `vertices` (the nodes that run it, in order); undefined: no limit. */
export function paceOf(task: Task, vertices: readonly number[], ctx: AmountContext): number | undefined {
  const strategy = task.strategy;
  if (!strategy) return undefined;
  if (strategy.type === 'one_by_one') return 1;
  if (strategy.type !== 'parallel' || strategy.amount === undefined || vertices.length === 0) return undefined;
  const direct = amountOf(strategy.amount, vertices.length);
  if (direct !== undefined) return direct;
  const report = (f: Finding) => {
    if (ctx.reported.has(task.id)) return;
    ctx.reported.add(task.id);
    ctx.findings.push(f);
  };
  const expression = String(strategy.amount);
  const result = ctx.evaluate?.(expression, task, vertices[0]);
  if (!result) {
    report(finding('graph/dynamic-strategy', 'info', `task '${task.id}': strategy amount ${JSON.stringify(expression)} is computed from the deployment data; without it the estimate runs the task without a limit`, task.origin));
    return undefined;
  }
  const pace = result.error === undefined ? amountOf(result.value, vertices.length) : undefined;
  if (pace !== undefined) return pace;
  const why = result.error ?? `its value ${JSON.stringify(result.value)} is not a positive number or a share such as "10%"`;
  report(finding('graph/strategy-amount-failed', 'warning', `task '${task.id}': strategy amount ${JSON.stringify(expression)} could not be used (${why}); the task runs without a limit`, task.origin, 'make the expression give a positive number of nodes, or a share such as "10%"'));
  return undefined;
}
