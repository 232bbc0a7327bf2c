/**
 * Carrying a repaired proof to the next click's base model without repairing again.
 *
 * A proof from the repair is a model written as a change against a base: M = B − D + A (A the
 * additions, none in B; D the drops, all in B). After a click the selection has a new base B′.
 * The candidate N = B′ − D + A differs from M only by P = (B′ − B) − A, which comes in, and by
 * Q = (B − B′) − D, which goes. M satisfies every rule and B′ does too, so a rule can break in N
 * only where P or Q can break it — as a trigger or an item under a maximum that comes in (P), or
 * an item under a minimum that goes (Q) — and a pair only between P and A (P against the rest of
 * N is inside B′). So checking the handful of rules the base's own difference touches decides
 * whether N is a model; most of a click's thousands of repaired proofs share no rule with it.
 * What is checked is exact: a candidate that passes is a valid selection, one that fails is
 * simply proved again the usual way.
 */
import { sortedHas, type Catalog } from './catalog.js';

/** Per component, the rules it can break by coming in under a maximum, or by going under a minimum. */
export interface RuleSides {
  capped(x: number): Int32Array;
  floored(x: number): Int32Array;
}
const sides = new WeakMap<Catalog, RuleSides>();

/**
 * Once per catalog. A popular component (every hypervisor is an item of each `hypervisor:*`
 * requirement) is an item of thousands of rules, almost none with a maximum: the capped lists are
 * gathered from the few rules with a maximum, and a component that is an item of no rule without
 * a minimum has its whole occurrence list as its floored list (no copy).
 */
export function ruleSides(catalog: Catalog): RuleSides {
  let s = sides.get(catalog);
  if (!s) {
    const { occurrences, constraints } = catalog;
    const n = catalog.components.length;
    const cappedLists: number[][] = [];
    const unfloored = new Uint8Array(n);
    for (const rule of constraints) {
      if (rule.max !== Infinity) for (const x of rule.items) (cappedLists[x] ??= []).push(rule.id);
      if (rule.min <= 0) for (const x of rule.items) unfloored[x] = 1;
    }
    const capped: Int32Array[] = new Array(n);
    const none = new Int32Array(0);
    // Rule ids ascending, as occurrences lists them.
    for (let x = 0; x < n; x++) capped[x] = cappedLists[x] ? Int32Array.from(cappedLists[x]) : none;
    const floored: (Int32Array | undefined)[] = new Array(n);
    s = {
      capped: (x) => capped[x],
      floored: (x) => (floored[x] ??= unfloored[x] ? occurrences[x].filter((k) => constraints[k].min > 0) : occurrences[x]),
    };
    sides.set(catalog, s);
  }
  return s;
}

/** What one old base needs for the check: its difference with the new base and the rules that difference can break. */
interface Against {
  /** B′ − B. */
  plus: number[];
  /** B − B′. */
  minus: number[];
  /** The rules P or Q can break (P ⊆ plus, Q ⊆ minus), with their trigger, bounds and count in B′. */
  rules: number[];
}

export class Rebase {
  private readonly catalog: Catalog;
  private readonly sides: RuleSides;
  private readonly inNew: Uint8Array;
  private readonly chosen: Uint8Array;
  /** Items of each rule in B′ (valid for the rules of a prepared base only). */
  private readonly count: Int32Array;
  private readonly marked: Uint8Array;
  private base: Int32Array = new Int32Array(0);
  private selection: readonly number[] = [];
  /** Prepared old bases (a click meets one to three: last click's base, and older ones carried). */
  private against: Array<{ base: Int32Array; a: Against }> = [];

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    this.sides = ruleSides(catalog);
    const n = catalog.components.length;
    this.inNew = new Uint8Array(n);
    this.chosen = new Uint8Array(n);
    this.count = new Int32Array(catalog.constraints.length);
    this.marked = new Uint8Array(catalog.constraints.length);
  }

  /** The new base model (sorted) and the selection it was found for. */
  setBase(model: Int32Array, selection: readonly number[]): void {
    for (const x of this.base) this.inNew[x] = 0;
    for (const x of this.selection) this.chosen[x] = 0;
    this.base = model;
    this.selection = selection;
    for (const x of model) this.inNew[x] = 1;
    for (const x of selection) this.chosen[x] = 1;
    this.against = [];
  }

  get newBase(): Int32Array {
    return this.base;
  }

  isInNew(x: number): boolean {
    return this.inNew[x] === 1;
  }

  /**
   * A change that `holds` written against the new base: the additions it does not have yet and
   * the drops it still has (the same lists, not copies, when nothing is left out — the usual case).
   */
  moved(change: { added: readonly number[]; dropped: readonly number[] }): { base: Int32Array; added: readonly number[]; dropped: readonly number[] } {
    return { base: this.base, added: only(change.added, this.inNew, 0), dropped: only(change.dropped, this.inNew, 1) };
  }

  /**
   * Is B′ − dropped + added a model containing the selection and `c`? `oldBase` is the B the
   * change was made against (additions not in it, drops in it).
   */
  holds(oldBase: Int32Array, added: readonly number[], dropped: readonly number[], c: number): boolean {
    if (!added.includes(c) && !(this.inNew[c] && !dropped.includes(c))) return false;
    for (let i = 0; i < dropped.length; i++) if (this.chosen[dropped[i]]) return false;
    const a = this.prepare(oldBase);
    const { conflicts, constraints } = this.catalog;
    for (let j = 0; j < a.plus.length; j++) {
      const p = a.plus[j];
      if (added.includes(p)) continue;
      for (let i = 0; i < added.length; i++) if (!this.inNew[added[i]] && sortedHas(conflicts[p], added[i])) return false;
    }
    for (let j = 0; j < a.rules.length; j++) {
      const rule = constraints[a.rules[j]];
      const t = rule.trigger;
      if (t >= 0 && !(this.inNew[t] ? !dropped.includes(t) : added.includes(t))) continue;
      let n = this.count[rule.id];
      for (let i = 0; i < added.length; i++) if (!this.inNew[added[i]] && sortedHas(rule.items, added[i])) n++;
      for (let i = 0; i < dropped.length; i++) if (this.inNew[dropped[i]] && sortedHas(rule.items, dropped[i])) n--;
      if (n < rule.min || n > rule.max) return false;
    }
    return true;
  }

  /** `holds` for B + c (added = [c], nothing dropped; c not in B) without an array. */
  holdsWith(oldBase: Int32Array, c: number): boolean {
    if (this.inNew[c]) return true;
    const a = this.prepare(oldBase);
    const { conflicts, constraints } = this.catalog;
    for (let j = 0; j < a.plus.length; j++) if (sortedHas(conflicts[a.plus[j]], c)) return false;
    for (let j = 0; j < a.rules.length; j++) {
      const rule = constraints[a.rules[j]];
      const t = rule.trigger;
      if (t >= 0 && !this.inNew[t] && t !== c) continue;
      const n = this.count[rule.id] + (sortedHas(rule.items, c) ? 1 : 0);
      if (n < rule.min || n > rule.max) return false;
    }
    return true;
  }

  private prepare(oldBase: Int32Array): Against {
    for (let i = 0; i < this.against.length; i++) if (this.against[i].base === oldBase) return this.against[i].a;
    const plus: number[] = [];
    const minus: number[] = [];
    // Both sorted: one merge.
    const nb = this.base;
    let i = 0;
    let j = 0;
    while (i < oldBase.length || j < nb.length) {
      if (j >= nb.length || (i < oldBase.length && oldBase[i] < nb[j])) minus.push(oldBase[i++]);
      else if (i >= oldBase.length || nb[j] < oldBase[i]) plus.push(nb[j++]);
      else {
        i++;
        j++;
      }
    }
    const { triggeredBy, constraints } = this.catalog;
    const rules: number[] = [];
    const mark = (k: number) => {
      if (this.marked[k]) return;
      this.marked[k] = 1;
      rules.push(k);
    };
    for (const p of plus) {
      for (const k of triggeredBy[p]) mark(k);
      for (const k of this.sides.capped(p)) mark(k);
    }
    for (const q of minus) for (const k of this.sides.floored(q)) mark(k);
    for (const k of rules) {
      this.marked[k] = 0;
      const { items } = constraints[k];
      let n = 0;
      // The base has a handful of members where a rule may list thousands of items.
      for (let i = 0; i < nb.length; i++) if (sortedHas(items, nb[i])) n++;
      this.count[k] = n;
    }
    const a = { plus, minus, rules };
    this.against.push({ base: oldBase, a });
    return a;
  }
}

const NOTHING: readonly number[] = Object.freeze([]);

/** The members of `xs` whose mark is `want`: `xs` itself when all are (no copy, no closure). */
function only(xs: readonly number[], marks: Uint8Array, want: number): readonly number[] {
  let keep = 0;
  for (let i = 0; i < xs.length; i++) if (marks[xs[i]] === want) keep++;
  if (keep === xs.length) return xs;
  if (keep === 0) return NOTHING;
  const out: number[] = [];
  for (let i = 0; i < xs.length; i++) if (marks[xs[i]] === want) out.push(xs[i]);
  return out;
}
