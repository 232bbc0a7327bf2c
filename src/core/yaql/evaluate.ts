/**
 * Evaluation. A parsed tree is compiled once into nested closures (cached per tree), so evaluating
 * the same condition on ten thousand nodes costs one closure walk each, with no re-parsing and no
 * dispatch on node kinds. Evaluation never throws: a runtime failure (a missing key, a type
 * mismatch) comes back as an error finding, which is what YAQL raised and Fuel turned into a failed
 * serialisation.
 */
import { finding, type Finding } from '../findings.js';
import { isPair, type YaqlArgument, type YaqlNode } from './ast.js';
import { yaqlFunctions, type Invocation, type YaqlEnvironment } from './functions.js';
import { search } from './regex.js';
import { YaqlRuntimeError, arithmetic, attribute, compare, fail, index, isDict, isIterable, itemsOf, membership, pyEqual, toPlain, truthy } from './values.js';
import { newBudget, spend, stringUnits } from './work.js';

type Compiled = (dollar: unknown, env: YaqlEnvironment) => unknown;

export interface YaqlContext {
  /** `$`: the node's deployment data (Fuel: common data merged with the node's own). */
  data: unknown;
  /** The previously deployed data for lifecycle functions; absent on a first deployment. */
  old?: unknown;
  /** `$name` variables, e.g. `$common`, `$node`. */
  variables?: Record<string, unknown>;
  /**
   * How lifecycle functions compare old and new values; `pyEqual` unless given. A caller evaluating
   * many times over the same unmutated data passes one `memoizedEqual()` to all its evaluations.
   */
  equal?: (a: unknown, b: unknown) => boolean;
}

export type YaqlResult = { ok: true; value: unknown } | { ok: false; error: Finding };

function compile(node: YaqlNode): Compiled {
  switch (node.kind) {
    case 'constant': {
      const value = node.value;
      return () => value;
    }
    case 'keyword': {
      const name = node.name;
      return () => name;
    }
    case 'variable': {
      const name = node.name;
      if (name === '') return (dollar) => dollar;
      return (_d, env) => (Object.prototype.hasOwnProperty.call(env.variables, name) ? env.variables[name] : null);
    }
    case 'list': {
      const items = node.items.map(compile);
      return (d, env) => items.map((f) => f(d, env));
    }
    case 'map': {
      const entries = node.entries.map((e) => [compile(e.key), compile(e.value)] as const);
      const column = node.column;
      return (d, env) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of entries) {
          const key = k(d, env);
          if (typeof key !== 'string') fail('yaql/bad-key', `Map keys must be strings here, not ${JSON.stringify(key)}.`, column);
          out[key as string] = v(d, env);
        }
        return out;
      };
    }
    case 'member': {
      const target = compile(node.target);
      const { name, column, safe } = node;
      // `.name` of a list reads every element.
      const read = (t: unknown, env: YaqlEnvironment) => {
        if (isIterable(t)) spend(env.budget, itemsOf(t).length, column);
        return attribute(t, name, column);
      };
      if (safe) {
        return (d, env) => {
          const t = target(d, env);
          return t === null ? null : read(t, env);
        };
      }
      return (d, env) => read(target(d, env), env);
    }
    case 'index': {
      const target = compile(node.target);
      const key = compile(node.index);
      const column = node.column;
      return (d, env) => index(target(d, env), key(d, env), column);
    }
    case 'unary': {
      const operand = compile(node.operand);
      const column = node.column;
      if (node.operator === 'not') return (d, env) => !truthy(operand(d, env));
      const sign = node.operator === '-' ? -1 : 1;
      return (d, env) => {
        const v = operand(d, env);
        if (typeof v !== 'number') fail('yaql/bad-operands', `Unary '${node.operator}' needs a number.`, column);
        return sign * (v as number);
      };
    }
    case 'binary': {
      const left = compile(node.left);
      const right = compile(node.right);
      const { operator, column } = node;
      switch (operator) {
        case 'and':
          return (d, env) => {
            const l = left(d, env);
            return truthy(l) ? right(d, env) : l;
          };
        case 'or':
          return (d, env) => {
            const l = left(d, env);
            return truthy(l) ? l : right(d, env);
          };
        case '=':
          return (d, env) => pyEqual(left(d, env), right(d, env));
        case '!=':
          return (d, env) => !pyEqual(left(d, env), right(d, env));
        case 'in':
          return (d, env) => {
            const needle = left(d, env);
            const haystack = right(d, env);
            spend(env.budget, typeof haystack === 'string' ? stringUnits(haystack.length) : isIterable(haystack) ? itemsOf(haystack).length : 1, column);
            return membership(needle, haystack, column);
          };
        case '<':
        case '>':
        case '<=':
        case '>=':
          return (d, env) => compare(operator, left(d, env), right(d, env), column);
        case '=~':
        case '!~':
          return (d, env) => {
            const l = left(d, env);
            const r = right(d, env);
            if (typeof l !== 'string' || typeof r !== 'string') fail('yaql/bad-operands', `'${operator}' needs a string and a pattern.`, column);
            return search(r as string, l as string, env.budget, column) === (operator === '=~');
          };
        default:
          return (d, env) => {
            const l = left(d, env);
            const r = right(d, env);
            spend(env.budget, resultUnits(operator, l, r), column);
            return arithmetic(operator, l, r, column);
          };
      }
    }
    case 'call': {
      const spec = yaqlFunctions[node.name];
      const column = node.column;
      if (!spec) return () => fail('yaql/unknown-function', `'${node.name}' is not a known function.`, column);
      const all = node.receiver ? [node.receiver, ...node.args] : node.args;
      const compiled = all.map((a) => (isPair(a) ? undefined : compile(a)));
      const pairs = all.map((a) => (isPair(a) ? ([compile(a.key), compile(a.value)] as const) : undefined));
      // A lambda's call costs what its body evaluates, so a body of many operators is not one unit.
      const weights = all.map(treeSize);
      const count = all.length;
      return (dollar, env) => {
        const inv: Invocation = {
          count,
          env,
          column,
          value: (i) => {
            const f = compiled[i];
            return f ? f(dollar, env) : fail('yaql/unexpected-pair', `${node.name}() does not take 'key => value' here.`, column);
          },
          apply: (i, d) => {
            spend(env.budget, weights[i]!, column);
            const f = compiled[i];
            return f ? f(d, env) : fail('yaql/unexpected-pair', `${node.name}() does not take 'key => value' here.`, column);
          },
          pair: (i) => {
            const p = pairs[i];
            return p && { key: () => p[0](dollar, env), value: () => p[1](dollar, env) };
          },
        };
        return spec.call(inv);
      };
    }
  }
}

/** The number of nodes under (and including) `node`: what evaluating it once takes, data aside. */
function treeSize(node: YaqlArgument): number {
  switch (node.kind) {
    case 'pair':
      return 1 + treeSize(node.key) + treeSize(node.value);
    case 'list':
      return node.items.reduce((n, x) => n + treeSize(x), 1);
    case 'map':
      return node.entries.reduce((n, e) => n + treeSize(e.key) + treeSize(e.value), 1);
    case 'member':
      return 1 + treeSize(node.target);
    case 'index':
      return 1 + treeSize(node.target) + treeSize(node.index);
    case 'call':
      return node.args.reduce((n, a) => n + treeSize(a), node.receiver ? 1 + treeSize(node.receiver) : 1);
    case 'binary':
      return 1 + treeSize(node.left) + treeSize(node.right);
    case 'unary':
      return 1 + treeSize(node.operand);
    default:
      return 1;
  }
}

const sizeOf = (v: unknown): number => (typeof v === 'string' ? v.length : isIterable(v) ? itemsOf(v).length : isDict(v) ? Object.keys(v).length : 0);

/** What `+` or `*` will build, paid before it is built: `'a' * 500000000` is refused, not allocated. */
function resultUnits(operator: string, l: unknown, r: unknown): number {
  if (operator === '*' && (typeof l === 'string' || typeof r === 'string')) {
    const [s, n] = typeof l === 'string' ? [l, r] : [r as string, l];
    return typeof n === 'number' && n > 0 ? stringUnits(s.length * n) : 1;
  }
  if (operator !== '+') return 1;
  return typeof l === 'string' ? stringUnits(l.length + sizeOf(r)) : 1 + sizeOf(l) + sizeOf(r);
}

const compiledTrees = new WeakMap<YaqlNode, Compiled>();

function runTree(ast: YaqlNode, context: YaqlContext): unknown {
  let run = compiledTrees.get(ast);
  if (!run) {
    run = compile(ast);
    compiledTrees.set(ast, run);
  }
  const env: YaqlEnvironment = {
    data: context.data,
    old: context.old,
    hasOld: context.old !== undefined,
    equal: context.equal ?? pyEqual,
    variables: isDict(context.variables) ? context.variables : {},
    budget: newBudget(),
  };
  return run(context.data, env);
}

/**
 * The raw value (sets stay sets), for a caller that evaluates a sub-expression once and hands it to
 * other evaluations as a variable. Throws what evaluation throws; a variable getter may rethrow it
 * inside `evaluateYaql`, which reports it as usual.
 */
export function evaluateYaqlValue(ast: YaqlNode, context: YaqlContext): unknown {
  return runTree(ast, context);
}

/** Evaluates a parsed expression. Never throws; sets in the result are returned as lists. */
export function evaluateYaql(ast: YaqlNode, context: YaqlContext): YaqlResult {
  try {
    return { ok: true, value: toPlain(runTree(ast, context)) };
  } catch (e) {
    if (e instanceof YaqlRuntimeError) {
      const hint = e.code === 'yaql/too-much-work' ? 'Loop over fewer elements (filter with where() before select()), or build shorter strings.' : "Guard optional keys with $.get('key') or check the data the expression reads.";
      return { ok: false, error: finding(e.code, 'error', e.message, e.column === undefined ? undefined : { column: e.column }, hint) };
    }
    if (e instanceof RangeError) {
      return { ok: false, error: finding('yaql/too-deep', 'error', 'The data is nested too deeply to evaluate.', undefined, 'Simplify the data or the expression.') };
    }
    throw e;
  }
}

/** A condition's verdict: YAQL truthiness of the value; a failed evaluation is reported, not guessed. */
export function evaluateYaqlCondition(ast: YaqlNode, context: YaqlContext): { value: boolean; error?: Finding } {
  const result = evaluateYaql(ast, context);
  return result.ok ? { value: truthy(result.value) } : { value: false, error: result.error };
}
