/**
 * The functions of Fuel's YAQL subset. Each says how it may be called (`$.x.len()` is a method
 * call, `len($.x)` a function call; YAQL allows some only one way), how many arguments it takes
 * (a method's receiver counts as the first), and which arguments are lambdas: evaluated per element
 * with `$` bound to it (`where`, `select`, `any`, `all`) or lazily (`switch`, lifecycle functions).
 */
import { stringify } from 'yaml';
import { lifecycleFunctions } from './lifecycle.js';
import { search } from './regex.js';
import { YaqlSet, equalityKey, fail, isDict, isIterable, itemsOf, pyEqual, toPlain, truthy, typeName, UNDEFINED, type Dict } from './values.js';
import { spend, stringUnits, type WorkBudget } from './work.js';

export interface Invocation {
  /** Number of arguments, receiver included. */
  readonly count: number;
  /** Evaluates argument `i` with the caller's `$`. */
  value(i: number): unknown;
  /** Evaluates argument `i` with `$` bound to `dollar` (a lambda). */
  apply(i: number, dollar: unknown): unknown;
  /** The `key => value` pair at `i`, evaluated; undefined when the argument is not a pair. */
  pair(i: number): { key: () => unknown; value: () => unknown } | undefined;
  readonly env: YaqlEnvironment;
  readonly column: number;
}

export interface YaqlEnvironment {
  /** `$` at the top level and `new()`'s data. */
  readonly data: unknown;
  /** The previous deployment's data; absent on a first deployment. */
  readonly old?: unknown;
  readonly hasOld: boolean;
  /** Python's `==` for lifecycle comparisons (`pyEqual`, or a memoizing one the caller shares across evaluations). */
  readonly equal: (a: unknown, b: unknown) => boolean;
  readonly variables: Readonly<Record<string, unknown>>;
  /** What this evaluation may still spend (see work.ts). */
  readonly budget: WorkBudget;
}

export type CallForm = 'method' | 'function' | 'both';

export interface FunctionSpec {
  form: CallForm;
  /** Arguments, receiver included. */
  min: number;
  max: number;
  /** Whether `key => value` arguments are expected. */
  pairs?: boolean;
  /** Fuel's own lifecycle functions (read the old state). */
  lifecycle?: boolean;
  /** Argument positions evaluated with their own `$` (element lambdas): dependency analysis needs them. */
  elementLambdas?: number[];
  call(inv: Invocation): unknown;
}

const iterable = (inv: Invocation, i: number, name: string): unknown[] => {
  const v = inv.value(i);
  if (!isIterable(v)) return fail('yaql/bad-argument', `${name}() needs a list or a set, not a ${typeName(v)}.`, inv.column);
  const items = itemsOf(v);
  spend(inv.env.budget, items.length, inv.column);
  return items;
};
const dict = (inv: Invocation, i: number, name: string): Dict => {
  const v = inv.value(i);
  if (!isDict(v)) return fail('yaql/bad-argument', `${name}() needs a map, not a ${typeName(v)}.`, inv.column);
  spend(inv.env.budget, 1, inv.column);
  return v;
};
/** A string built by a function, paid for by its length. */
const built = (inv: Invocation, s: string): string => {
  spend(inv.env.budget, stringUnits(s.length), inv.column);
  return s;
};
/**
 * A list built by a function, paid for by its elements: a string's characters cost a unit per 16,
 * but `('a,' * 500000).split(',')` builds a string per two of them (a condition doing that on
 * every node held a server 16.7 s at 200 nodes).
 */
const builtList = <T>(inv: Invocation, items: T[]): T[] => {
  spend(inv.env.budget, items.length, inv.column);
  return items;
};
const string = (inv: Invocation, i: number, name: string): string => {
  const v = inv.value(i);
  if (typeof v !== 'string') return fail('yaql/bad-argument', `${name}() needs a string, not a ${typeName(v)}.`, inv.column);
  return v;
};

function flatten(items: unknown[], out: unknown[], inv: Invocation): unknown[] {
  // The same list can sit in many places (a select() returning one list per element): pay per item.
  spend(inv.env.budget, items.length, inv.column);
  for (const x of items) {
    if (isIterable(x)) flatten(itemsOf(x), out, inv);
    else out.push(x);
  }
  return out;
}

export const standardFunctions: Record<string, FunctionSpec> = {
  get: {
    form: 'method',
    min: 2,
    max: 3,
    call: (inv) => {
      const d = dict(inv, 0, 'get');
      const key = inv.value(1);
      if (typeof key === 'string' && Object.prototype.hasOwnProperty.call(d, key)) return d[key];
      return inv.count > 2 ? inv.value(2) : null;
    },
  },
  keys: { form: 'both', min: 1, max: 1, call: (inv) => builtList(inv, Object.keys(dict(inv, 0, 'keys'))) },
  values: { form: 'both', min: 1, max: 1, call: (inv) => builtList(inv, Object.values(dict(inv, 0, 'values'))) },
  items: { form: 'both', min: 1, max: 1, call: (inv) => builtList(inv, Object.entries(dict(inv, 0, 'items'))) },
  set: {
    form: 'method',
    min: 3,
    max: 3,
    call: (inv) => {
      const d = dict(inv, 0, 'set');
      const key = inv.value(1);
      if (typeof key !== 'string') return fail('yaql/bad-argument', `set() needs a string key, not a ${typeName(key)}.`, inv.column);
      // A copy of the map: paid for by its size.
      spend(inv.env.budget, Object.keys(d).length, inv.column);
      return { ...d, [key]: inv.value(2) };
    },
  },
  where: { form: 'method', min: 2, max: 2, elementLambdas: [1], call: (inv) => iterable(inv, 0, 'where').filter((x) => truthy(inv.apply(1, x))) },
  select: { form: 'method', min: 2, max: 2, elementLambdas: [1], call: (inv) => iterable(inv, 0, 'select').map((x) => inv.apply(1, x)) },
  any: {
    form: 'both',
    min: 1,
    max: 2,
    elementLambdas: [1],
    call: (inv) => (inv.count > 1 ? iterable(inv, 0, 'any').some((x) => truthy(inv.apply(1, x))) : iterable(inv, 0, 'any').length > 0),
  },
  all: {
    form: 'both',
    min: 1,
    max: 2,
    elementLambdas: [1],
    call: (inv) => iterable(inv, 0, 'all').every((x) => truthy(inv.count > 1 ? inv.apply(1, x) : x)),
  },
  len: {
    form: 'both',
    min: 1,
    max: 1,
    call: (inv) => {
      const v = inv.value(0);
      if (typeof v === 'string' || Array.isArray(v)) return v.length;
      if (v instanceof YaqlSet) return v.items.length;
      if (isDict(v)) return Object.keys(v).length;
      return fail('yaql/bad-argument', `len() needs a list, a set, a map or a string, not a ${typeName(v)}.`, inv.column);
    },
  },
  matches: { form: 'method', min: 2, max: 2, call: (inv) => search(string(inv, 1, 'matches'), string(inv, 0, 'matches'), inv.env.budget, inv.column) },
  concat: {
    form: 'both',
    min: 1,
    max: Infinity,
    call: (inv) => {
      const values = Array.from({ length: inv.count }, (_, i) => inv.value(i));
      if (values.every((v) => typeof v === 'string')) {
        spend(inv.env.budget, stringUnits(values.reduce((n, v) => n + (v as string).length, 0)), inv.column);
        return values.join('');
      }
      if (values.every(isIterable)) {
        spend(inv.env.budget, values.reduce((n, v) => n + itemsOf(v as unknown[]).length, 0), inv.column);
        return values.flatMap((v) => itemsOf(v as unknown[]));
      }
      return fail('yaql/bad-argument', `concat() needs all strings or all lists, not ${values.map(typeName).join(', ')}.`, inv.column);
    },
  },
  first: {
    form: 'method',
    min: 1,
    max: 2,
    call: (inv) => {
      const items = iterable(inv, 0, 'first');
      if (items.length) return items[0];
      return inv.count > 1 ? inv.value(1) : fail('yaql/empty-collection', 'first() of an empty collection.', inv.column);
    },
  },
  flatten: { form: 'method', min: 1, max: 1, call: (inv) => flatten(iterable(inv, 0, 'flatten'), [], inv) },
  toSet: { form: 'method', min: 1, max: 1, call: (inv) => YaqlSet.of(iterable(inv, 0, 'toSet')) },
  intersect: {
    form: 'method',
    min: 2,
    max: 2,
    call: (inv) => {
      const a = inv.value(0);
      const b = inv.value(1);
      if (!(a instanceof YaqlSet) || !(b instanceof YaqlSet)) return fail('yaql/bad-argument', `intersect() works on two sets (use toSet()), not a ${typeName(a)} and a ${typeName(b)}.`, inv.column);
      // Keyed when every member of b has an equality key (data always does): linear, not a*b.
      const keys = b.items.map(equalityKey);
      if (keys.every((k) => k !== undefined)) {
        spend(inv.env.budget, a.items.length + b.items.length, inv.column);
        const inB = new Set(keys);
        return new YaqlSet(a.items.filter((x) => inB.has(equalityKey(x)!) || (equalityKey(x) === undefined && b.items.some((y) => pyEqual(x, y)))));
      }
      spend(inv.env.budget, a.items.length * b.items.length, inv.column);
      return new YaqlSet(a.items.filter((x) => b.items.some((y) => pyEqual(x, y))));
    },
  },
  contains: {
    form: 'method',
    min: 2,
    max: 2,
    call: (inv) => {
      const needle = inv.value(1);
      return iterable(inv, 0, 'contains').some((x) => pyEqual(x, needle));
    },
  },
  dict: {
    form: 'function',
    min: 0,
    max: Infinity,
    pairs: true,
    call: (inv) => {
      const out: Dict = {};
      const entry = (k: unknown, v: unknown) => {
        if (typeof k !== 'string') fail('yaql/bad-argument', `dict() keys must be strings here, not a ${typeName(k)}.`, inv.column);
        out[k as string] = v;
      };
      for (let i = 0; i < inv.count; i++) {
        const pair = inv.pair(i);
        if (pair) entry(pair.key(), pair.value());
        else {
          for (const item of iterable(inv, i, 'dict')) {
            if (!Array.isArray(item) || item.length !== 2) fail('yaql/bad-argument', 'dict() needs [key, value] pairs.', inv.column);
            entry((item as unknown[])[0], (item as unknown[])[1]);
          }
        }
      }
      return out;
    },
  },
  switch: {
    form: 'function',
    min: 1,
    max: Infinity,
    pairs: true,
    call: (inv) => {
      for (let i = 0; i < inv.count; i++) {
        const pair = inv.pair(i)!;
        if (truthy(pair.key())) return pair.value();
      }
      return null;
    },
  },
  coalesce: {
    form: 'function',
    min: 0,
    max: Infinity,
    call: (inv) => {
      for (let i = 0; i < inv.count; i++) {
        const v = inv.value(i);
        if (v !== null) return v;
      }
      return null;
    },
  },
  split: {
    form: 'method',
    min: 1,
    max: 3,
    call: (inv) => {
      const s = string(inv, 0, 'split');
      spend(inv.env.budget, stringUnits(s.length), inv.column);
      const sep = inv.count > 1 ? inv.value(1) : null;
      const max = inv.count > 2 ? inv.value(2) : -1;
      if (typeof max !== 'number') return fail('yaql/bad-argument', 'split() takes a number as its limit.', inv.column);
      if (sep === null) {
        // Python's str.split(): runs of whitespace, no empty strings at the ends.
        const parts = builtList(inv, s.trim() === '' ? [] : s.trim().split(/\s+/));
        return max < 0 || parts.length <= max + 1 ? parts : [...parts.slice(0, max), s.trim().split(/\s+/).slice(max).join(' ')];
      }
      if (typeof sep !== 'string' || sep === '') return fail('yaql/bad-argument', 'split() takes a non-empty string separator.', inv.column);
      const parts = builtList(inv, s.split(sep));
      return max < 0 || parts.length <= max + 1 ? parts : [...parts.slice(0, max), parts.slice(max).join(sep)];
    },
  },
  // Fuel's serialisers (nailgun/yaql_ext/serializers.py), used to build uploaded files.
  toYaml: { form: 'method', min: 1, max: 1, call: (inv) => built(inv, stringify(toPlain(inv.value(0)))) },
  toJson: { form: 'method', min: 1, max: 1, call: (inv) => built(inv, JSON.stringify(toPlain(inv.value(0)))) },
  isUndef: { form: 'method', min: 1, max: 1, call: (inv) => inv.value(0) === UNDEFINED },
};

export const yaqlFunctions: Record<string, FunctionSpec> = { ...standardFunctions, ...lifecycleFunctions };

/** Standard YAQL functions (those the reference implementation has; the rest are Fuel's). */
export const standardFunctionNames: ReadonlySet<string> = new Set(Object.keys(standardFunctions).filter((n) => !['toYaml', 'toJson', 'isUndef'].includes(n)));
