/**
 * Parser for Fuel's restriction language. Precedence, lowest first, exactly as Fuel had it:
 * `or` < `and` < `==` `!=` < `in` `not`, all left-associative. So `not` binds tighter than `==`:
 * `not 'a' == 'b'` is `(not 'a') == 'b'` (Fuel's fixtures write `not ('x' in version:feature_groups)`
 * for that reason), and `'a' in x == true` is `('a' in x) == true`.
 */
import { finding, type Finding } from '../findings.js';
import type { BinaryOperator, Expr } from './ast.js';
import { tokenize, type Token } from './lexer.js';

/** Longer conditions than this are not conditions people write; they are rejected before lexing. */
export const MAX_EXPRESSION_LENGTH = 10_000;
/** Parentheses and `not` nest at most this deep, so no input can exhaust the stack. */
export const MAX_EXPRESSION_DEPTH = 64;
/** A left-leaning chain of operators also deepens the tree; cap how many an expression may have. */
export const MAX_EXPRESSION_OPERATORS = 1_000;

export interface ParseResult {
  ast?: Expr;
  findings: Finding[];
}

class ExpressionSyntaxError extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
  }
}

const describe = (t: Token): string => (t.kind === 'end' ? 'the end of the expression' : t.kind === 'string' ? `'${t.text}'` : `'${t.text}'`);

export function parseExpression(text: string): ParseResult {
  if (typeof text !== 'string') {
    return { findings: [finding('expression/not-a-string', 'error', 'A condition must be a string.', undefined, 'Quote the condition.')] };
  }
  if (text.length > MAX_EXPRESSION_LENGTH) {
    return {
      findings: [
        finding('expression/too-long', 'error', `The expression is ${text.length} characters long; the limit is ${MAX_EXPRESSION_LENGTH}.`, { column: 1 }, 'Split the condition or simplify it.'),
      ],
    };
  }
  const lexed = tokenize(text);
  if (lexed.findings.length) return { findings: lexed.findings };
  const tokens = lexed.tokens;
  if (tokens.length === 1) {
    return { findings: [finding('expression/empty', 'error', 'The expression is empty.', { column: 1 }, 'Write a condition, or `true`.')] };
  }
  let at = 0;
  let depth = 0;
  let operators = 0;
  const peek = () => tokens[at];
  const fail = (t: Token, message: string, hint?: string): never => {
    throw new ExpressionSyntaxError(finding('expression/syntax-error', 'error', message, { column: t.column }, hint));
  };
  const countOperator = (t: Token) => {
    if (++operators > MAX_EXPRESSION_OPERATORS) {
      throw new ExpressionSyntaxError(
        finding('expression/too-complex', 'error', `The expression has more than ${MAX_EXPRESSION_OPERATORS} operators.`, { column: t.column }, 'Simplify the condition.'),
      );
    }
  };
  const enter = (t: Token) => {
    if (++depth > MAX_EXPRESSION_DEPTH) {
      throw new ExpressionSyntaxError(
        finding('expression/too-deep', 'error', `The expression nests more than ${MAX_EXPRESSION_DEPTH} levels deep.`, { column: t.column }, 'Simplify the condition.'),
      );
    }
  };

  const binaryLevels: BinaryOperator[][] = [['or'], ['and'], ['==', '!=']];

  function parseLevel(level: number): Expr {
    if (level === binaryLevels.length) return parseIn();
    let left = parseLevel(level + 1);
    while ((binaryLevels[level] as string[]).includes(peek().kind)) {
      const op = tokens[at++];
      countOperator(op);
      const right = parseLevel(level + 1);
      left = { kind: 'binary', operator: op.kind as BinaryOperator, left, right, column: left.column };
    }
    return left;
  }

  function parseIn(): Expr {
    let left = parseUnary();
    while (peek().kind === 'in') {
      countOperator(tokens[at++]);
      const right = parseUnary();
      left = { kind: 'binary', operator: 'in', left, right, column: left.column };
    }
    return left;
  }

  function parseUnary(): Expr {
    const t = peek();
    if (t.kind === 'not') {
      at++;
      enter(t);
      const operand = parseUnary();
      depth--;
      return { kind: 'not', operand, column: t.column };
    }
    return parsePrimary();
  }

  function parsePrimary(): Expr {
    const t = tokens[at++];
    switch (t.kind) {
      case 'number':
        return { kind: 'literal', value: Number(t.text), column: t.column };
      case 'string':
        return { kind: 'literal', value: t.text, column: t.column };
      case 'true':
      case 'false':
        return { kind: 'literal', value: t.kind === 'true', column: t.column };
      case 'null':
        return { kind: 'literal', value: null, column: t.column };
      case 'reference':
        return reference(t);
      case '(': {
        enter(t);
        const inner = parseLevel(0);
        depth--;
        if (peek().kind !== ')') fail(peek(), `Expected ')' to close the '(' at column ${t.column}, found ${describe(peek())}.`, 'Balance the parentheses.');
        at++;
        return inner;
      }
      default:
        return fail(t, `Syntax error at ${describe(t)} (column ${t.column}): expected a value.`, 'A value is a quoted string, a number, true, false, null, a model:path reference or a parenthesised expression.');
    }
  }

  function reference(t: Token): Expr {
    const colon = t.text.indexOf(':');
    const model = colon < 0 ? 'default' : t.text.slice(0, colon);
    const pathText = colon < 0 ? t.text : t.text.slice(colon + 1);
    const path = pathText.split('.');
    if (colon >= 0 && !/^\w*$/.test(model)) {
      fail(t, `'${t.text}' is not a reference: a model name is letters, digits and underscores.`, 'Write model:path, for example settings:common.debug.value.');
    }
    if (colon >= 0 && model === '') fail(t, `'${t.text}' has no model name before ':'.`, 'Write model:path, for example cluster:mode.');
    if (pathText.includes(':')) fail(t, `'${t.text}' has more than one ':'.`, 'Write model:path with a single colon.');
    if (path.some((p) => p === '')) fail(t, `'${t.text}' has an empty path segment.`, 'Remove the extra dot.');
    return { kind: 'reference', model, path, column: t.column };
  }

  try {
    const ast = parseLevel(0);
    if (peek().kind !== 'end') fail(peek(), `Syntax error at ${describe(peek())} (column ${peek().column}): expected an operator or the end.`, 'Join conditions with `and` or `or`.');
    return { ast, findings: [] };
  } catch (e) {
    if (e instanceof ExpressionSyntaxError) return { findings: [e.finding] };
    throw e;
  }
}
