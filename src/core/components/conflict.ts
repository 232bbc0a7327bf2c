/**
 * Conflict analysis for `Cdcl` (cdcl.ts): why a component got its value, which components a
 * conflict involves, the first unique implication point of a conflict, and the assumptions a
 * refutation rests on (its core). Reasons are not stored when values are propagated; they are
 * rebuilt here from the assignment order, which is cheap because analysis is rare next to
 * propagation.
 */
import type { Catalog } from './catalog.js';

export const FREE = 0;
export const TRUE = 1;
export const FALSE = -1;

/** A decision or an assumption (no reason). */
export const NONE = 0;
/** Excluded by an incompatible chosen component (`ref`). */
export const PAIR = 1;
/** An item of rule `ref` forced by counting. */
export const ITEM = 2;
/** The trigger of rule `ref`, excluded because the rule could no longer hold. */
export const TRIGGER = 3;
/** Forced by learned clause `ref`. */
export const CLAUSE = 4;

export type Conflict = { kind: typeof PAIR; a: number; b: number } | { kind: typeof ITEM; rule: number } | { kind: typeof CLAUSE; clause: number };

/** What analysis reads of the solver: the assignment, in order, and why each value was set. */
export interface Trail {
  readonly catalog: Catalog;
  readonly value: Int8Array;
  readonly level: Int32Array;
  readonly kind: Int8Array;
  readonly ref: Int32Array;
  /** Position of each assigned component on the trail. */
  readonly pos: Int32Array;
  readonly trail: Int32Array;
  readonly trailLen: number;
  readonly nTrue: Int32Array;
  readonly clauses: Int32Array[];
  /** Scratch marks, all zero between calls. */
  readonly seen: Uint8Array;
  readonly activity: Float64Array;
}

/** The components whose values forced `x` (all assigned before it). */
export function reasonOf(s: Trail, x: number, out: number[]): void {
  out.length = 0;
  const kind = s.kind[x];
  const ref = s.ref[x];
  if (kind === PAIR) out.push(ref);
  else if (kind === CLAUSE) {
    for (const lit of s.clauses[ref]) if (lit >> 1 !== x) out.push(lit >> 1);
  } else if (kind === ITEM || kind === TRIGGER) ruleReason(s, ref, x, s.pos[x], out);
}

/**
 * Why rule k forced `x` at trail position `at`: its trigger when it was chosen, and the items
 * assigned before `at` on the side that made the count bite (chosen ones for a maximum,
 * excluded ones for a minimum). With `x` = -1 it is the rule's own violation, now.
 */
function ruleReason(s: Trail, k: number, x: number, at: number, out: number[]): void {
  const rule = s.catalog.constraints[k];
  let side: number;
  if (rule.trigger === x) {
    let t = 0;
    for (const y of rule.items) if (s.value[y] === TRUE && s.pos[y] < at) t++;
    side = t > rule.max ? TRUE : FALSE;
  } else if (x >= 0) side = s.value[x] === TRUE ? FALSE : TRUE;
  else side = s.nTrue[k] > rule.max ? TRUE : FALSE;
  if (rule.trigger >= 0 && rule.trigger !== x) out.push(rule.trigger);
  for (const y of rule.items) if (y !== x && s.value[y] === side && s.pos[y] < at) out.push(y);
}

/** The components a conflict involves. */
export function conflictVars(s: Trail, c: Conflict, out: number[]): void {
  out.length = 0;
  if (c.kind === PAIR) out.push(c.a, c.b);
  else if (c.kind === CLAUSE) for (const lit of s.clauses[c.clause]) out.push(lit >> 1);
  else ruleReason(s, c.rule, -1, s.trailLen, out);
}

/**
 * Walk back from a conflict on level `current` (its components in `vars`, which is used as
 * scratch) to the first unique implication point. Returns the UIP and the components of the
 * learned clause on earlier levels; every component met gains `bump` activity.
 */
export function firstUip(s: Trail, vars: number[], current: number, bump: number): { learnt: number[]; uip: number } {
  const { seen } = s;
  const learnt: number[] = [];
  const touched: number[] = [];
  let open = 0;
  let idx = s.trailLen - 1;
  let uip = -1;
  for (;;) {
    for (const v of vars) {
      if (seen[v] || s.level[v] === 0) continue;
      seen[v] = 1;
      touched.push(v);
      s.activity[v] += bump;
      if (s.level[v] === current) open++;
      else learnt.push(v);
    }
    while (!seen[s.trail[idx]]) idx--;
    const p = s.trail[idx--];
    open--;
    if (open <= 0) {
      uip = p;
      break;
    }
    reasonOf(s, p, vars);
  }
  for (const v of touched) seen[v] = 0;
  return { learnt, uip };
}

/**
 * The assumptions that together forced `a` out: a walk back through the reasons from `a`
 * (not the whole trail: the wizard asks this for hundreds of components per click).
 */
export function analyseFinal(s: Trail, a: number, assumptions: readonly number[]): number[] {
  const isAssumption = new Set(assumptions);
  const core: number[] = [];
  const { seen } = s;
  const touched: number[] = [a];
  const stack: number[] = [a];
  const vars: number[] = [];
  seen[a] = 1;
  while (stack.length > 0) {
    const x = stack.pop() as number;
    if (s.level[x] === 0) continue;
    if (s.kind[x] === NONE) {
      if (isAssumption.has(x)) core.push(x);
      continue;
    }
    reasonOf(s, x, vars);
    for (const v of vars) {
      if (!seen[v]) {
        seen[v] = 1;
        touched.push(v);
        stack.push(v);
      }
    }
  }
  for (const v of touched) seen[v] = 0;
  if (!core.includes(a)) core.push(a);
  return core.sort((x, y) => x - y);
}
