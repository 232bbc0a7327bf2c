/**
 * Evaluation of restriction-language expressions over plain data.
 *
 * Semantics follow Nailgun (the server decided restrictions; the UI only displayed them):
 * - `and`/`or` short-circuit and return an operand, with Python truthiness (`[]`, `{}`, `''`, `0`,
 *   `null` are false): `1 == 1 and 2` is `2`;
 * - `==`/`!=` are strict and deep: `1 == '1'` is false, `null == false` is false, lists and maps
 *   compare by content (Python's `==`). Unlike Python, `true == 1` is false (Fuel UI agreed);
 * - `a in b`: substring when `b` is a string, membership in a list, key in a map, otherwise false;
 * - `not` negates truthiness.
 *
 * Unknown references. Nailgun raised an error for an unknown *model* even in non-strict mode, and
 * for a missing key in strict mode (role restrictions), and yielded `null` in non-strict mode
 * (task conditions). An evaluator that throws mid-deployment helps nobody, so here every unresolved
 * reference evaluates to `null` — Fuel's non-strict answer — and is reported in `unresolved`
 * (with whether its model was missing altogether) so callers that want Fuel's strict behaviour turn
 * them into findings before trusting the value (`checkRestrictions` does).
 */
import type { Expr } from './ast.js';

/** Models by name: `{ settings, cluster, release, version, networking_parameters, default, ... }`. */
export type ExpressionContext = Readonly<Record<string, unknown>>;

export interface UnresolvedReference {
  /** The reference as written, `settings:common.debug.value`. */
  reference: string;
  column: number;
  /** True when the model itself is absent from the context (Fuel: `No model with name "x" defined`). */
  unknownModel: boolean;
}

export interface Evaluation {
  value: unknown;
  unresolved: UnresolvedReference[];
}

export function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'number') return !Number.isNaN(value);
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function contains(haystack: unknown, needle: unknown): boolean {
  if (typeof haystack === 'string') return typeof needle === 'string' && haystack.includes(needle);
  if (Array.isArray(haystack)) return haystack.some((x) => deepEqual(x, needle));
  if (haystack !== null && typeof haystack === 'object') {
    return typeof needle === 'string' && Object.prototype.hasOwnProperty.call(haystack, needle);
  }
  return false;
}

const own = (o: unknown, key: string): boolean => o !== null && typeof o === 'object' && !Array.isArray(o) && Object.prototype.hasOwnProperty.call(o, key);

function resolve(expr: Extract<Expr, { kind: 'reference' }>, context: ExpressionContext, unresolved: UnresolvedReference[]): unknown {
  const written = `${expr.model === 'default' ? '' : expr.model + ':'}${expr.path.join('.')}`;
  // The `default` model is Fuel UI's name for the settings when a path has no prefix.
  const modelName = expr.model === 'default' && !own(context, 'default') ? 'settings' : expr.model;
  if (!own(context, modelName)) {
    unresolved.push({ reference: written, column: expr.column, unknownModel: true });
    return null;
  }
  let node: unknown = context[modelName];
  for (const step of expr.path) {
    if (Array.isArray(node) && /^\d+$/.test(step) && Number(step) < node.length) node = node[Number(step)];
    else if (own(node, step)) node = (node as Record<string, unknown>)[step];
    else {
      unresolved.push({ reference: written, column: expr.column, unknownModel: false });
      return null;
    }
  }
  return node === undefined ? null : node;
}

function run(expr: Expr, context: ExpressionContext, unresolved: UnresolvedReference[]): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'reference':
      return resolve(expr, context, unresolved);
    case 'not':
      return !isTruthy(run(expr.operand, context, unresolved));
    case 'binary': {
      const left = run(expr.left, context, unresolved);
      switch (expr.operator) {
        case 'and':
          return isTruthy(left) ? run(expr.right, context, unresolved) : left;
        case 'or':
          return isTruthy(left) ? left : run(expr.right, context, unresolved);
        case '==':
          return deepEqual(left, run(expr.right, context, unresolved));
        case '!=':
          return !deepEqual(left, run(expr.right, context, unresolved));
        case 'in':
          return contains(run(expr.right, context, unresolved), left);
      }
    }
  }
}

/** Evaluates an expression, reporting the references it could not resolve. Never throws. */
export function evaluateExpressionDetailed(ast: Expr, context: ExpressionContext): Evaluation {
  const unresolved: UnresolvedReference[] = [];
  const value = run(ast, context ?? {}, unresolved);
  return { value, unresolved };
}

/** The value of an expression; unresolved references count as `null` (see the module comment). */
export function evaluateExpression(ast: Expr, context: ExpressionContext): unknown {
  return evaluateExpressionDetailed(ast, context).value;
}
