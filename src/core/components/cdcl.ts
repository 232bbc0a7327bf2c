/**
 * The yes/no engine behind the wizard: conflict-driven clause learning over the catalog's own
 * rules, with assumptions (the user's selection, then the component asked about).
 *
 * Why alongside the explaining `Solver`: that one searches chronologically and keeps a proof of
 * every branch, which is what a person reads, but it can wander exponentially on the synthetic
 * catalogs' unsatisfiable corners (one component took its whole 5,000-decision budget). Here every
 * conflict is analysed to its first unique implication point and learned as a clause, so the same
 * dead end is never walked twice — and the learned clauses are consequences of the catalog alone,
 * so they are kept across questions and clicks (the nogood cache the issue asks for).
 *
 * Rules are used in their native form: an incompatible pair propagates through the catalog's
 * neighbour lists, and a "when T, between min and max of items" rule by counting; only learned
 * clauses use two watched literals. A propagated value's reason is rebuilt lazily from the
 * assignment order when conflict analysis needs it. Decisions only ever choose a member of an
 * open "at least" obligation: when none is open after propagation, leaving every undecided
 * component out is a model (nothing forces a component in but such an obligation), so the search
 * is complete. A literal is `2 * component` (chosen) or `2 * component + 1` (not chosen).
 */
import type { Catalog } from './catalog.js';
import { ruleTables, type RuleTables } from './tables.js';
import { CLAUSE, FALSE, FREE, ITEM, NONE, PAIR, TRIGGER, TRUE, analyseFinal, conflictVars, firstUip, type Conflict, type Trail } from './conflict.js';

export type Answer = { status: 'sat'; model: Int32Array } | { status: 'unsat'; core: number[] } | { status: 'unknown' };

/** Learned clauses kept before the store is emptied (they are only a cache of consequences). */
const MAX_LEARNED = 50_000;

/** The fields marked readable are read by conflict analysis (conflict.ts), never written there but for `seen` and `activity`. */
export class Cdcl implements Trail {
  readonly catalog: Catalog;
  private readonly rules: RuleTables;
  private readonly n: number;
  readonly value: Int8Array;
  readonly level: Int32Array;
  readonly kind: Int8Array;
  readonly ref: Int32Array;
  readonly pos: Int32Array;
  readonly trail: Int32Array;
  trailLen = 0;
  private head = 0;
  /** Trail length at the start of each decision level (index = level - 1). */
  private readonly levelStart: number[] = [];
  readonly nTrue: Int32Array;
  private readonly nFalse: Int32Array;
  /** Rules in force: global ones, then those whose trigger is chosen (a stack undone with the trail). */
  private readonly active: number[];
  private readonly activeAt: number[] = [];
  clauses: Int32Array[] = [];
  /** Per literal, the learned clauses watching it; made on first use (most literals never watch one, and 20,000 empty lists were a tenth of a first state at 2,000 components). */
  private watches: Array<number[] | undefined>;
  readonly activity: Float64Array;
  private bump = 1;
  readonly seen: Uint8Array;
  private conflict: Conflict | null = null;
  /** A level-0 contradiction was found: the catalog has no valid selection at all. */
  private inconsistent = false;
  /** The assumptions currently on levels 1..k, reused when the next question shares the prefix. */
  private assumed: number[] = [];
  private hint: Uint8Array | undefined;
  /** Conflicts met by the last `solve` (for benchmarks and tests). */
  conflicts = 0;
  /** Learned clauses in the store. */
  get learned(): number {
    return this.clauses.length;
  }

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    this.rules = ruleTables(catalog);
    const n = catalog.components.length;
    this.n = n;
    this.value = new Int8Array(n);
    this.level = new Int32Array(n);
    this.kind = new Int8Array(n);
    this.ref = new Int32Array(n);
    this.pos = new Int32Array(n);
    this.trail = new Int32Array(n);
    this.nTrue = new Int32Array(catalog.constraints.length);
    this.nFalse = new Int32Array(catalog.constraints.length);
    this.active = [...catalog.global];
    this.watches = new Array(2 * n);
    this.activity = new Float64Array(n);
    this.seen = new Uint8Array(n);
  }

  /** The value of a component after the last `solve` left its assumptions in place (1, -1 or 0). */
  valueOf(c: number): number {
    return this.value[c];
  }

  /**
   * Is there a valid selection containing every assumption? `sat` gives one (sorted indices),
   * `unsat` the assumptions that together already rule it out, `unknown` when `budget`
   * conflicts were not enough. `hint` marks components to try first (a model found before).
   */
  solve(assumptions: readonly number[], options: { hint?: Uint8Array; budget?: number } = {}): Answer {
    this.hint = options.hint;
    const budget = options.budget ?? 200_000;
    this.conflicts = 0;
    if (this.inconsistent) return { status: 'unsat', core: [] };
    if (this.clauses.length > MAX_LEARNED) this.forget();
    // Keep the levels of a shared prefix of assumptions: a click re-asks with the same selection.
    let keep = 0;
    const limit = Math.min(this.assumed.length, assumptions.length, this.decisionLevel());
    while (keep < limit && this.assumed[keep] === assumptions[keep]) keep++;
    this.backtrack(keep);
    this.assumed.length = keep;
    let restartAt = 100;
    for (;;) {
      if (!this.propagate()) {
        this.conflicts++;
        if (!this.learnFromConflict()) {
          this.inconsistent = true;
          this.assumed.length = 0;
          return { status: 'unsat', core: [] };
        }
        if (this.conflicts > budget) {
          this.backtrack(Math.min(this.decisionLevel(), assumptions.length));
          this.assumed.length = Math.min(this.assumed.length, this.decisionLevel());
          return { status: 'unknown' };
        }
        if (this.conflicts >= restartAt) {
          restartAt += 100 + (restartAt >> 1);
          this.backtrack(Math.min(this.decisionLevel(), assumptions.length));
        }
        this.assumed.length = Math.min(this.assumed.length, this.decisionLevel());
        continue;
      }
      const level = this.decisionLevel();
      if (level < assumptions.length) {
        // Place the next assumption on a level of its own.
        const a = assumptions[level];
        if (this.value[a] === FALSE) return { status: 'unsat', core: analyseFinal(this, a, assumptions) };
        this.newLevel();
        this.assumed[level] = a;
        this.assumed.length = level + 1;
        if (this.value[a] === FREE) this.assign(a, TRUE, NONE, -1);
        continue;
      }
      const k = this.openObligation();
      if (k < 0) return { status: 'sat', model: this.model() };
      this.newLevel();
      this.assign(this.candidate(k), TRUE, NONE, -1);
    }
  }

  /**
   * Undo the search above the assumptions of the last `solve`, keeping what they force, so that
   * `fixedFalse` and `coreOf` can be asked about them.
   */
  settle(levels = this.assumed.length): void {
    this.assumed.length = Math.min(this.assumed.length, levels, this.decisionLevel());
    this.backtrack(this.assumed.length);
  }

  /** How many assumptions are in place (after `settle`). */
  get assumedCount(): number {
    return this.assumed.length;
  }

  /** Excluded by the current assumptions (and the catalog's facts) through propagation alone. */
  fixedFalse(c: number): boolean {
    return this.value[c] === FALSE;
  }

  /** After `settle`: which of the assumptions together exclude `c` (empty: no selection can have it). */
  coreOf(c: number): number[] {
    if (this.level[c] === 0) return [];
    const core = analyseFinal(this, c, this.assumed);
    return core.filter((x) => x !== c);
  }

  /** Drop every assumption (learned clauses stay). */
  release(): void {
    this.backtrack(0);
    this.assumed.length = 0;
  }

  // ---- search ---------------------------------------------------------------------------------

  private decisionLevel(): number {
    return this.levelStart.length;
  }

  private newLevel(): void {
    this.levelStart.push(this.trailLen);
    this.activeAt.push(this.active.length);
  }

  private openObligation(): number {
    const { min } = this.rules;
    const { active } = this;
    for (let i = 0; i < active.length; i++) if (this.nTrue[active[i]] < min[active[i]]) return active[i];
    return -1;
  }

  /** A free member of the obligation: one from the hint first, then the most conflict-prone, then the lightest. */
  private candidate(k: number): number {
    const { weight } = this.rules;
    const { items } = this.catalog.constraints[k];
    const hint = this.hint;
    let best = -1;
    let bestHinted = false;
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      if (this.value[x] !== FREE) continue;
      const hinted = hint !== undefined && hint[x] === 1;
      if (best < 0 || (hinted && !bestHinted)) {
        best = x;
        bestHinted = hinted;
        continue;
      }
      if (hinted !== bestHinted) continue;
      const a = this.activity[x];
      const b = this.activity[best];
      if (a > b || (a === b && weight[x] < weight[best])) best = x;
    }
    return best;
  }

  private model(): Int32Array {
    const out: number[] = [];
    for (let i = 0; i < this.trailLen; i++) if (this.value[this.trail[i]] === TRUE) out.push(this.trail[i]);
    return Int32Array.from(out.sort((a, b) => a - b));
  }

  // ---- propagation ----------------------------------------------------------------------------

  private assign(x: number, v: number, kind: number, ref: number): void {
    this.value[x] = v;
    this.level[x] = this.levelStart.length;
    this.kind[x] = kind;
    this.ref[x] = ref;
    this.pos[x] = this.trailLen;
    this.trail[this.trailLen++] = x;
    const occ = this.catalog.occurrences[x];
    if (v === TRUE) {
      for (let i = 0; i < occ.length; i++) this.nTrue[occ[i]]++;
      const trig = this.catalog.triggeredBy[x];
      for (let i = 0; i < trig.length; i++) this.active.push(trig[i]);
    } else {
      for (let i = 0; i < occ.length; i++) this.nFalse[occ[i]]++;
    }
  }

  private propagate(): boolean {
    const { conflicts, triggeredBy, occurrences } = this.catalog;
    if (this.head === 0) for (const k of this.catalog.global) if (!this.check(k)) return false;
    while (this.head < this.trailLen) {
      const x = this.trail[this.head++];
      if (this.value[x] === TRUE) {
        const ns = conflicts[x];
        for (let i = 0; i < ns.length; i++) {
          const y = ns[i];
          const vy = this.value[y];
          if (vy === TRUE) {
            this.conflict = { kind: PAIR, a: x, b: y };
            return false;
          }
          if (vy === FREE) this.assign(y, FALSE, PAIR, x);
        }
        const trig = triggeredBy[x];
        for (let i = 0; i < trig.length; i++) if (!this.check(trig[i])) return false;
      }
      const occ = occurrences[x];
      for (let i = 0; i < occ.length; i++) if (!this.check(occ[i])) return false;
      // The literal made false by this assignment wakes the learned clauses watching it.
      if (!this.wake(this.value[x] === TRUE ? 2 * x + 1 : 2 * x)) return false;
    }
    return true;
  }

  private check(k: number): boolean {
    const { trigger, min, max, size } = this.rules;
    const tr = trigger[k];
    const tv = tr < 0 ? TRUE : this.value[tr];
    if (tv === FALSE) return true;
    const t = this.nTrue[k];
    const u = size[k] - t - this.nFalse[k];
    const overMax = t > max[k];
    const underMin = t + u < min[k];
    if (tv === TRUE) {
      if (overMax || underMin) {
        this.conflict = { kind: ITEM, rule: k };
        return false;
      }
      if (u === 0) return true;
      if (t === max[k]) this.forceItems(k, FALSE);
      else if (t + u === min[k]) this.forceItems(k, TRUE);
      return true;
    }
    if (overMax || underMin) this.assign(tr, FALSE, TRIGGER, k);
    return true;
  }

  /** Every free item of rule `k` takes `v` (its bound is reached). */
  private forceItems(k: number, v: number): void {
    const { items } = this.catalog.constraints[k];
    const { value } = this;
    for (let i = 0; i < items.length; i++) if (value[items[i]] === FREE) this.assign(items[i], v, ITEM, k);
  }

  private litValue(lit: number): number {
    const v = this.value[lit >> 1];
    return lit & 1 ? -v : v;
  }

  /** Two-watched-literal propagation of learned clauses; `lit` has just become false. */
  private wake(lit: number): boolean {
    const list = this.watches[lit];
    if (list === undefined) return true;
    let keep = 0;
    for (let i = 0; i < list.length; i++) {
      const ci = list[i];
      const clause = this.clauses[ci];
      // Keep the false watch in slot 1.
      if (clause[0] === lit) {
        clause[0] = clause[1];
        clause[1] = lit;
      }
      if (this.litValue(clause[0]) === TRUE) {
        list[keep++] = ci;
        continue;
      }
      let moved = false;
      for (let j = 2; j < clause.length; j++) {
        if (this.litValue(clause[j]) !== FALSE) {
          clause[1] = clause[j];
          clause[j] = lit;
          this.watch(clause[1], ci);
          moved = true;
          break;
        }
      }
      if (moved) continue;
      list[keep++] = ci;
      const first = clause[0];
      if (this.litValue(first) === FALSE) {
        for (let j = i + 1; j < list.length; j++) list[keep++] = list[j];
        list.length = keep;
        this.conflict = { kind: CLAUSE, clause: ci };
        return false;
      }
      this.assign(first >> 1, first & 1 ? FALSE : TRUE, CLAUSE, ci);
    }
    list.length = keep;
    return true;
  }

  // ---- learning (the analysis itself is in conflict.ts) ------------------------------------------

  /**
   * First-UIP analysis of the current conflict: learn the clause, jump back to where it asserts,
   * and assert it. False when the conflict holds at level 0 (nothing can be chosen at all).
   */
  private learnFromConflict(): boolean {
    const vars: number[] = [];
    conflictVars(this, this.conflict as Conflict, vars);
    // The clash may involve only earlier levels (found while re-propagating): analyse it there.
    let top = 0;
    for (const v of vars) if (this.level[v] > top) top = this.level[v];
    if (top === 0) return false;
    if (top < this.decisionLevel()) this.backtrackKeepingConflict(top);
    const { learnt, uip } = firstUip(this, vars, top, this.bump);
    this.bump *= 1.05;
    if (this.bump > 1e100) {
      for (let i = 0; i < this.n; i++) this.activity[i] *= 1e-100;
      this.bump *= 1e-100;
    }
    let back = 0;
    let second = -1;
    for (const v of learnt) {
      if (this.level[v] > back) {
        back = this.level[v];
        second = v;
      }
    }
    // Literals of the clause: each false now (the negation of the component's current value).
    const lit = (v: number) => (this.value[v] === TRUE ? 2 * v + 1 : 2 * v);
    const assertLit = lit(uip);
    this.conflict = null;
    this.backtrack(back);
    if (learnt.length === 0) {
      // A fact of the catalog: kept at level 0 for good.
      this.assign(uip, assertLit & 1 ? FALSE : TRUE, NONE, -1);
      return true;
    }
    const clause = new Int32Array(learnt.length + 1);
    clause[0] = assertLit;
    clause[1] = this.negOf(second);
    let j = 2;
    for (const v of learnt) if (v !== second) clause[j++] = this.negOf(v);
    const ci = this.clauses.length;
    this.clauses.push(clause);
    this.watch(clause[0], ci);
    this.watch(clause[1], ci);
    this.assign(uip, assertLit & 1 ? FALSE : TRUE, CLAUSE, ci);
    return true;
  }

  private watch(lit: number, ci: number): void {
    const list = this.watches[lit];
    if (list) list.push(ci);
    else this.watches[lit] = [ci];
  }

  /** The literal false under the current value of v. */
  private negOf(v: number): number {
    return this.value[v] === TRUE ? 2 * v + 1 : 2 * v;
  }

  private backtrack(target: number): void {
    if (this.decisionLevel() <= target) return;
    const trailLen = this.levelStart[target];
    const { occurrences } = this.catalog;
    while (this.trailLen > trailLen) {
      const x = this.trail[--this.trailLen];
      const occ = occurrences[x];
      if (this.value[x] === TRUE) for (let i = 0; i < occ.length; i++) this.nTrue[occ[i]]--;
      else for (let i = 0; i < occ.length; i++) this.nFalse[occ[i]]--;
      this.value[x] = FREE;
    }
    this.active.length = this.activeAt[target];
    this.levelStart.length = target;
    this.activeAt.length = target;
    this.head = this.trailLen;
    this.conflict = null;
  }

  /** Like `backtrack`, for a conflict whose components all sit at or below `target`. */
  private backtrackKeepingConflict(target: number): void {
    const conflict = this.conflict;
    this.backtrack(target);
    this.conflict = conflict;
  }

  /** Empty the learned clause store (facts learned at level 0 stay on the trail). */
  private forget(): void {
    this.backtrack(0);
    this.assumed.length = 0;
    this.clauses = [];
    this.watches = new Array(2 * this.n);
  }
}
