/**
 * Fuel's lifecycle functions (nailgun/yaql_ext/datadiff.py), over the pair of states `{new, old}`:
 * - `new(e)`: `e` evaluated with `$` = the new data; `old(e)`: with `$` = the old data, or the
 *   undefined marker when there is no old state or evaluating on it fails (Fuel treated a failure on
 *   old data as "changed");
 * - `changed(e)`: `new(e) != old(e)`; `changedAny(e…)` / `changedAll(e…)`: any / all of them;
 * - `added(e)`, `deleted(e)`: Fuel's plain (non-recursive) data diff: for maps the keys added or
 *   changed (resp. removed or changed), for lists the items inserted (resp. removed), for anything
 *   else the new (resp. old) value when they differ. With no old state `added` is `new(e)` and
 *   `deleted` is null.
 * On a first deployment (no old state) everything has changed.
 */
import type { FunctionSpec, Invocation } from './functions.js';
import { YaqlRuntimeError, UNDEFINED, equalityKey, isDict, isIterable, itemsOf, type Dict } from './values.js';

type Equal = (a: unknown, b: unknown) => boolean;

function oldValue(inv: Invocation, i: number): unknown {
  if (!inv.env.hasOld) return UNDEFINED;
  try {
    return inv.apply(i, inv.env.old);
  } catch (e) {
    if (e instanceof YaqlRuntimeError) return UNDEFINED;
    throw e;
  }
}
const newValue = (inv: Invocation, i: number): unknown => inv.apply(i, inv.env.data);
const changedAt = (inv: Invocation, i: number): boolean => {
  const old = oldValue(inv, i);
  return old === UNDEFINED || !inv.env.equal(newValue(inv, i), old);
};

/** Items of `b` not matched in `a`, in order, each match used once (a multiset difference). */
function listDifference(a: unknown[], b: unknown[], equal: Equal): unknown[] {
  // `added($.nodes)` on a cluster whose node entries all shifted compares every pair: count equal
  // values by key instead, linear in the lists' size.
  if (a.length * b.length > 64) {
    const unused = new Map<string, number>();
    let keyed = true;
    for (const y of a) {
      const key = equalityKey(y);
      if (key === undefined) {
        keyed = false;
        break;
      }
      unused.set(key, (unused.get(key) ?? 0) + 1);
    }
    const keys = keyed ? b.map(equalityKey) : [];
    if (keyed && keys.every((k) => k !== undefined)) {
      const out: unknown[] = [];
      b.forEach((x, i) => {
        const left = unused.get(keys[i]!) ?? 0;
        if (left > 0) unused.set(keys[i]!, left - 1);
        else out.push(x);
      });
      return out;
    }
  }
  const unused = [...a];
  const out: unknown[] = [];
  for (const x of b) {
    const at = unused.findIndex((y) => equal(x, y));
    if (at >= 0) unused.splice(at, 1);
    else out.push(x);
  }
  return out;
}

function diff(old: unknown, now: unknown, side: 'added' | 'deleted', equal: Equal): unknown {
  if (isDict(old) && isDict(now)) {
    const [from, to] = side === 'added' ? [old, now] : [now, old];
    const out: Dict = {};
    for (const [k, v] of Object.entries(to)) if (!Object.prototype.hasOwnProperty.call(from, k) || !equal(from[k], v)) out[k] = v;
    return out;
  }
  if (isIterable(old) && isIterable(now)) {
    return side === 'added' ? listDifference(itemsOf(old), itemsOf(now), equal) : listDifference(itemsOf(now), itemsOf(old), equal);
  }
  if (typeof old === 'string' && typeof now === 'string') {
    return side === 'added' ? listDifference(old.split(/\r?\n/), now.split(/\r?\n/), equal) : listDifference(now.split(/\r?\n/), old.split(/\r?\n/), equal);
  }
  if (equal(old, now)) return null;
  return side === 'added' ? now : old;
}

export const lifecycleFunctions: Record<string, FunctionSpec> = {
  new: { form: 'function', min: 1, max: 1, lifecycle: true, call: (inv) => newValue(inv, 0) },
  old: { form: 'function', min: 1, max: 1, lifecycle: true, call: (inv) => oldValue(inv, 0) },
  changed: { form: 'function', min: 1, max: 1, lifecycle: true, call: (inv) => changedAt(inv, 0) },
  changedAny: {
    form: 'function',
    min: 1,
    max: Infinity,
    lifecycle: true,
    call: (inv) => {
      for (let i = 0; i < inv.count; i++) if (changedAt(inv, i)) return true;
      return false;
    },
  },
  changedAll: {
    form: 'function',
    min: 1,
    max: Infinity,
    lifecycle: true,
    call: (inv) => {
      for (let i = 0; i < inv.count; i++) if (!changedAt(inv, i)) return false;
      return true;
    },
  },
  added: {
    form: 'function',
    min: 1,
    max: 1,
    lifecycle: true,
    call: (inv) => {
      const old = oldValue(inv, 0);
      const now = newValue(inv, 0);
      return old === UNDEFINED ? now : diff(old, now, 'added', inv.env.equal);
    },
  },
  deleted: {
    form: 'function',
    min: 1,
    max: 1,
    lifecycle: true,
    call: (inv) => {
      const old = oldValue(inv, 0);
      return old === UNDEFINED ? null : diff(old, newValue(inv, 0), 'deleted', inv.env.equal);
    },
  },
};
