/**
 * YAQL values over plain JSON-like data, with Python's rules where YAQL inherits them:
 * truthiness (`[]`, `{}`, `''`, `0`, `null` are false), deep `==` with `true == 1`, sets as their
 * own type (`toSet()`, `intersect`), and runtime errors as values the evaluator turns into findings.
 */
export class YaqlSet {
  constructor(readonly items: unknown[]) {}
  static of(items: Iterable<unknown>): YaqlSet {
    // Members with an equality key (all plain data) are deduplicated through it, in linear time;
    // comparing each with every member kept took 10,000 nodes' uids 50 million comparisons.
    const unique: unknown[] = [];
    const seen = new Set<string>();
    const unkeyed: unknown[] = [];
    for (const x of items) {
      const key = equalityKey(x);
      if (key !== undefined) {
        if (seen.has(key)) continue;
        seen.add(key);
      } else {
        if (unkeyed.some((u) => pyEqual(u, x))) continue;
        unkeyed.push(x);
      }
      unique.push(x);
    }
    return new YaqlSet(unique);
  }
}

/** What `old($.x)` gives when there is no old state, or evaluating on it failed (Fuel's `_UNDEFINED`). */
export const UNDEFINED: unique symbol = Symbol('yaql-undefined');

/**
 * Thrown inside evaluation and caught at its top. Deliberately not an `Error`: capturing a stack
 * trace costs more than evaluating most conditions, and `old(...)` on a first deployment fails often.
 */
export class YaqlRuntimeError {
  constructor(
    readonly code: string,
    readonly message: string,
    readonly column?: number,
  ) {}
}

export const fail = (code: string, message: string, column?: number): never => {
  throw new YaqlRuntimeError(code, message, column);
};

export type Dict = Record<string, unknown>;
export const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof YaqlSet);
/** YAQL's "iterable": lists and sets, never strings or maps. */
export const isIterable = (v: unknown): v is unknown[] | YaqlSet => Array.isArray(v) || v instanceof YaqlSet;
export const itemsOf = (v: unknown[] | YaqlSet): unknown[] => (Array.isArray(v) ? v : v.items);
const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '' || v === UNDEFINED) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof YaqlSet) return v.items.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

const numeric = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : undefined);

export function pyEqual(a: unknown, b: unknown): boolean {
  return a === b || structurallyEqual(a, b, pyEqual);
}

/** One level of Python's `==`, comparing the members through `equal`. */
function structurallyEqual(a: unknown, b: unknown, equal: (x: unknown, y: unknown) => boolean): boolean {
  if (a === b) return true;
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (a instanceof YaqlSet || b instanceof YaqlSet) {
    return a instanceof YaqlSet && b instanceof YaqlSet && a.items.length === b.items.length && a.items.every((x) => b.items.some((y) => equal(x, y)));
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/**
 * A string that two values share exactly when `pyEqual` finds them equal (1, 1.0 and true alike;
 * sets whatever their order), so many values can be matched through a Map instead of pairwise.
 * Undefined for what it cannot key (NaN, which equals nothing, and non-data values).
 */
export function equalityKey(v: unknown): string | undefined {
  if (v === null) return 'z';
  if (typeof v === 'number') return Number.isNaN(v) ? undefined : `n${v}`;
  if (typeof v === 'boolean') return `n${Number(v)}`;
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v) || v instanceof YaqlSet) {
    const parts: string[] = [];
    for (const item of itemsOf(v)) {
      const key = equalityKey(item);
      if (key === undefined) return undefined;
      parts.push(key);
    }
    return Array.isArray(v) ? `[${parts.join(',')}]` : `<${parts.sort().join(',')}>`;
  }
  if (isDict(v)) {
    const parts: string[] = [];
    for (const k of Object.keys(v).sort()) {
      const key = equalityKey(v[k]);
      if (key === undefined) return undefined;
      parts.push(`${JSON.stringify(k)}:${key}`);
    }
    return `{${parts.join(',')}}`;
  }
  return undefined;
}

const sizeOf = (v: object): number => (Array.isArray(v) ? v.length : v instanceof YaqlSet ? v.items.length : Object.keys(v).length);

/**
 * `pyEqual` remembering its verdict for pairs of large containers, by identity. For a caller that
 * evaluates many conditions over the same data that nobody mutates meanwhile: `changed($)` on every
 * node of a redeployment compares the same cluster-wide `network_metadata` pair each time, and
 * without the memo each comparison walks every node of the cluster again (quadratic). Small
 * containers are compared afresh: remembering them would cost more than comparing them.
 */
export function memoizedEqual(minSize = 16): (a: unknown, b: unknown) => boolean {
  const memo = new WeakMap<object, WeakMap<object, boolean>>();
  const equal = (a: unknown, b: unknown): boolean => {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return structurallyEqual(a, b, equal);
    const known = memo.get(a)?.get(b);
    if (known !== undefined) return known;
    const verdict = structurallyEqual(a, b, equal);
    if (sizeOf(a) >= minSize || sizeOf(b) >= minSize) (memo.get(a) ?? memo.set(a, new WeakMap()).get(a)!).set(b, verdict);
    return verdict;
  };
  return equal;
}

export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v === UNDEFINED) return 'undefined';
  if (Array.isArray(v)) return 'list';
  if (v instanceof YaqlSet) return 'set';
  if (typeof v === 'object') return 'map';
  return typeof v;
}

/** `$.key` on a map (the key must exist), or on a list: the key of every element. */
export function attribute(target: unknown, name: string, column: number): unknown {
  if (isDict(target)) {
    if (!hasOwn(target, name)) fail('yaql/missing-key', `The key '${name}' does not exist.`, column);
    return target[name];
  }
  if (isIterable(target)) return itemsOf(target).map((x) => attribute(x, name, column));
  return fail('yaql/no-attribute', `Cannot read '.${name}' of a ${typeName(target)}.`, column);
}

export function index(target: unknown, key: unknown, column: number): unknown {
  if (Array.isArray(target) || typeof target === 'string') {
    if (typeof key !== 'number' || !Number.isInteger(key)) return fail('yaql/bad-index', `A ${typeName(target)} is indexed by a whole number, not a ${typeName(key)}.`, column);
    const i = key < 0 ? target.length + key : key;
    if (i < 0 || i >= target.length) fail('yaql/index-out-of-range', `Index ${key} is out of range (length ${target.length}).`, column);
    return target[i];
  }
  if (isDict(target)) {
    if (typeof key !== 'string' || !hasOwn(target, key)) fail('yaql/missing-key', `The key ${JSON.stringify(key)} does not exist.`, column);
    return target[key as string];
  }
  return fail('yaql/bad-index', `A ${typeName(target)} cannot be indexed.`, column);
}

/** Strings of a list, indexed once per list; evaluation never mutates lists it was given or built. */
const stringIndex = new WeakMap<unknown[], Set<string>>();
function stringsOf(items: unknown[]): Set<string> {
  let index = stringIndex.get(items);
  if (!index) {
    index = new Set();
    for (const x of items) if (typeof x === 'string') index.add(x);
    stringIndex.set(items, index);
  }
  return index;
}

export function membership(needle: unknown, haystack: unknown, column: number): boolean {
  if (typeof haystack === 'string') {
    if (typeof needle !== 'string') fail('yaql/bad-operands', `'in' a string needs a string on the left, not a ${typeName(needle)}.`, column);
    return haystack.includes(needle as string);
  }
  if (isIterable(haystack)) {
    const items = itemsOf(haystack);
    // A string equals only the same string (pyEqual), so a long list answers from a set: `$.uid in
    // added($.nodes).uid` on every node of a large cluster would otherwise be quadratic.
    if (typeof needle === 'string' && items.length > 32) return stringsOf(items).has(needle);
    return items.some((x) => pyEqual(x, needle));
  }
  return fail('yaql/bad-operands', `'in' needs a list, a set or a string on the right, not a ${typeName(haystack)}.`, column);
}

export function compare(op: string, a: unknown, b: unknown, column: number): boolean {
  // YAQL answers false when either side is null rather than failing.
  if (a === null || b === null) return false;
  const na = numeric(a);
  const nb = numeric(b);
  let l: number | string;
  let r: number | string;
  if (na !== undefined && nb !== undefined) [l, r] = [na, nb];
  else if (typeof a === 'string' && typeof b === 'string') [l, r] = [a, b];
  else return fail('yaql/bad-operands', `Cannot compare a ${typeName(a)} with a ${typeName(b)} using '${op}'.`, column);
  switch (op) {
    case '<':
      return l < r;
    case '>':
      return l > r;
    case '<=':
      return l <= r;
    default:
      return l >= r;
  }
}

export function arithmetic(op: string, a: unknown, b: unknown, column: number): unknown {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    switch (op) {
      case '+':
        return na + nb;
      case '-':
        return na - nb;
      case '*':
        return na * nb;
      case '/':
        if (nb === 0) fail('yaql/division-by-zero', 'Division by zero.', column);
        // Whole numbers divide as whole numbers (Python's //), as YAQL does.
        return Number.isInteger(na) && Number.isInteger(nb) ? Math.floor(na / nb) : na / nb;
      default:
        if (nb === 0) fail('yaql/division-by-zero', 'Modulo by zero.', column);
        return na - nb * Math.floor(na / nb);
    }
  }
  if (op === '+') {
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (Array.isArray(a) && isIterable(b)) return [...a, ...itemsOf(b)];
    if (isDict(a) && isDict(b)) return { ...a, ...b };
  }
  if (op === '*') {
    if (typeof a === 'string' && Number.isInteger(nb)) return a.repeat(Math.max(0, nb!));
    if (typeof b === 'string' && Number.isInteger(na)) return b.repeat(Math.max(0, na!));
  }
  return fail('yaql/bad-operands', `Cannot apply '${op}' to a ${typeName(a)} and a ${typeName(b)}.`, column);
}

/** Plain data out: sets become lists (Nailgun's engine option `convertSetsToLists`). */
export function toPlain(v: unknown): unknown {
  if (v instanceof YaqlSet) return v.items.map(toPlain);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v === UNDEFINED) return null;
  if (isDict(v)) {
    const out: Dict = {};
    for (const [k, x] of Object.entries(v)) out[k] = toPlain(x);
    return out;
  }
  return v;
}
