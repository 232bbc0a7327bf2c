/**
 * For a selection, which components can still be chosen — each with a proof. A component is
 * choosable exactly when some valid selection (a model) contains the user's choices and it; the
 * proof kept for it is that model (its witness). It is a dead end when none exists; the proof is
 * the solver's refutation and the chosen components it rests on (its core).
 *
 * The cheapest proof is tried first, and each proves many components at once:
 * 1. models carried from the previous click, whatever it changed (a witness with every added
 *    choice; a dead end whose core is still chosen), and models found for earlier selections that
 *    contain this one;
 * 2. last click's repaired witnesses moved onto this click's base model (rebase.ts): only the
 *    rules the two bases' difference can break are checked;
 * 3. the new base model (the selection's own completion, steered towards the previous one) and,
 *    for each remaining component, the base plus it, mended greedily (`Repair`) — linear, no search;
 *    failing that, the same mending from the model of this click's latest search;
 * 4. propagation of the selection in the clause-learning solver: what it excludes is a dead end;
 * 5. only then a complete search (`Cdcl`), whose learned clauses stay for the next question.
 * Dead ends get a person's explanation from the explaining `Solver`. Most are refuted by one
 * propagation, but not the time: a dead end that only clause learning refutes quickly (the
 * explaining search learns nothing) runs that search to its whole budget before the sentence falls
 * back to the core. In the 10,000-component synthetic catalog one of 59 dead ends of the first
 * state does (300 decisions), and it was most of explaining's time and about a quarter of the state
 * (now that search runs without building proof trees: `explainWithin`).
 *
 * Which proof is found depends on what was asked before (hints, learned clauses, carried models);
 * what is shown must not (the state is a function of the catalog and the selection): proofs answer
 * yes or no, the words and fixes are made canonically from the selection (`explain`, also-choose.ts).
 */
import { sortedHas, type Catalog } from './catalog.js';
import { Cdcl } from './cdcl.js';
import { sameRefutation, type DeadEnd } from './dead-ends.js';
import { Rebase } from './rebase.js';
import { Repair } from './repair.js';
import { Solver, type Refutation } from './solver.js';
import { NOTHING, changeOf, contains, containsAll, inChange, inChangeAll, type Change } from './witness.js';

export type { DeadEnd } from './dead-ends.js';

/** One click's proofs. */
interface Tables {
  witness: Int32Array;
  models: Int32Array[];
  dead: Map<number, DeadEnd>;
  changes: (Change | undefined)[];
}

/** Does any of `xs` occur in `ys`? */
function anyIn(xs: readonly number[], ys: readonly number[]): boolean {
  for (let i = 0; i < xs.length; i++) if (ys.includes(xs[i])) return true;
  return false;
}

/** Witness codes besides a model id. */
export const DEAD = -1;
export const UNKNOWN = -2;
/** Incompatible with a chosen component: disabled for that reason, not asked. */
export const UNASKED = -3;
const OPEN = -4;
/** Proved by the greedy repair of this selection's base model (`inWitness` reads its model). */
export const REPAIRED = -5;


/** Models from earlier selections worth trying again. */
const POOL = 64;
/** Search budget for an explanation (the yes/no answer is already known). */
const EXPLAIN_BUDGET = 300;

export interface RefreshStats {
  carried: number;
  /** Repaired proofs of the previous click moved onto this click's base (rebase.ts). */
  rebased: number;
  base: number;
  repaired: number;
  propagated: number;
  searched: number;
  /** Dead ends put into words on this click (all of them: see `deadEnd`). */
  explained: number;
}

export class Proofs {
  readonly cdcl: Cdcl;
  private readonly repair: Repair;
  /** Repairs from the model of this click's latest search (proveRest). */
  private repairFromSearch: Repair | undefined;
  /** `repairFromSearch` was based on this click's selection (else it holds an older click's model). */
  private searchedThisClick = false;
  private readonly rebase: Rebase;
  private readonly explainer: Solver;
  private helper: { cdcl: Cdcl; repair: Repair } | undefined;
  /** For `canonicalCore` (made when first needed). */
  private coreSolver: Cdcl | undefined;
  selection: number[] = [];
  witness: Int32Array;
  /** Last click's `witness`, reused as the next one's. */
  private witnessSpare: Int32Array;
  models: Int32Array[] = [];
  dead = new Map<number, DeadEnd>();
  /** The selection can be completed. */
  baseOk = false;
  /** Why it cannot (or undefined when the search gave up). */
  baseWhy: Refutation | undefined;
  baseUnknown = false;
  private fresh = false;
  /** The last refresh's scope (undefined: every component). */
  private scope: Uint8Array | undefined;
  private pool: Int32Array[] = [];
  private readonly hint: Uint8Array;
  private readonly blocked: Uint8Array;
  /** The selection as marks. */
  private readonly chosen: Uint8Array;
  /** The last explained dead end of each component (its sentence is reused for the same proof: `sameRefutation`). */
  private readonly told: (DeadEnd | undefined)[];
  /** The previous click's tables, for `previously`. */
  private before: { selection: number[] | undefined; witness: Int32Array; models: Int32Array[]; dead: Map<number, DeadEnd>; changes: (Change | undefined)[] } | undefined;
  stats: RefreshStats = { carried: 0, rebased: 0, base: 0, repaired: 0, propagated: 0, searched: 0, explained: 0 };
  /**
   * For components proved by the repair: the base model it started from and what it changed.
   * Kept for those with rules of their own (their fixes read it) or that dropped something (a
   * later click needs to know); the others' witness is their base plus additions.
   */
  private changes: (Change | undefined)[];
  /** Last click's `changes`, read while this click's are made, then reused (a Map of a thousand entries a click was garbage). */
  private spare: (Change | undefined)[];

  constructor(readonly catalog: Catalog) {
    const n = catalog.components.length;
    this.cdcl = new Cdcl(catalog);
    this.repair = new Repair(catalog);
    this.rebase = new Rebase(catalog);
    this.explainer = new Solver(catalog);
    this.witness = new Int32Array(n);
    this.witnessSpare = new Int32Array(n);
    this.changes = new Array(n).fill(undefined);
    this.spare = new Array(n).fill(undefined);
    this.hint = new Uint8Array(n);
    this.blocked = new Uint8Array(n);
    this.chosen = new Uint8Array(n);
    this.told = new Array(n).fill(undefined);
  }

  /**
   * Prove every component against `selection`, except those in `skip` (radio members a sibling
   * of which is checked: they are judged against the selection their click would make instead,
   * and here they would only be refuted by the radio rule and explained for nothing).
   * `scope` (marks by component): only those marked are proved, the wizard's shown pane; the
   * others stay open unless a model found for another happens to prove them. Asked again with
   * the same selection and a wider scope, what was proved is carried and only the rest is proved.
   */
  refresh(selection: number[], budget: number, skip: readonly number[] = [], scope?: Uint8Array): void {
    const { catalog } = this;
    const n = catalog.components.length;
    const change = this.fresh && this.baseOk ? diff(this.selection, selection) : undefined;
    if (change?.same && !this.leftOpen(scope)) return;
    this.scope = scope;
    const old: Tables = { witness: this.witness, models: this.models, dead: this.dead, changes: this.changes };
    this.before = { selection: this.fresh ? this.selection : undefined, witness: old.witness, models: old.models, dead: old.dead, changes: old.changes };
    this.changes = this.spare.fill(undefined);
    this.spare = old.changes;
    for (const x of this.selection) this.chosen[x] = 0;
    for (const x of selection) this.chosen[x] = 1;
    this.selection = selection;
    this.fresh = true;
    this.stats = { carried: 0, rebased: 0, base: 0, repaired: 0, propagated: 0, searched: 0, explained: 0 };
    this.searchedThisClick = false;
    this.setHint(this.models[0]);
    const base = this.cdcl.solve(selection, { hint: this.hint, budget });
    this.witness = this.witnessSpare.fill(OPEN);
    this.witnessSpare = old.witness;
    this.models = [];
    this.dead = new Map();
    if (base.status !== 'sat') {
      this.baseOk = false;
      this.baseUnknown = base.status === 'unknown';
      this.baseWhy = undefined;
      if (this.explainer.assume(selection)) {
        const r = this.explainer.solve([], { explain: true, budget: EXPLAIN_BUDGET });
        if (r.status === 'unsat') this.baseWhy = r.why;
      } else this.baseWhy = this.explainer.baseRefutation;
      this.witness.fill(this.baseUnknown ? UNKNOWN : DEAD);
      return;
    }
    this.baseOk = true;
    this.baseUnknown = false;
    this.baseWhy = undefined;
    this.cdcl.settle(selection.length);
    const base0 = base.model;
    this.models.push(base0);
    this.remember(base0);
    const { witness, blocked } = this;
    blocked.fill(0);
    // Indexed loops: refresh runs once a click, and a for-of over a thousand-long neighbour list in
    // code not yet optimised allocates a step object per item.
    for (const s of selection) {
      witness[s] = 0;
      const ys = catalog.conflicts[s];
      for (let i = 0; i < ys.length; i++) blocked[ys[i]] = 1;
    }
    for (let c = 0; c < n; c++) if (blocked[c] && witness[c] === OPEN) witness[c] = UNASKED;
    for (const x of base0) witness[x] = 0;
    for (const c of skip) if (witness[c] === OPEN) witness[c] = UNASKED;
    this.stats.base = base0.length;

    // 1. What the previous click proved and still holds; 2-4. the rest, cheapest proof first; then
    // the new dead ends in words. Three methods rather than one: V8 optimises each on its own (one
    // function holding all three took TurboFan 0.2-0.4 s of a second thread, compiled again after
    // every deoptimisation, while the click ran in unoptimised code that allocates as it loops).
    const explainAgain: number[] = [];
    if (change) this.carry(old, change, base0, selection, explainAgain);
    for (const m of this.pool) if (m !== base0 && containsAll(m, selection)) this.prove(m, false);
    this.proveRest(base0, selection, budget, explainAgain);
    this.explain(selection, explainAgain);
  }

  /** Step 1: what the previous click proved and still holds, carried or moved onto `base0`. */
  private carry(old: Tables, change: { added: number[]; removed: number[] }, base0: Int32Array, selection: readonly number[], explainAgain: number[]): void {
    const { witness } = this;
    const n = witness.length;
    const kept = new Map<number, number>();
    const { rebase } = this;
    rebase.setBase(base0, selection);
    const oldBase = old.models[0];
    for (let c = 0; c < n; c++) {
      if (witness[c] !== OPEN) continue;
      const w = old.witness[c];
      if (w >= 0 && containsAll(old.models[w], change.added)) {
        let id = kept.get(w);
        if (id === undefined) {
          id = this.models.length;
          this.models.push(old.models[w]);
          kept.set(w, id);
        }
        witness[c] = id;
        this.stats.carried++;
      } else if (w === 0 && !contains(oldBase, c)) {
        // Last click's base + c (extendsBase): the same on the new base, when the rules the
        // bases' difference touches still hold (rebase.ts).
        if (rebase.holdsWith(oldBase, c)) {
          witness[c] = 0;
          this.stats.rebased++;
        }
      } else if (w === REPAIRED) {
        // base − dropped + added, against the base of its own click: still a model with the
        // selection when it has every choice the click added (removed ones do not matter).
        // Without an entry it was last click's base + c.
        const ch = old.changes[c] ?? { base: oldBase, added: [c], dropped: NOTHING };
        if (inChangeAll(ch, change.added)) {
          witness[c] = REPAIRED;
          this.changes[c] = ch;
          this.stats.carried++;
        } else if (rebase.holds(ch.base, ch.added, ch.dropped, c)) {
          // The same change on the new base (rebase.ts), minus what the new base already has or lacks.
          const moved = rebase.moved(ch);
          if (moved.dropped.length === 0 && moved.added.length === 1 && moved.added[0] === c) witness[c] = 0;
          else {
            witness[c] = REPAIRED;
            this.changes[c] = moved;
          }
          this.stats.rebased++;
        }
      } else if (w === DEAD) {
        // Still a dead end while every choice of its core is still chosen; told again against this
        // selection (a sentence told for another one would make the answer depend on the path).
        const d = old.dead.get(c) as DeadEnd;
        if (!anyIn(change.removed, d.core)) {
          witness[c] = DEAD;
          this.deadEnd(c, d.core, explainAgain);
          this.stats.carried++;
        }
      }
    }
  }

  /** Steps 2-4 for what is still open: the repair against `base0`, propagation, then a search. */
  private proveRest(base0: Int32Array, selection: number[], budget: number, explainAgain: number[]): void {
    const { catalog, witness, scope } = this;
    const n = witness.length;
    this.repair.setBase(base0, selection, (c) => this.cdcl.fixedFalse(c));
    const hinted = this.setHint(base0);
    let searchedBase = false;
    for (let c = 0; c < n; c++) {
      if (witness[c] !== OPEN || (scope !== undefined && scope[c] === 0)) continue;
      if (this.cdcl.fixedFalse(c)) {
        witness[c] = DEAD;
        this.deadEnd(c, this.cdcl.coreOf(c), explainAgain);
        this.stats.propagated++;
        continue;
      }
      if (this.repair.extendsBase(c)) {
        witness[c] = 0;
        this.stats.repaired++;
        continue;
      }
      if (this.repair.canAdd(c)) {
        // Only what changed against the base is kept, and only for components with rules of their
        // own (the wizard reads their witness for "also choose" fixes); building 7,000 models a
        // click that nobody reads was most of the repair's cost.
        witness[c] = REPAIRED;
        if (catalog.triggeredBy[c].length > 0 || this.repair.droppedCount > 0) {
          const { added, dropped } = this.repair.lastChange();
          this.changes[c] = { base: base0, added, dropped };
        }
        this.stats.repaired++;
        continue;
      }
      if (searchedBase) {
        // The last search's model as a second base: components the greedy repair could not place
        // on the selection's own completion often sit beside one that needed a search (the same
        // requirements met another way), and mending that model is linear where a search builds a
        // whole model (at 1,000 components, most of the first state's time was 100 such searches).
        const m = (this.repairFromSearch as Repair).tryAdd(c);
        if (m) {
          witness[c] = REPAIRED;
          this.changes[c] = changeOf(base0, m);
          this.stats.repaired++;
          continue;
        }
      }
      this.stats.searched++;
      const r = this.cdcl.solve([...selection, c], { hint: hinted, budget });
      this.cdcl.settle(selection.length);
      if (this.cdcl.assumedCount < selection.length) {
        // A learned fact undid part of the selection's levels: put them back for fixedFalse.
        this.cdcl.solve(selection, { hint: hinted, budget });
        this.cdcl.settle(selection.length);
      }
      if (r.status === 'sat') {
        this.prove(r.model, true);
        this.remember(r.model);
        this.repairFromSearch ??= new Repair(catalog);
        this.repairFromSearch.setBase(r.model, selection, (x) => this.cdcl.fixedFalse(x));
        searchedBase = true;
        this.searchedThisClick = true;
        // c's own proof as a change against the base, so the next click can move it (rebase.ts)
        // rather than search again; the model's other members keep the model.
        witness[c] = REPAIRED;
        this.changes[c] = changeOf(base0, r.model);
      } else if (r.status === 'unsat') {
        witness[c] = DEAD;
        this.deadEnd(c, r.core.filter((x) => x !== c), explainAgain);
      } else witness[c] = UNKNOWN;
    }
  }

  /** The dead ends found or kept on this click that need a (new) explanation. */
  private explain(selection: readonly number[], explainAgain: readonly number[]): void {
    this.stats.explained = explainAgain.length;
    if (explainAgain.length === 0) return;
    this.explainer.assume(selection, true);
    for (const c of explainAgain) {
      const d = this.dead.get(c) as DeadEnd;
      const r = explainWithin(this.explainer, c, EXPLAIN_BUDGET);
      const prev = this.told[c];
      const told: DeadEnd = r.status === 'unsat' ? { core: d.core, why: r.why, text: prev?.why && sameRefutation(prev.why, r.why) ? prev.text : undefined } : { core: this.canonicalCore(selection, c) };
      this.dead.set(c, told);
      if (told.why) this.told[c] = told;
    }
  }

  /**
   * The chosen components `c` rests on when the explaining search ran out of budget, canonically:
   * the selection, less each choice (in the user's order) without which `c` is still a dead end.
   * The clause-learning solver's own core depends on what it learned before; this does not (a
   * choice stays when the solver cannot tell within its budget). Rare: one dead end in 59 of the
   * 10,000-component catalog's first state.
   */
  private canonicalCore(selection: readonly number[], c: number): number[] {
    this.coreSolver ??= new Cdcl(this.catalog);
    let core = [...selection];
    for (const y of selection) {
      const rest = core.filter((x) => x !== y);
      if (this.coreSolver.solve([...rest, c], { budget: EXPLAIN_BUDGET * 10 }).status === 'unsat') core = rest;
    }
    return core;
  }

  /**
   * Can the selection plus `extra` be completed? Propagation and the greedy repair of the base
   * model first, then the same repair of this click's latest search model (at 1,000 components it
   * answered 8 of the first state's 10 searches), then a search. False when the search ran out of
   * budget. A repair only ever answers yes with a model in hand, so the answer is the search's.
   */
  completable(extra: readonly number[], budget: number): boolean {
    if (!this.baseOk) return false;
    for (let i = 0; i < extra.length; i++) if (this.cdcl.fixedFalse(extra[i])) return false;
    if (this.repair.canAddAll(extra)) return true;
    if (this.searchedThisClick && (this.repairFromSearch as Repair).canAddAll(extra)) return true;
    const { selection } = this;
    const r = this.cdcl.solve([...selection, ...extra], { budget });
    this.cdcl.settle(selection.length);
    if (this.cdcl.assumedCount < selection.length) {
      this.cdcl.solve(selection, { budget });
      this.cdcl.settle(selection.length);
    }
    return r.status === 'sat';
  }

  /**
   * `c` is a dead end resting on `core`, to be told against this selection: every state is a
   * function of the catalog and the selection alone, so an explanation told on another click
   * (even one that still holds) is not reused.
   */
  private deadEnd(c: number, core: number[], explainAgain: number[]): void {
    this.dead.set(c, { core });
    explainAgain.push(c);
  }

  /**
   * What the click before this one proved about `c`, when it was asked with exactly `selection`
   * (as a set): a radio member's kept selection is, on the click that first chooses a network
   * core, the selection of the click before — whose proofs for every core are still true, so the
   * members need no proof of their own. Read only until the next `refresh` (its tables are reused).
   */
  previously(c: number, selection: readonly number[]): { model?: Int32Array; change?: Change; dead?: DeadEnd } | undefined {
    const b = this.before;
    if (!b?.selection || b.selection.length !== selection.length || !selection.every((x) => b.selection?.includes(x))) return undefined;
    const w = b.witness[c];
    // A witness id may stand for its model plus c itself (a base that c extends).
    if (w >= 0) return contains(b.models[w], c) ? { model: b.models[w] } : { change: { base: b.models[w], added: [c], dropped: NOTHING } };
    if (w === REPAIRED) return { change: b.changes[c] ?? { base: b.models[0], added: [c], dropped: NOTHING } };
    if (w === DEAD) {
      const dead = b.dead.get(c);
      return dead ? { dead } : undefined;
    }
    return undefined;
  }

  /** Is some component of `scope` (every one without) still unproved for the last selection? */
  private leftOpen(scope: Uint8Array | undefined): boolean {
    const { witness } = this;
    for (let c = 0; c < witness.length; c++) if (witness[c] === OPEN && (scope === undefined || scope[c] === 1)) return true;
    return false;
  }

  /** The selection's own valid completion, when it has one. */
  get baseModel(): Int32Array | undefined {
    return this.baseOk ? this.models[0] : undefined;
  }

  /** Is `c` proved choosable (a model contains it with the selection)? */
  choosable(c: number): boolean {
    const w = this.witness[c];
    return w >= 0 || w === REPAIRED;
  }

  /** Is `x` in the valid selection that proves `c` choosable? (No model is built.) */
  inWitness(c: number, x: number): boolean {
    const w = this.witness[c];
    if (w >= 0) return contains(this.models[w], x);
    if (w !== REPAIRED) return false;
    const change = this.changes[c];
    // Without an entry, additions were not kept: answering from the base alone only ever says no wrongly.
    return change ? inChange(change, x) : x === c || contains(this.models[0], x);
  }

  /**
   * The items (ascending) that are in the valid selection proving `c` choosable — exactly the `x`
   * of `items` for which `inWitness(c, x)` holds — written into `out` (from 0); returns how many.
   * Short rules are tested item by item; a long one (thousands of items) by walking the witness,
   * which has a handful of members. Nothing is allocated: a click asks this of a thousand
   * components.
   */
  itemsInWitness(c: number, items: Int32Array, out: number[]): number {
    const w = this.witness[c];
    let k = 0;
    if (w < 0 && w !== REPAIRED) return 0;
    const model = w >= 0 ? this.models[w] : undefined;
    const change = model ? undefined : this.changes[c];
    const base = model ?? change?.base ?? this.models[0];
    const added = change?.added;
    const dropped = change?.dropped;
    if (items.length <= 8) {
      for (let i = 0; i < items.length; i++) {
        const x = items[i];
        const has = model ? contains(model, x) : added ? added.includes(x) || (contains(base, x) && !(dropped as readonly number[]).includes(x)) : x === c || contains(base, x);
        if (has) out[k++] = x;
      }
      return k;
    }
    const take = (x: number) => {
      if (!sortedHas(items, x)) return;
      for (let i = 0; i < k; i++) if (out[i] === x) return;
      out[k++] = x;
    };
    for (let i = 0; i < base.length; i++) if (!dropped?.includes(base[i])) take(base[i]);
    if (added) for (let i = 0; i < added.length; i++) take(added[i]);
    else if (!model) take(c);
    // Ascending, as the items are (a handful at most).
    for (let i = 1; i < k; i++) {
      const x = out[i];
      let j = i - 1;
      for (; j >= 0 && out[j] > x; j--) out[j + 1] = out[j];
      out[j + 1] = x;
    }
    return k;
  }

  /**
   * Which of `targets` become choosable when one chosen component is unselected: for each
   * chosen y, the same ladder of proofs over the selection without y, on a separate solver so
   * the main one keeps its place. Returns target → the y that frees it (the first found).
   */
  freedBy(targets: readonly number[], budget: number): Map<number, number> {
    const out = new Map<number, number>();
    if (targets.length === 0 || this.selection.length === 0) return out;
    this.helper ??= { cdcl: new Cdcl(this.catalog), repair: new Repair(this.catalog) };
    const { cdcl, repair } = this.helper;
    for (const y of this.selection) {
      const open = targets.filter((c) => !out.has(c));
      if (open.length === 0) break;
      const rest = this.selection.filter((x) => x !== y);
      const base = cdcl.solve(rest, { hint: this.hint, budget });
      if (base.status !== 'sat') continue;
      cdcl.settle(rest.length);
      repair.setBase(base.model, rest, (c) => cdcl.fixedFalse(c));
      for (const c of open) {
        if (cdcl.fixedFalse(c)) continue;
        let ok = repair.extendsBase(c) || repair.tryAdd(c) !== undefined;
        if (!ok) {
          ok = cdcl.solve([...rest, c], { budget: Math.min(budget, 1_000) }).status === 'sat';
          cdcl.settle(rest.length);
          if (cdcl.assumedCount < rest.length) {
            cdcl.solve(rest, { budget });
            cdcl.settle(rest.length);
          }
        }
        if (ok) out.set(c, y);
      }
    }
    return out;
  }

  /** Every open component in `model` is proved by it. */
  private prove(model: Int32Array, fresh: boolean): void {
    let id = -1;
    for (const x of model) {
      if (this.witness[x] !== OPEN) continue;
      if (id < 0) {
        id = this.models.length;
        this.models.push(model);
      }
      this.witness[x] = id;
    }
    if (!fresh && id >= 0) this.stats.carried++;
  }

  private remember(model: Int32Array): void {
    this.pool.push(model);
    if (this.pool.length > POOL) this.pool.shift();
  }

  private setHint(model: Int32Array | undefined): Uint8Array | undefined {
    if (!model) return undefined;
    this.hint.fill(0);
    for (const x of model) this.hint[x] = 1;
    return this.hint;
  }
}

/**
 * The explaining solver's refutation of `c` against its assumed selection, within `budget`
 * decisions: the same answer as one search with that budget (the search is deterministic; a budget
 * only cuts it short). Most dead ends are refuted within a few decisions, recording why as they go;
 * past those, the search is run again without recording (the same decisions, far cheaper), and only
 * a refutation it finds is searched for once more with its proof trees (one of the 10,000-component
 * catalog's dead ends ran 300 decisions of them on every click, to no avail).
 */
export function explainWithin(explainer: Solver, c: number, budget: number): ReturnType<Solver['solve']> {
  const first = explainer.solve([c], { explain: true, budget: Math.min(budget, QUICK_EXPLAIN) });
  if (first.status !== 'unknown' || budget <= QUICK_EXPLAIN) return first;
  const quick = explainer.solve([c], { explain: false, budget });
  return quick.status === 'unsat' ? explainer.solve([c], { explain: true, budget }) : quick;
}
const QUICK_EXPLAIN = 16;

/**
 * What changed between two selections. Any change can be carried (a radio click removes the
 * checked sibling and what depended on it, and adds the new member, in one step).
 */
function diff(a: number[], b: number[]): { added: number[]; removed: number[]; same: boolean } {
  const added = b.filter((x) => !a.includes(x));
  const removed = a.filter((x) => !b.includes(x));
  return { added, removed, same: added.length === 0 && removed.length === 0 };
}
