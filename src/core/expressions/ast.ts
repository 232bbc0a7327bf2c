/**
 * The syntax tree of Fuel's restriction/condition language (`settings:common.debug.value == true`).
 * Every node carries the 1-based column where it starts in the expression text, so a finding can
 * point inside a condition; callers add the file position of the string itself.
 */
export type BinaryOperator = '==' | '!=' | 'in' | 'and' | 'or';

export type Literal = string | number | boolean | null;

export type Expr =
  | { kind: 'literal'; value: Literal; column: number }
  /** `model:dotted.path`; `model` is `default` when the text had no `model:` prefix (Fuel UI's rule). */
  | { kind: 'reference'; model: string; path: string[]; column: number }
  | { kind: 'not'; operand: Expr; column: number }
  | { kind: 'binary'; operator: BinaryOperator; left: Expr; right: Expr; column: number };

/** The tree without positions: what the round-trip property and tests compare. */
export function withoutColumns(expr: Expr): unknown {
  switch (expr.kind) {
    case 'literal':
      return { kind: 'literal', value: expr.value };
    case 'reference':
      return { kind: 'reference', model: expr.model, path: [...expr.path] };
    case 'not':
      return { kind: 'not', operand: withoutColumns(expr.operand) };
    case 'binary':
      return { kind: 'binary', operator: expr.operator, left: withoutColumns(expr.left), right: withoutColumns(expr.right) };
  }
}

/** Every `model:path` reference in an expression, in reading order. */
export function referencesOf(expr: Expr, into: Array<{ model: string; path: string[] }> = []): Array<{ model: string; path: string[] }> {
  switch (expr.kind) {
    case 'reference':
      into.push({ model: expr.model, path: expr.path });
      break;
    case 'not':
      referencesOf(expr.operand, into);
      break;
    case 'binary':
      referencesOf(expr.left, into);
      referencesOf(expr.right, into);
      break;
    default:
      break;
  }
  return into;
}
