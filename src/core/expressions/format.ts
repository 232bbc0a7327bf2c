/**
 * Prints an expression back as text that parses to the same tree. Parentheses are added only
 * where Fuel's precedence needs them, so a parsed condition prints close to how people write it.
 */
import type { Expr, Literal } from './ast.js';

const precedence = { or: 1, and: 2, '==': 3, '!=': 3, in: 4 } as const;
const unaryPrecedence = 4;

function literal(value: Literal): string {
  if (typeof value === 'string') {
    // The language has no escapes: a string with both quote kinds cannot be written at all,
    // and the parser can never produce one.
    return value.includes("'") ? `"${value}"` : `'${value}'`;
  }
  return String(value);
}

function level(expr: Expr): number {
  if (expr.kind === 'binary') return precedence[expr.operator];
  if (expr.kind === 'not') return unaryPrecedence;
  return 5;
}

export function formatExpression(expr: Expr): string {
  switch (expr.kind) {
    case 'literal':
      return literal(expr.value);
    case 'reference':
    {
      const path = expr.path.join('.');
      // A bare path is read with the `default` model; spell the model out when the bare text would
      // lex as a keyword or a number instead.
      const bareIsAmbiguous = /^(true|false|null|in|and|or|not)$/.test(path) || /^-?\d+(\.\d+)?$/.test(path);
      return expr.model === 'default' && !bareIsAmbiguous ? path : `${expr.model}:${path}`;
    }
    case 'not': {
      // `not` takes a unary operand: anything binary must be parenthesised.
      const inner = formatExpression(expr.operand);
      return expr.operand.kind === 'binary' ? `not (${inner})` : `not ${inner}`;
    }
    case 'binary': {
      const mine = precedence[expr.operator];
      const left = formatExpression(expr.left);
      const right = formatExpression(expr.right);
      // Left-associative: the left child may share our level, the right child must bind tighter.
      // A `not` on the left of `in` would swallow nothing more, so it needs no parentheses there.
      const l = level(expr.left) < mine ? `(${left})` : left;
      const r = level(expr.right) <= mine && !(expr.right.kind === 'not' && mine === 4) ? `(${right})` : right;
      return `${l} ${expr.operator} ${r}`;
    }
  }
}
