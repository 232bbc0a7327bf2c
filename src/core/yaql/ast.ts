/**
 * The syntax tree of the YAQL subset Fuel's deployment tasks use. Columns are 1-based positions
 * in the expression text; callers add the file position of the `yaql_exp` string.
 */
export type YaqlBinaryOperator = '=' | '!=' | '<' | '>' | '<=' | '>=' | 'in' | 'and' | 'or' | '+' | '-' | '*' | '/' | 'mod' | '=~' | '!~';
export type YaqlUnaryOperator = 'not' | '-' | '+';

export type YaqlNode =
  | { kind: 'constant'; value: string | number | boolean | null; column: number }
  /** A bare word (`name` in `{name => 'x'}`, `None`): YAQL evaluates it to its own text. */
  | { kind: 'keyword'; name: string; column: number }
  /** `$` (name '') or `$name`. */
  | { kind: 'variable'; name: string; column: number }
  | { kind: 'list'; items: YaqlNode[]; column: number }
  | { kind: 'map'; entries: Array<{ key: YaqlNode; value: YaqlNode }>; column: number }
  /** `a.b` or `a?.b` (null-safe). */
  | { kind: 'member'; target: YaqlNode; name: string; safe: boolean; column: number }
  | { kind: 'index'; target: YaqlNode; index: YaqlNode; column: number }
  /** `f(args)` or `receiver.f(args)`; `key => value` arguments are pairs. */
  | { kind: 'call'; name: string; receiver?: YaqlNode; args: YaqlArgument[]; column: number }
  | { kind: 'binary'; operator: YaqlBinaryOperator; left: YaqlNode; right: YaqlNode; column: number }
  | { kind: 'unary'; operator: YaqlUnaryOperator; operand: YaqlNode; column: number };

export type YaqlArgument = YaqlNode | { kind: 'pair'; key: YaqlNode; value: YaqlNode; column: number };

export const isPair = (a: YaqlArgument): a is Extract<YaqlArgument, { kind: 'pair' }> => a.kind === 'pair';

/** The tree without columns, for comparisons. */
export function stripYaqlColumns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripYaqlColumns);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== 'column') out[k] = stripYaqlColumns(v);
  return out;
}
