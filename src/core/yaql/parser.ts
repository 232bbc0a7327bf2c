/**
 * A Pratt parser for YAQL with the reference grammar's precedence (tightest first):
 * `.` `?.` > `[]` > unary `+` `-` > `=~` `!~` > `*` `/` `mod` > `+` `-` > comparisons and `in`
 * > `not` > `and` > `or`. So `not $.a = 1` is `not ($.a = 1)`, unlike Fuel's restriction language.
 * The parser accepts YAQL's syntax; `validate.ts` then rejects what lies outside Fuel's subset.
 */
import { finding, type Finding } from '../findings.js';
import type { YaqlArgument, YaqlBinaryOperator, YaqlNode } from './ast.js';
import { tokenizeYaql, type YaqlToken } from './lexer.js';
import { validateYaql } from './validate.js';

export const MAX_YAQL_LENGTH = 20_000;
export const MAX_YAQL_DEPTH = 100;
export const MAX_YAQL_OPERATORS = 2_000;

const binary: Record<string, number> = {
  or: 2, and: 3, '=': 5, '!=': 5, '<': 5, '>': 5, '<=': 5, '>=': 5, in: 5, '+': 6, '-': 6, '*': 7, '/': 7, mod: 7, '=~': 8, '!~': 8,
};
const NOT_OPERAND = 5;
const SIGN_OPERAND = 10;
const INDEX = 10;
const MEMBER = 11;
const wordOperators = new Set(['and', 'or', 'in', 'mod', 'not']);

class YaqlSyntaxError extends Error {
  constructor(readonly finding: Finding) {
    super(finding.message);
  }
}

export interface YaqlParseResult {
  ast?: YaqlNode;
  findings: Finding[];
}

export function parseYaql(text: string): YaqlParseResult {
  const syntax = parseYaqlSyntax(text);
  if (!syntax.ast) return syntax;
  const findings = validateYaql(syntax.ast);
  return findings.some((f) => f.severity === 'error') ? { findings } : { ast: syntax.ast, findings };
}

/** Parses YAQL syntax without checking the function subset. */
export function parseYaqlSyntax(text: string): YaqlParseResult {
  if (typeof text !== 'string') return { findings: [finding('yaql/not-a-string', 'error', 'A YAQL expression must be a string.', undefined, 'Quote the expression.')] };
  if (text.length > MAX_YAQL_LENGTH) {
    return { findings: [finding('yaql/too-long', 'error', `The expression is ${text.length} characters long; the limit is ${MAX_YAQL_LENGTH}.`, { column: 1 }, 'Simplify the expression.')] };
  }
  const lexed = tokenizeYaql(text);
  if (lexed.findings.length) return { findings: lexed.findings };
  const tokens = lexed.tokens;
  if (tokens.length === 1) return { findings: [finding('yaql/empty', 'error', 'The YAQL expression is empty.', { column: 1 }, 'Write an expression, for example `true`.')] };
  let at = 0;
  let depth = 0;
  let operators = 0;
  const peek = (): YaqlToken => tokens[at];
  const describe = (t: YaqlToken) => (t.kind === 'end' ? 'the end of the expression' : `'${t.text}${t.kind === 'func' ? '(' : ''}'`);
  const fail = (t: YaqlToken, message: string, hint: string, code = 'yaql/syntax-error'): never => {
    throw new YaqlSyntaxError(finding(code, 'error', message, { column: t.column }, hint));
  };
  const isOp = (t: YaqlToken, op: string) => t.kind === 'op' && t.text === op;
  const expectOp = (op: string, opening: YaqlToken) => {
    if (!isOp(peek(), op)) fail(peek(), `Expected '${op}' to close the '${opening.text}' at column ${opening.column}, found ${describe(peek())}.`, 'Balance the brackets.');
    at++;
  };
  const deeper = (t: YaqlToken) => {
    if (++depth > MAX_YAQL_DEPTH) fail(t, `The expression nests more than ${MAX_YAQL_DEPTH} levels deep.`, 'Simplify the expression.', 'yaql/too-deep');
  };
  const counted = (t: YaqlToken) => {
    if (++operators > MAX_YAQL_OPERATORS) fail(t, `The expression has more than ${MAX_YAQL_OPERATORS} operators.`, 'Simplify the expression.', 'yaql/too-complex');
  };

  function binaryPower(t: YaqlToken): number | undefined {
    if (t.kind === 'op' || (t.kind === 'word' && wordOperators.has(t.text))) return binary[t.text];
    return undefined;
  }

  function expression(minPower: number): YaqlNode {
    const start = peek();
    deeper(start);
    let left = prefix();
    for (;;) {
      const t = peek();
      if ((isOp(t, '.') || isOp(t, '?.')) && MEMBER >= minPower) {
        counted(t);
        at++;
        const name = tokens[at++];
        if (name.kind === 'word' && !['true', 'false', 'null'].includes(name.text)) {
          left = { kind: 'member', target: left, name: name.text, safe: t.text === '?.', column: name.column };
        } else if (name.kind === 'func' && t.text === '.') {
          left = { kind: 'call', name: name.text, receiver: left, args: args(name, ')'), column: name.column };
        } else {
          fail(name, `After '${t.text}' Fuel's YAQL expects a key name or a method call, found ${describe(name)}.`, "Write $.key, $.get('key') or $.method(...).");
        }
        continue;
      }
      if (isOp(t, '[') && INDEX >= minPower) {
        counted(t);
        at++;
        const index = expression(0);
        expectOp(']', t);
        left = { kind: 'index', target: left, index, column: t.column };
        continue;
      }
      const power = binaryPower(t);
      if (power === undefined || power < minPower) break;
      counted(t);
      at++;
      const right = expression(power + 1);
      left = { kind: 'binary', operator: t.text as YaqlBinaryOperator, left, right, column: t.column };
    }
    depth--;
    return left;
  }

  function prefix(): YaqlNode {
    const t = tokens[at++];
    switch (t.kind) {
      case 'number':
        return { kind: 'constant', value: t.value as number, column: t.column };
      case 'string':
        return { kind: 'constant', value: t.value as string, column: t.column };
      case 'dollar':
        return { kind: 'variable', name: t.text.slice(1), column: t.column };
      case 'func':
        return { kind: 'call', name: t.text, args: args(t, ')'), column: t.column };
      case 'word':
        if (t.text === 'true' || t.text === 'false') return { kind: 'constant', value: t.text === 'true', column: t.column };
        if (t.text === 'null') return { kind: 'constant', value: null, column: t.column };
        if (t.text === 'not') return { kind: 'unary', operator: 'not', operand: expression(NOT_OPERAND), column: t.column };
        if (wordOperators.has(t.text)) break;
        return { kind: 'keyword', name: t.text, column: t.column };
      case 'op':
        if (t.text === '-' || t.text === '+') return { kind: 'unary', operator: t.text, operand: expression(SIGN_OPERAND), column: t.column };
        if (t.text === '(') {
          const inner = expression(0);
          expectOp(')', t);
          return inner;
        }
        if (t.text === '[') {
          const items = args(t, ']');
          const pair = items.find((a) => a.kind === 'pair');
          if (pair) fail(tokens[at - 1], 'A list cannot hold `key => value` pairs.', 'Use {key => value} for a map.');
          return { kind: 'list', items: items as YaqlNode[], column: t.column };
        }
        if (t.text === '{') {
          const entries = args(t, '}').map((a) => {
            if (a.kind !== 'pair') return fail(t, 'A map literal holds `key => value` pairs only.', "Write {'key' => value}.");
            return { key: a.key, value: a.value };
          });
          return { kind: 'map', entries, column: t.column };
        }
        break;
      default:
        break;
    }
    return fail(t, `Syntax error at ${describe(t)} (column ${t.column}): expected a value.`, 'A value is a string, a number, true, false, null, $, $.key, a function call, a list [..] or a map {..}.');
  }

  /** Arguments up to the closing bracket: expressions, or `key => value` pairs. */
  function args(opening: YaqlToken, close: string): YaqlArgument[] {
    const out: YaqlArgument[] = [];
    deeper(opening);
    if (isOp(peek(), close)) {
      at++;
      depth--;
      return out;
    }
    for (;;) {
      const first = peek();
      const value = expression(0);
      if (isOp(peek(), '=>')) {
        at++;
        out.push({ kind: 'pair', key: value, value: expression(0), column: first.column });
      } else out.push(value);
      if (isOp(peek(), ',')) {
        at++;
        continue;
      }
      expectOp(close, opening);
      depth--;
      return out;
    }
  }

  try {
    const ast = expression(0);
    if (peek().kind !== 'end') fail(peek(), `Syntax error at ${describe(peek())} (column ${peek().column}): expected an operator or the end.`, 'Join expressions with an operator such as `and`.');
    return { ast, findings: [] };
  } catch (e) {
    if (e instanceof YaqlSyntaxError) return { findings: [e.finding] };
    throw e;
  }
}
