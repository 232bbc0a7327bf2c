/**
 * The satisfiability engine behind the wizard: can this selection (plus this component) still be
 * completed so that every rule holds?
 *
 * Why a small DPLL of our own rather than a general SAT solver: every rule of a catalog is
 * "when T is chosen, between min and max of these items are chosen" (or an incompatible pair),
 * and nothing ever forces a component to be chosen except an unmet "at least" rule. So once
 * propagation reaches a fixpoint and no "at least" rule is left open, leaving every undecided
 * component unchosen is a model. The search therefore only branches on open obligations
 * (a chosen component's `requires`, a required type, the radio group), trying the members of
 * one obligation in turn — complete, because any model must choose one of them — and it
 * prefers members of a known model, so most checks replay a solution instead of searching.
 * Each branch that fails leaves a record of why, which becomes the explanation a person reads.
 * The search has a decision budget; running out is reported as `unknown`, never guessed.
 */
import type { Catalog } from './catalog.js';
import { ruleTables, type RuleTables } from './tables.js';

const FREE = 0;
const TRUE = 1;
const FALSE = -1;

/** Why a component has its value in the current search. */
export const enum Reason {
  None = 0,
  /** The user chose it. */
  Chosen = 1,
  /** The component being tested. */
  Subject = 2,
  /** Taken to meet an obligation (a branch of the search). */
  Decision = 3,
  /** Unchosen because it is incompatible with a chosen component (`ref`). */
  Incompatible = 4,
  /** Forced by a rule (`ref` = constraint id). */
  Rule = 5,
  /** Unchosen because every branch taking it failed (`ref` = the obligation). */
  Failed = 6,
}

export type Conflict = { kind: 'pair'; a: number; b: number } | { kind: 'rule'; constraint: number; violated: 'min' | 'max' };

/** A snapshot of why a component had its value when a branch failed: a small proof tree. */
export interface Because {
  component: number;
  chosen: boolean;
  reason: Reason;
  /** The incompatible partner, or the rule's constraint id. */
  ref: number;
  premises: Because[];
  /** For `Failed`: why every attempt with it failed. */
  failed?: Refutation;
}

/** Why a set of components cannot be completed: the clash reached, and what led to it. */
export interface Refutation {
  conflict: Conflict;
  premises: Because[];
  /** Options the search tried and refuted on the way (each with its own refutation). */
  tried: Array<{ obligation: number; member: number; why: Refutation }>;
}

export type Outcome = { status: 'sat'; model: Int32Array } | { status: 'unsat'; why: Refutation } | { status: 'unknown' };

export interface SolveOptions {
  /** Components to try first when meeting an obligation (e.g. a model found before). */
  prefer?: Uint8Array;
  /** Record refutations (costs a little; not needed for yes/no questions). */
  explain?: boolean;
  /** Decision budget; `unknown` when it runs out. */
  budget?: number;
}

const MAX_PREMISES = 6;
const MAX_NODES = 80;

export class Solver {
  readonly catalog: Catalog;
  private readonly rules: RuleTables;
  private readonly value: Int8Array;
  private readonly reason: Int8Array;
  private readonly ref: Int32Array;
  private readonly trail: Int32Array;
  private trailLen = 0;
  private head = 0;
  private readonly nTrue: Int32Array;
  private readonly nFalse: Int32Array;
  /** Constraints in force (global ones, then those whose trigger is chosen), as a stack. */
  private active: number[] = [];
  private readonly levels: Array<{ trail: number; active: number }> = [];
  private readonly failedWhy = new Map<number, Refutation>();
  private conflict: Conflict | null = null;
  private budget = 0;
  private explain = false;
  private prefer: Uint8Array | undefined;
  /** Chosen components on the trail and their weight, for `minimise`. */
  private chosenCount = 0;
  private chosenWeight = 0;
  private best: { model: Int32Array; count: number; weight: number } | null = null;
  /** How many decisions the last solve took (for benchmarks and tests). */
  decisions = 0;
  /** Each assigned component's place on the trail (read by `rememberFailure`). */
  private readonly pos: Int32Array;
  /**
   * Decisions of this solve that failed by propagation alone, without recording (a quick search):
   * per component, the assignments each failure rested on (2 × component, + 1 when unchosen).
   * Propagation is monotone, so while every one of them holds, taking the component fails again:
   * the search counts the decision and moves on exactly as if it had propagated it. An explaining
   * search that ran to its budget at 10,000 components tried the same five network cores in each
   * of 44 branches, 1,300 assignments and their undoing each time (most of the first state's
   * explaining).
   */
  private readonly failing = new Map<number, Array<{ lits: Int32Array; why: Refutation }>>();
  /** Scratch marks for `rememberFailure` (components seen in this gathering). */
  private readonly gathered: Int32Array;
  private gathering = 0;
  /** The refutation when `assume` failed. */
  baseRefutation: Refutation | undefined;

  constructor(catalog: Catalog) {
    this.catalog = catalog;
    this.rules = ruleTables(catalog);
    const n = catalog.components.length;
    this.value = new Int8Array(n);
    this.reason = new Int8Array(n);
    this.ref = new Int32Array(n);
    this.trail = new Int32Array(n);
    this.pos = new Int32Array(n);
    this.gathered = new Int32Array(n);
    this.nTrue = new Int32Array(catalog.constraints.length);
    this.nFalse = new Int32Array(catalog.constraints.length);
    this.active = [...catalog.global];
  }

  isChosen(c: number): boolean {
    return this.value[c] === TRUE;
  }

  isExcluded(c: number): boolean {
    return this.value[c] === FALSE;
  }

  reasonOf(c: number): { reason: Reason; ref: number } {
    return { reason: this.reason[c] as Reason, ref: this.ref[c] };
  }

  /** Forget everything, including the base selection. */
  reset(): void {
    this.backtrackTo(0);
    this.undoTo(0);
    this.active = [...this.catalog.global];
    this.conflict = null;
    this.baseRefutation = undefined;
  }

  /**
   * Make `selection` the base every later question starts from. False when the selection alone
   * already breaks a rule by propagation (`baseRefutation` says why).
   */
  assume(selection: Iterable<number>, explain = true): boolean {
    this.reset();
    this.explain = explain;
    for (const c of selection) {
      if (this.value[c] === TRUE) continue;
      if (this.value[c] === FALSE) {
        this.conflict = this.findClash(c);
        break;
      }
      this.assign(c, TRUE, Reason.Chosen, -1);
    }
    let ok = this.conflict === null && this.checkGlobals() && this.propagate();
    if (this.conflict) ok = false;
    if (!ok) {
      this.baseRefutation = this.explain ? this.refutation([]) : undefined;
      return false;
    }
    return true;
  }

  /**
   * Can the base selection plus `extra` be completed? Leaves the base as it was.
   */
  solve(extra: readonly number[], options: SolveOptions = {}): Outcome {
    this.explain = options.explain ?? false;
    this.prefer = options.prefer;
    this.budget = options.budget ?? 20_000;
    this.decisions = 0;
    this.failing.clear();
    const depth = this.levels.length;
    this.openLevel();
    let ok = true;
    for (const c of extra) {
      if (this.value[c] === TRUE) continue;
      if (this.value[c] === FALSE) {
        this.conflict = this.findClash(c);
        ok = false;
        break;
      }
      this.assign(c, TRUE, Reason.Subject, -1);
    }
    let outcome: Outcome;
    if (!ok || !this.propagate()) {
      outcome = { status: 'unsat', why: this.refutation([]) };
    } else {
      const r = this.search();
      outcome = r === 'sat' ? { status: 'sat', model: this.model() } : r === 'unknown' ? { status: 'unknown' } : { status: 'unsat', why: r };
    }
    this.backtrackTo(depth);
    return outcome;
  }

  /**
   * The completion of the base selection with the fewest added components (lower total weight
   * breaking ties): branch and bound over the same obligation-driven search. `optimal` is false
   * when the budget ran out first and the best model found so far is returned.
   */
  minimise(options: SolveOptions = {}): (Outcome & { optimal?: boolean }) {
    const first = this.solve([], { ...options, explain: true });
    if (first.status !== 'sat') return first;
    this.explain = false;
    this.prefer = undefined;
    this.budget = options.budget ?? 20_000;
    const depth = this.levels.length;
    this.openLevel();
    this.best = null;
    const complete = this.propagate() && this.branchAndBound();
    this.backtrackTo(depth);
    const best = this.best as { model: Int32Array } | null;
    this.best = null;
    return { status: 'sat', model: best ? best.model : first.model, optimal: complete };
  }

  private branchAndBound(): boolean {
    const best = this.best;
    if (best && (this.chosenCount > best.count || (this.chosenCount === best.count && this.chosenWeight >= best.weight))) return true;
    const k = this.openObligation();
    if (k < 0) {
      this.best = { model: this.model(), count: this.chosenCount, weight: this.chosenWeight };
      return true;
    }
    if (best && this.chosenCount + 1 > best.count) return true;
    const x = this.candidate(k);
    if (x < 0) return true;
    if (--this.budget < 0) return false;
    const depth = this.levels.length;
    this.openLevel();
    this.assign(x, TRUE, Reason.Decision, k);
    const done = this.propagate() ? this.branchAndBound() : true;
    this.backtrackTo(depth);
    if (!done) return false;
    // The other branch: every better model leaves x out.
    this.assign(x, FALSE, Reason.Failed, k);
    if (!this.propagate()) {
      this.conflict = null;
      return true;
    }
    return this.branchAndBound();
  }

  // ---- search ---------------------------------------------------------------------------------

  private search(): 'sat' | 'unknown' | Refutation {
    const tried: Refutation['tried'] = [];
    for (;;) {
      const k = this.openObligation();
      if (k < 0) return 'sat';
      const x = this.candidate(k);
      if (x < 0) {
        // Cannot happen after a clean propagation (an obligation with no free member is a clash).
        this.conflict = { kind: 'rule', constraint: k, violated: 'min' };
        return this.refutation(tried);
      }
      if (--this.budget < 0) return 'unknown';
      this.decisions++;
      let why = this.explain ? undefined : this.knownFailure(x);
      if (!why) {
        const depth = this.levels.length;
        this.openLevel();
        this.assign(x, TRUE, Reason.Decision, k);
        if (this.propagate()) {
          const r = this.search();
          if (r === 'sat') return 'sat';
          if (r === 'unknown') return 'unknown';
          why = r;
        } else {
          why = this.refutation([]);
          if (!this.explain) this.rememberFailure(x, why);
        }
        this.backtrackTo(depth);
      }
      tried.push({ obligation: k, member: x, why });
      this.assign(x, FALSE, Reason.Failed, k);
      if (this.explain) this.failedWhy.set(x, why);
      if (!this.propagate()) return this.refutation(tried);
    }
  }

  /** A remembered failure of taking `x` whose assignments all hold now (`failing`). */
  private knownFailure(x: number): Refutation | undefined {
    const known = this.failing.get(x);
    if (!known) return undefined;
    const { value } = this;
    for (const { lits, why } of known) {
      let holds = true;
      for (let i = 0; i < lits.length && holds; i++) holds = value[lits[i] >> 1] === (lits[i] & 1 ? FALSE : TRUE);
      if (holds) return why;
    }
    return undefined;
  }

  /**
   * After taking `x` failed by propagation: the assignments made before it that the clash rests
   * on, gathered back through the reasons of what the propagation assigned (each step only through
   * what was assigned before it, as the rule saw it then). Taking `x` with all of them in place
   * reaches a clash again, whatever else is assigned.
   */
  private rememberFailure(x: number, why: Refutation): void {
    const { conflict } = why;
    if (conflict.kind === 'rule' && conflict.constraint < 0) return;
    const start = this.pos[x];
    const mark = ++this.gathering;
    const { gathered, value, pos } = this;
    const stack: number[] = [];
    if (conflict.kind === 'pair') stack.push(conflict.a, conflict.b);
    else this.ruleSupport(conflict.constraint, -1, conflict.violated === 'max' ? TRUE : FALSE, this.trailLen, stack);
    const lits: number[] = [];
    while (stack.length > 0) {
      const v = stack.pop() as number;
      if (gathered[v] === mark) continue;
      gathered[v] = mark;
      if (pos[v] < start) {
        lits.push(2 * v + (value[v] === TRUE ? 0 : 1));
        continue;
      }
      if (v === x) continue;
      const reason = this.reason[v];
      if (reason === Reason.Incompatible) stack.push(this.ref[v]);
      else if (reason === Reason.Rule) {
        const k = this.ref[v];
        if (this.catalog.constraints[k].trigger === v) {
          // Excluded because its rule could no longer hold: over its maximum, else under its minimum.
          const over = this.countBefore(k, TRUE, pos[v]) > this.rules.max[k];
          this.ruleSupport(k, v, over ? TRUE : FALSE, pos[v], stack);
        } else this.ruleSupport(k, v, value[v] === TRUE ? FALSE : TRUE, pos[v], stack);
      } else return; // Nothing else is assigned by propagation: keep nothing rather than guess.
    }
    let known = this.failing.get(x);
    if (!known) this.failing.set(x, (known = []));
    if (known.length < 16) known.push({ lits: Int32Array.from(lits), why });
  }

  /** Rule `k`'s trigger and its items (but `except`) with value `side` assigned before trail place `before`. */
  private ruleSupport(k: number, except: number, side: number, before: number, out: number[]): void {
    const rule = this.catalog.constraints[k];
    if (rule.trigger >= 0 && rule.trigger !== except) out.push(rule.trigger);
    const { items } = rule;
    for (let i = 0; i < items.length; i++) {
      const y = items[i];
      if (y !== except && this.value[y] === side && this.pos[y] < before) out.push(y);
    }
  }

  private countBefore(k: number, side: number, before: number): number {
    const { items } = this.catalog.constraints[k];
    let t = 0;
    for (let i = 0; i < items.length; i++) if (this.value[items[i]] === side && this.pos[items[i]] < before) t++;
    return t;
  }

  private openObligation(): number {
    const { min } = this.rules;
    const { active } = this;
    for (let i = 0; i < active.length; i++) {
      const k = active[i];
      if (this.nTrue[k] < min[k]) return k;
    }
    return -1;
  }

  private candidate(k: number): number {
    const { weight } = this.rules;
    const { items } = this.catalog.constraints[k];
    const { prefer, value } = this;
    let best = -1;
    let bestPreferred = false;
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      if (value[x] !== FREE) continue;
      const preferred = prefer !== undefined && prefer[x] === 1;
      if (best < 0 || (preferred && !bestPreferred) || (preferred === bestPreferred && weight[x] < weight[best])) {
        best = x;
        bestPreferred = preferred;
      }
    }
    return best;
  }

  private model(): Int32Array {
    const out: number[] = [];
    for (let i = 0; i < this.trailLen; i++) if (this.value[this.trail[i]] === TRUE) out.push(this.trail[i]);
    return Int32Array.from(out.sort((a, b) => a - b));
  }

  // ---- propagation ----------------------------------------------------------------------------

  private assign(x: number, v: number, reason: Reason, ref: number): void {
    this.value[x] = v;
    this.reason[x] = reason;
    this.ref[x] = ref;
    this.pos[x] = this.trailLen;
    this.trail[this.trailLen++] = x;
    const occ = this.catalog.occurrences[x];
    if (v === TRUE) {
      this.chosenCount++;
      this.chosenWeight += this.rules.weight[x];
      for (let i = 0; i < occ.length; i++) this.nTrue[occ[i]]++;
      const trig = this.catalog.triggeredBy[x];
      for (let i = 0; i < trig.length; i++) this.active.push(trig[i]);
    } else {
      for (let i = 0; i < occ.length; i++) this.nFalse[occ[i]]++;
    }
  }

  private checkGlobals(): boolean {
    for (const k of this.catalog.global) if (!this.check(k)) return false;
    return true;
  }

  private propagate(): boolean {
    const { conflicts, triggeredBy, occurrences } = this.catalog;
    while (this.head < this.trailLen) {
      const x = this.trail[this.head++];
      if (this.value[x] === TRUE) {
        const ns = conflicts[x];
        for (let i = 0; i < ns.length; i++) {
          const y = ns[i];
          const vy = this.value[y];
          if (vy === TRUE) {
            this.conflict = { kind: 'pair', a: x, b: y };
            return false;
          }
          if (vy === FREE) this.assign(y, FALSE, Reason.Incompatible, x);
        }
        const trig = triggeredBy[x];
        for (let i = 0; i < trig.length; i++) if (!this.check(trig[i])) return false;
      }
      const occ = occurrences[x];
      for (let i = 0; i < occ.length; i++) if (!this.check(occ[i])) return false;
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
        this.conflict = { kind: 'rule', constraint: k, violated: overMax ? 'max' : 'min' };
        return false;
      }
      if (u === 0) return true;
      if (t === max[k]) this.forceItems(k, FALSE);
      else if (t + u === min[k]) this.forceItems(k, TRUE);
      return true;
    }
    if (overMax || underMin) this.assign(tr, FALSE, Reason.Rule, k);
    return true;
  }

  /** Every free item of rule `k` takes `v` (its bound is reached). */
  private forceItems(k: number, v: number): void {
    const { items } = this.catalog.constraints[k];
    const { value } = this;
    for (let i = 0; i < items.length; i++) if (value[items[i]] === FREE) this.assign(items[i], v, Reason.Rule, k);
  }

  /** Asked to choose a component that is already excluded: the clash is with whatever excluded it. */
  private findClash(c: number): Conflict {
    const r = this.reason[c];
    if (r === Reason.Incompatible) return { kind: 'pair', a: c, b: this.ref[c] };
    if (r === Reason.Rule) {
      const k = this.ref[c];
      const rule = this.catalog.constraints[k];
      return { kind: 'rule', constraint: k, violated: rule.trigger === c ? (this.nTrue[k] > rule.max ? 'max' : 'min') : 'max' };
    }
    return { kind: 'pair', a: c, b: c };
  }

  private openLevel(): void {
    this.levels.push({ trail: this.trailLen, active: this.active.length });
  }

  private backtrackTo(depth: number): void {
    while (this.levels.length > depth) {
      const level = this.levels.pop() as { trail: number; active: number };
      this.undoTo(level.trail);
      this.active.length = level.active;
    }
    this.conflict = null;
  }

  private undoTo(trailLen: number): void {
    const { occurrences } = this.catalog;
    while (this.trailLen > trailLen) {
      const x = this.trail[--this.trailLen];
      const occ = occurrences[x];
      if (this.value[x] === TRUE) {
        this.chosenCount--;
        this.chosenWeight -= this.rules.weight[x];
        for (let i = 0; i < occ.length; i++) this.nTrue[occ[i]]--;
      }
      else for (let i = 0; i < occ.length; i++) this.nFalse[occ[i]]--;
      // Only a component unchosen by a failed branch has an entry (a Map lookup for every undone
      // assignment was a tenth of an explaining search).
      if (this.reason[x] === Reason.Failed && this.failedWhy.size > 0) this.failedWhy.delete(x);
      this.value[x] = FREE;
      this.reason[x] = Reason.None;
    }
    if (this.trailLen === 0) this.active.length = this.catalog.global.length;
    this.head = this.trailLen;
  }

  // ---- explanations ---------------------------------------------------------------------------

  private refutation(tried: Refutation['tried']): Refutation {
    const conflict = this.conflict ?? { kind: 'rule', constraint: -1, violated: 'min' };
    if (!this.explain) return { conflict, premises: [], tried };
    const memo = new Map<number, Because>();
    const budget = { nodes: MAX_NODES };
    const premises = this.conflictPremises(conflict).map((x) => this.because(x, memo, budget));
    return { conflict, premises, tried };
  }

  private conflictPremises(conflict: Conflict): number[] {
    if (conflict.kind === 'pair') return conflict.a === conflict.b ? [conflict.a] : [conflict.a, conflict.b];
    if (conflict.constraint < 0) return [];
    return this.rulePremises(conflict.constraint, -1, conflict.violated === 'max' ? TRUE : FALSE);
  }

  /** The assigned items of a rule that made it bite (the chosen ones for a max, the excluded ones for a min). */
  private rulePremises(k: number, except: number, side: number): number[] {
    const rule = this.catalog.constraints[k];
    const out: number[] = [];
    if (rule.trigger >= 0 && rule.trigger !== except) out.push(rule.trigger);
    for (const x of rule.items) {
      if (x !== except && this.value[x] === side) out.push(x);
      if (out.length >= MAX_PREMISES + 1) break;
    }
    return out;
  }

  private because(x: number, memo: Map<number, Because>, budget: { nodes: number }): Because {
    const known = memo.get(x);
    if (known) return known;
    const reason = this.reason[x] as Reason;
    const node: Because = { component: x, chosen: this.value[x] === TRUE, reason, ref: this.ref[x], premises: [] };
    memo.set(x, node);
    if (--budget.nodes < 0) return node;
    let premises: number[] = [];
    if (reason === Reason.Incompatible) premises = [this.ref[x]];
    else if (reason === Reason.Rule) {
      const k = this.ref[x];
      const rule = this.catalog.constraints[k];
      if (rule.trigger === x) {
        // The trigger was excluded because its rule could no longer hold.
        const overMax = this.nTrue[k] > rule.max;
        premises = this.rulePremises(k, x, overMax ? TRUE : FALSE);
      } else {
        premises = this.rulePremises(k, x, node.chosen ? FALSE : TRUE);
      }
    } else if (reason === Reason.Failed) {
      node.failed = this.failedWhy.get(x);
    }
    node.premises = premises.slice(0, MAX_PREMISES).map((p) => this.because(p, memo, budget));
    return node;
  }
}
