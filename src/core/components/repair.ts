/**
 * Proving a component choosable without a search: start from a known valid selection (a model)
 * that contains the user's choices, add the component, and mend what that breaks — take a member
 * for each requirement left unmet, drop what clashes with an addition, swap the network core —
 * never touching the user's own choices. When every touched rule holds again the result is a
 * model too, found in time proportional to what changed: the rules are counted against the base
 * model once, and each attempt only keeps differences.
 *
 * It is greedy (no backtracking) and gives up after a few steps; giving up proves nothing, and the
 * caller falls back to the complete solver. What it returns is always a real model: a rule can
 * only break when its trigger is added, an item is added under a maximum, or an item is dropped
 * under a minimum, and each of those puts the rule back on the list to check.
 */
import { sortedHas, type Catalog } from './catalog.js';
import { ruleSides, type RuleSides } from './rebase.js';
import { ruleTables, type RuleTables } from './tables.js';

/** Adds and drops one attempt may make before it gives up. */
const STEPS = 48;

export class Repair {
  private readonly catalog: Catalog;
  private readonly rules: RuleTables;
  private readonly inBase: Uint8Array;
  private readonly chosen: Uint8Array;
  private readonly baseCount: Int32Array;
  /** How many base members each component clashes with (pairs), and the base's full maxima. */
  private readonly baseClash: Int32Array;
  private readonly atMax: Uint8Array;
  private readonly atMaxList: number[] = [];
  private base: Int32Array = new Int32Array(0);
  private excluded: (c: number) => boolean = () => false;
  private epoch = 0;
  private readonly added: Int32Array;
  private readonly dropped: Int32Array;
  /**
   * Per component, the rules it is an item of that an addition can break (a maximum) or a drop
   * can break (a minimum). A popular component (every hypervisor is an item of each
   * `hypervisor:*` requirement) is an item of thousands of rules, almost none of them with a
   * maximum; walking them all on every addition was the repair's main cost.
   */
  private readonly sides: RuleSides;
  /** Rules to check, a stack with its own length: emptying an array by `length = 0` frees its store, and a click makes thousands of attempts. */
  private readonly todo: number[] = [];
  private todoLen = 0;
  /** The attempt's additions and drops, with lengths of their own for the same reason as `todo`. */
  private readonly addList: number[] = [];
  private addLen = 0;
  private readonly dropList: number[] = [];
  private dropLen = 0;
  private steps = 0;

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    this.rules = ruleTables(catalog);
    const n = catalog.components.length;
    const m = catalog.constraints.length;
    this.inBase = new Uint8Array(n);
    this.chosen = new Uint8Array(n);
    this.baseCount = new Int32Array(m);
    this.baseClash = new Int32Array(n);
    this.atMax = new Uint8Array(n);
    this.added = new Int32Array(n);
    this.dropped = new Int32Array(n);
    this.sides = ruleSides(catalog);
  }

  /**
   * The model to start from, the user's choices (never dropped), and a test for components
   * known to be impossible with those choices (so the greedy step does not pick them).
   */
  setBase(model: Int32Array, selection: readonly number[], excluded: (c: number) => boolean): void {
    const { occurrences, conflicts, constraints, global, triggeredBy } = this.catalog;
    // Indexed loops: once a click, over rule and neighbour lists thousands long (a for-of in code
    // not yet optimised allocates a step object per item).
    for (let i = 0; i < this.base.length; i++) {
      const x = this.base[i];
      this.inBase[x] = 0;
      const ks = occurrences[x];
      for (let j = 0; j < ks.length; j++) this.baseCount[ks[j]] = 0;
      const ys = conflicts[x];
      for (let j = 0; j < ys.length; j++) this.baseClash[ys[j]] = 0;
    }
    for (const x of this.atMaxList) this.atMax[x] = 0;
    this.atMaxList.length = 0;
    this.chosen.fill(0);
    for (const x of selection) this.chosen[x] = 1;
    this.base = model;
    for (let i = 0; i < model.length; i++) {
      const x = model[i];
      this.inBase[x] = 1;
      const ks = occurrences[x];
      for (let j = 0; j < ks.length; j++) this.baseCount[ks[j]]++;
      const ys = conflicts[x];
      for (let j = 0; j < ys.length; j++) this.baseClash[ys[j]]++;
    }
    // Rules in force that are full: one more member would break them (the radio group, one_of).
    const full = (k: number) => {
      const rule = constraints[k];
      if (rule.max === Infinity || this.baseCount[k] < rule.max) return;
      for (let i = 0; i < rule.items.length; i++) {
        const x = rule.items[i];
        if (!this.inBase[x] && !this.atMax[x]) {
          this.atMax[x] = 1;
          this.atMaxList.push(x);
        }
      }
    };
    for (const k of global) full(k);
    for (const x of model) for (const k of triggeredBy[x]) full(k);
    this.excluded = excluded;
  }

  isInBase(c: number): boolean {
    return this.inBase[c] === 1;
  }

  /** A model containing the base's choices and `c`, or undefined when the greedy mending failed. */
  tryAdd(c: number): Int32Array | undefined {
    if (this.inBase[c]) return this.base;
    if (!this.canAdd(c)) return undefined;
    const out: number[] = [];
    for (const x of this.base) if (this.dropped[x] !== this.epoch) out.push(x);
    for (let i = 0; i < this.addLen; i++) out.push(this.addList[i]);
    return Int32Array.from(out.sort((a, b) => a - b));
  }

  /**
   * Would `tryAdd` succeed? The same greedy mending without building the model: a click asks
   * this of thousands of components and needs the model of only a few (deterministic, so
   * `tryAdd` later gives the model this proved).
   */
  canAdd(c: number): boolean {
    if (this.inBase[c]) return true;
    this.epoch++;
    this.steps = 0;
    this.todoLen = 0;
    this.addLen = 0;
    this.dropLen = 0;
    return this.add(c) && this.mend();
  }

  /** `canAdd` for several components at once: all of them in one mended model. */
  canAddAll(xs: readonly number[]): boolean {
    this.epoch++;
    this.steps = 0;
    this.todoLen = 0;
    this.addLen = 0;
    this.dropLen = 0;
    // Those already in the base are kept as if added now: mending must not drop them to make room
    // for the others (it did: asked for S25 and C25 from a base holding S25, it dropped S25 and
    // answered yes for a selection without it).
    for (let i = 0; i < xs.length; i++) if (this.inBase[xs[i]]) this.added[xs[i]] = this.epoch;
    for (let i = 0; i < xs.length; i++) if (!this.add(xs[i])) return false;
    return this.mend();
  }

  /** How many base members the last `canAdd` dropped. */
  get droppedCount(): number {
    return this.dropLen;
  }

  /** What the last successful `canAdd` changed against the base: the model is base − dropped + added. */
  lastChange(): { added: readonly number[]; dropped: readonly number[] } {
    // Plain arrays: a click keeps a thousand of these, and typed arrays cost the garbage collector far more.
    return { added: this.addList.slice(0, this.addLen), dropped: this.dropLen === 0 ? NO_CHANGE : this.dropList.slice(0, this.dropLen) };
  }

  /** Does the base plus `c` alone (nothing dropped, nothing else added) satisfy every rule? */
  extendsBase(c: number): boolean {
    if (this.inBase[c]) return true;
    if (this.baseClash[c] > 0 || this.atMax[c] || this.excluded(c)) return false;
    const { constraints, triggeredBy } = this.catalog;
    const { min, max } = this.rules;
    const own = triggeredBy[c];
    for (let i = 0; i < own.length; i++) {
      const k = own[i];
      const t = this.baseCount[k] + (sortedHas(constraints[k].items, c) ? 1 : 0);
      if (t < min[k] || t > max[k]) return false;
    }
    return true;
  }

  /** Does `x` clash with a component in the current attempt? */
  private clashes(x: number): boolean {
    const { conflicts } = this.catalog;
    if (this.baseClash[x] > 0 && this.baseClashing(x, false) >= 0) return true;
    for (let i = 0; i < this.addLen; i++) if (this.addList[i] !== x && sortedHas(conflicts[x], this.addList[i])) return true;
    return false;
  }

  /**
   * The base members (not dropped) that clash with `x`: the first one (or -1), or, with `drop`,
   * drops them all (-2 when one may not go). Walks the shorter side: an object storage has a
   * thousand neighbours (every 20th component rules out `storage:object:*`) but a base has ten
   * members, so the base is searched in the neighbour list rather than the other way round.
   */
  private baseClashing(x: number, drop: boolean): number {
    const list = this.catalog.conflicts[x];
    const { base } = this;
    // Indexed loops and no closure: asked of every addition, thousands a click.
    if (list.length <= 4 * base.length) {
      for (let i = 0; i < list.length; i++) {
        const r = this.considerClash(list[i], drop);
        if (r !== -1) return r;
      }
    } else {
      for (let i = 0; i < base.length; i++) {
        if (!sortedHas(list, base[i])) continue;
        const r = this.considerClash(base[i], drop);
        if (r !== -1) return r;
      }
    }
    return -1;
  }

  /** `baseClashing`'s step for a neighbour `y`: -1 when it is not in the attempt or was dropped now, -2 when it may not go. */
  private considerClash(y: number, drop: boolean): number {
    if (!this.inBase[y] || this.dropped[y] === this.epoch) return -1;
    if (!drop) return y;
    return this.drop(y) ? -1 : -2;
  }

  private isIn(x: number): boolean {
    return this.added[x] === this.epoch || (this.inBase[x] === 1 && this.dropped[x] !== this.epoch);
  }

  /**
   * How many of rule `k`'s items the attempt holds: the base's count, corrected by the attempt's
   * few additions and drops (counted here rather than pushed to every rule they are items of).
   */
  private count(k: number): number {
    const { items } = this.catalog.constraints[k];
    let t = this.baseCount[k];
    for (let i = 0; i < this.addLen; i++) if (sortedHas(items, this.addList[i])) t++;
    for (let i = 0; i < this.dropLen; i++) if (sortedHas(items, this.dropList[i])) t--;
    return t;
  }

  private add(x: number): boolean {
    if (this.isIn(x)) return true;
    if (++this.steps > STEPS || this.excluded(x) || this.dropped[x] === this.epoch) return false;
    const { conflicts, triggeredBy } = this.catalog;
    this.added[x] = this.epoch;
    this.addList[this.addLen++] = x;
    // A rule whose trigger is out holds whatever its count; should the trigger come in later, its
    // addition puts the rule on the list then.
    const { trigger } = this.rules;
    const capped = this.sides.capped(x);
    for (let i = 0; i < capped.length; i++) {
      const k = capped[i];
      const t = trigger[k];
      if (t < 0 || this.isIn(t)) this.todo[this.todoLen++] = k;
    }
    const own = triggeredBy[x];
    for (let i = 0; i < own.length; i++) this.todo[this.todoLen++] = own[i];
    if (this.baseClash[x] > 0 && this.baseClashing(x, true) === -2) return false;
    // Two additions that clash: give up (one of them was needed).
    for (let i = 0; i < this.addLen - 1; i++) if (sortedHas(conflicts[x], this.addList[i])) return false;
    return true;
  }

  private drop(y: number): boolean {
    if (++this.steps > STEPS || this.chosen[y] || this.added[y] === this.epoch) return false;
    this.dropped[y] = this.epoch;
    this.dropList[this.dropLen++] = y;
    const floored = this.sides.floored(y);
    for (let i = 0; i < floored.length; i++) this.todo[this.todoLen++] = floored[i];
    return true;
  }

  /** Work through the rules that may have broken until none is left or a step fails. */
  private mend(): boolean {
    const { constraints } = this.catalog;
    const { trigger, max } = this.rules;
    while (this.todoLen > 0) {
      const k = this.todo[--this.todoLen];
      const tr = trigger[k];
      if (tr >= 0 && !this.isIn(tr)) continue;
      const rule = constraints[k];
      let t = this.count(k);
      while (t > max[k]) {
        // Drop a member we may drop: neither the user's choice nor one just added.
        const victim = this.victim(rule.items);
        if (victim < 0 || !this.drop(victim)) return false;
        t--;
      }
      if (t < rule.min && rule.trigger >= 0 && !this.chosen[rule.trigger] && this.added[rule.trigger] !== this.epoch) {
        // What needed the member that went is itself optional here: let it go too (keeps models small).
        if (!this.drop(rule.trigger)) return false;
        continue;
      }
      if (t < rule.min) {
        for (let need = rule.min - t; need > 0; need--) {
          const pick = this.pick(rule.items);
          if (pick < 0 || !this.add(pick)) return false;
        }
      }
    }
    return true;
  }

  /**
   * A member of `items` in the attempt that may go: neither the user's choice nor just added, so
   * one from the base. The radio group lists hundreds of items and a base has a few members:
   * the shorter side is walked.
   */
  private victim(items: Int32Array): number {
    const { base } = this;
    if (items.length <= 4 * base.length) {
      for (let i = 0; i < items.length; i++) if (this.mayGo(items[i])) return items[i];
    } else {
      for (let i = 0; i < base.length; i++) if (this.mayGo(base[i]) && sortedHas(items, base[i])) return base[i];
    }
    return -1;
  }

  private mayGo(x: number): boolean {
    return this.isIn(x) && !this.chosen[x] && this.added[x] !== this.epoch;
  }

  /** The member to take for an unmet requirement: allowed, not clashing with what is in, lightest. */
  private pick(items: Int32Array): number {
    const { weight } = this.rules;
    let best = -1;
    let bestClash = true;
    let looked = 0;
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      // A required type lists thousands: the first few clean ones are as good as any.
      if (!bestClash && ++looked > 16) break;
      if (this.isIn(x) || this.dropped[x] === this.epoch || this.excluded(x)) continue;
      const clash = this.clashes(x);
      if (best < 0 || (bestClash && !clash) || (clash === bestClash && weight[x] < weight[best])) {
        best = x;
        bestClash = clash;
      }
    }
    return best;
  }
}

const NO_CHANGE: readonly number[] = Object.freeze([]);

