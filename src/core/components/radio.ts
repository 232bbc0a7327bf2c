/**
 * Radio groups in the wizard (the network core plugins): choosing a member *replaces* the member
 * checked in its group, it never adds a second one. So "can Contrail be chosen while Neutron with
 * ML2 is checked?" is asked of the selection the click would produce — the checked sibling(s)
 * removed, and with them whatever the user chose only because of them (the ML2 drivers, which
 * require ML2 core) — never of the selection plus Contrail, which the radio rule alone refutes.
 *
 * The replacement, precisely (docs/components.md): start from the chosen members of the group
 * other than r (the siblings) as the dropped set; a chosen component d is dropped too when one of
 * its requirements (a rule with a minimum: requires, any_of, one_of, all_of) has a dropped item
 * among its items and is not met by what is left plus r; repeat until nothing changes. The kept
 * selection is what remains, in the user's order. r is enabled when the kept selection plus r has
 * a valid completion (and no requirement of r on an earlier pane is missing, as for any component).
 */
import type { Catalog } from './catalog.js';
import { Cdcl, type Answer } from './cdcl.js';
import { RADIO_GROUPS } from './names.js';
import { Rebase } from './rebase.js';
import { Repair } from './repair.js';
import { changeOf, contains, containsAll } from './witness.js';
import { Solver, type Refutation } from './solver.js';
import { sameRefutation } from './dead-ends.js';
import { explainWithin } from './proofs.js';

export interface Replacement {
  /** The selection after the click, without r itself. */
  kept: number[];
  /** The siblings and the chosen components that depended on them, in selection order. */
  dropped: number[];
}

/**
 * What choosing `r` replaces, or undefined when `r` is not in a radio group or no sibling is
 * checked (then choosing it simply adds it).
 */
export function replacementOf(catalog: Catalog, selection: readonly number[], r: number): Replacement | undefined {
  const group = catalog.components[r].group;
  if (!RADIO_GROUPS.has(group)) return undefined;
  const gone = new Set<number>();
  for (const s of selection) if (s !== r && catalog.components[s].group === group) gone.add(s);
  if (gone.size === 0) return undefined;
  const chosen = new Set(selection);
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of selection) {
      if (d === r || gone.has(d)) continue;
      if (dependsOnDropped(catalog, d, r, chosen, gone)) {
        gone.add(d);
        changed = true;
      }
    }
  }
  return { kept: selection.filter((x) => x !== r && !gone.has(x)), dropped: selection.filter((x) => gone.has(x)) };
}

function dependsOnDropped(catalog: Catalog, d: number, r: number, chosen: Set<number>, gone: Set<number>): boolean {
  for (const k of catalog.triggeredBy[d]) {
    const rule = catalog.constraints[k];
    if (rule.min < 1) continue;
    let lost = false;
    let met = 0;
    for (const x of rule.items) {
      if (gone.has(x)) lost = true;
      else if (x === r || chosen.has(x)) met++;
    }
    if (lost && met < rule.min) return true;
  }
  return false;
}

/**
 * `replacementOf` for every member of `members` at once. Without r, the dropped set is the same
 * for every member of a group; r changes it only when r itself meets a requirement of a dependent
 * that would go, so only such members get a fixpoint of their own (at 10,000 components the group
 * has 500 members and a click asked 500 fixpoints).
 */
export function replacementsOf(catalog: Catalog, selection: readonly number[], members: readonly number[]): Map<number, Replacement> {
  const out = new Map<number, Replacement>();
  const shared = new Map<string, { rep: Replacement; rescuers: Set<number> }>();
  for (const r of members) {
    const group = catalog.components[r].group;
    let entry = shared.get(group);
    if (!entry) {
      // -1 stands for "no member": nothing it could rescue.
      const rep = replacementWithout(catalog, selection, group);
      const rescuers = new Set<number>();
      const siblings = new Set(selection.filter((s) => catalog.components[s].group === group));
      for (const d of rep.dropped) {
        if (siblings.has(d)) continue;
        for (const k of catalog.triggeredBy[d]) if (catalog.constraints[k].min >= 1) for (const x of catalog.constraints[k].items) rescuers.add(x);
      }
      entry = { rep, rescuers };
      shared.set(group, entry);
    }
    out.set(r, entry.rescuers.has(r) ? (replacementOf(catalog, selection, r) as Replacement) : entry.rep);
  }
  return out;
}

function replacementWithout(catalog: Catalog, selection: readonly number[], group: string): Replacement {
  const gone = new Set<number>();
  for (const s of selection) if (catalog.components[s].group === group) gone.add(s);
  const chosen = new Set(selection);
  for (let changed = true; changed; ) {
    changed = false;
    for (const d of selection) {
      if (gone.has(d) || !dependsOnDropped(catalog, d, -1, chosen, gone)) continue;
      gone.add(d);
      changed = true;
    }
  }
  return { kept: selection.filter((x) => !gone.has(x)), dropped: selection.filter((x) => gone.has(x)) };
}

/** Unchecked members of a radio group while a sibling is checked: the components `replacementOf` applies to. */
export function replacingMembers(catalog: Catalog, selection: readonly number[]): number[] {
  const checkedGroups = new Set<string>();
  const chosen = new Set(selection);
  for (const s of selection) if (RADIO_GROUPS.has(catalog.components[s].group)) checkedGroups.add(catalog.components[s].group);
  if (checkedGroups.size === 0) return [];
  const members = radioMembers(catalog);
  const out: number[] = [];
  for (const group of checkedGroups) for (const c of members.get(group) ?? []) if (!chosen.has(c)) out.push(c);
  // Catalog order (a component's index is its place), whichever groups are checked.
  return checkedGroups.size > 1 ? out.sort((a, b) => a - b) : out;
}

/** Each radio group's members in catalog order, once per catalog: a click asked every component its group. */
function radioMembers(catalog: Catalog): Map<string, number[]> {
  let members = radioMembersOf.get(catalog);
  if (!members) {
    members = new Map();
    for (const c of catalog.components) {
      if (!RADIO_GROUPS.has(c.group)) continue;
      let list = members.get(c.group);
      if (!list) members.set(c.group, (list = []));
      list.push(c.index);
    }
    radioMembersOf.set(catalog, members);
  }
  return members;
}
const radioMembersOf = new WeakMap<Catalog, Map<string, number[]>>();

/** The answer for one member: a valid selection containing kept + r, or why none exists. */
export type Verdict =
  | { status: 'sat'; witness: Witness; kept: number[] }
  | { status: 'unsat'; core: number[]; why?: Refutation; kept: number[]; text?: string; told?: boolean }
  | { status: 'unknown'; kept: number[] };

/** A valid selection: built (`model`), or the base model with a repair's change. */
export interface Witness {
  model?: Int32Array;
  base?: Int32Array;
  added?: readonly number[];
  dropped?: readonly number[];
}
const NOTHING: readonly number[] = Object.freeze([]);

/** The witness as a model (ascending). */
function modelOf(w: Witness): Int32Array {
  if (w.model) return w.model;
  const dropped = w.dropped as readonly number[];
  const out: number[] = [];
  for (const x of w.base as Int32Array) if (!dropped.includes(x)) out.push(x);
  for (const x of w.added as readonly number[]) if (!out.includes(x)) out.push(x);
  return Int32Array.from(out).sort();
}

export function inWitness(w: Witness, x: number): boolean {
  if (w.model) return contains(w.model, x);
  if ((w.added as readonly number[]).includes(x)) return true;
  return contains(w.base as Int32Array, x) && !(w.dropped as readonly number[]).includes(x);
}

/** What the main proofs proved about a member with exactly `kept` chosen, if they were asked (proofs.ts `previously`). */
export type Previously = (member: number, kept: readonly number[]) => { model?: Int32Array; change?: Witness; dead?: { core: number[]; why?: Refutation; text?: string } } | undefined;

/** Search budget for an explanation (the yes/no answer is already known). */
const EXPLAIN_BUDGET = 300;

/**
 * Proofs for the replacements of one catalog, on solvers of their own so the main ones keep
 * their place. The answers of the previous click are kept while they still hold: a model that
 * contains the new kept selection, a refutation whose core is still chosen.
 */
export class Replacements {
  private readonly cdcl: Cdcl;
  private readonly repair: Repair;
  private readonly rebase: Rebase;
  private readonly explainer: Solver;
  /** For `canonicalCore` (made when first needed). */
  private coreSolver: Cdcl | undefined;
  private previous = new Map<number, Verdict>();
  /** How the last `prove` answered (for benchmarks and tests). */
  stats = { carried: 0, rebased: 0, base: 0, repaired: 0, propagated: 0, searched: 0 };
  private readonly hint: Uint8Array;
  private hinted = false;
  /** The kept selection `repair` was last based on in this `prove` (its base is a model of it). */
  private repairKept: readonly number[] | undefined;
  /** Per kept selection proved in this `prove`, the model its members were proved from. */
  private provedFrom = new Map<readonly number[], Int32Array>();

  constructor(readonly catalog: Catalog) {
    this.hint = new Uint8Array(catalog.components.length);
    this.cdcl = new Cdcl(catalog);
    this.repair = new Repair(catalog);
    this.rebase = new Rebase(catalog);
    this.explainer = new Solver(catalog);
  }

  /** A verdict for each of `targets` against its own kept selection (the caller gives both). */
  prove(targets: ReadonlyArray<{ member: number; kept: number[] }>, budget: number, prefer?: Int32Array, previously?: Previously): Map<number, Verdict> {
    const out = new Map<number, Verdict>();
    this.stats = { carried: 0, rebased: 0, base: 0, repaired: 0, propagated: 0, searched: 0 };
    this.repairKept = undefined;
    this.provedFrom = new Map();
    // The main selection's model minus what the click drops is usually a model of kept: steer there.
    this.hint.fill(0);
    this.hinted = prefer !== undefined;
    if (prefer) for (const x of prefer) this.hint[x] = 1;
    // Members sharing a kept selection (almost always all of them) share its base model.
    const byKept = new Map<string, { kept: number[]; members: number[] }>();
    // Members of one replacement share its kept list: joined once per list, not once per member.
    const keys = new Map<number[], string>();
    for (const { member, kept } of targets) {
      const carried = this.carry(member, kept) ?? this.known(member, kept, previously, prefer);
      if (carried) {
        this.stats.carried++;
        out.set(member, carried);
        continue;
      }
      let key = keys.get(kept);
      if (key === undefined) keys.set(kept, (key = kept.join(',')));
      const entry = byKept.get(key);
      if (entry) entry.members.push(member);
      else byKept.set(key, { kept, members: [member] });
    }
    for (const { kept, members } of byKept.values()) this.proveAll(kept, members, budget, out, prefer);
    this.tell(out, budget);
    this.previous = out;
    return out;
  }

  /**
   * Puts every dead end not yet told against its own kept selection into words, canonically: the
   * explaining search on that selection, or when it runs out of budget a core made from the kept
   * selection alone (as proofs.ts `canonicalCore`), never what an earlier click or solver learned.
   */
  private tell(out: Map<number, Verdict>, budget: number): void {
    let assumed: number[] | undefined;
    let assumedOk = false;
    out.forEach((v, m) => {
      if (v.status !== 'unsat' || v.told) return;
      if (assumed !== v.kept) {
        assumed = v.kept;
        assumedOk = this.explainer.assume(v.kept, true);
      }
      let why: Refutation | undefined;
      if (assumedOk) {
        const r = explainWithin(this.explainer, m, Math.min(budget, EXPLAIN_BUDGET));
        if (r.status === 'unsat') why = r.why;
      } else why = this.explainer.baseRefutation;
      const prev = this.previous.get(m);
      const text = why && prev?.status === 'unsat' && prev.why && sameRefutation(prev.why, why) ? prev.text : undefined;
      out.set(m, why ? { status: 'unsat', core: v.core, why, kept: v.kept, told: true, text } : { status: 'unsat', core: this.canonicalCore(v.kept, m), kept: v.kept, told: true });
    });
  }

  private canonicalCore(kept: readonly number[], m: number): number[] {
    this.coreSolver ??= new Cdcl(this.catalog);
    let core = [...kept];
    for (const y of kept) {
      const rest = core.filter((x) => x !== y);
      if (this.coreSolver.solve([...rest, m], { budget: EXPLAIN_BUDGET * 10 }).status === 'unsat') core = rest;
    }
    return core;
  }

  /**
   * Can `kept` plus `extra` be completed? The greedy repair of the model the members of `kept`
   * were proved from first, when it is based on it (a repair answers yes only with a model in
   * hand, so the answer is the search's), then a search. False when the search ran out of budget.
   */
  completable(kept: readonly number[], extra: readonly number[], budget: number): boolean {
    const base = this.provedFrom.get(kept);
    if (base && this.repairKept !== kept) {
      this.repair.setBase(base, kept, (c) => this.cdcl.fixedFalse(c));
      this.repairKept = kept;
    }
    if (base && this.repair.canAddAll(extra)) return true;
    return this.cdcl.solve([...kept, ...extra], { budget }).status === 'sat';
  }

  /** Which "unselect Y" (Y kept) lets `member` be chosen; the first found, or undefined. */
  freedBy(member: number, kept: readonly number[], budget: number): number | undefined {
    for (const y of kept) {
      const rest = kept.filter((x) => x !== y);
      const r = this.cdcl.solve([...rest, member], { budget: Math.min(budget, 1_000) });
      if (r.status === 'sat') return y;
    }
    return undefined;
  }

  /** The main proofs' answer for member + kept, when kept is the selection they last proved. */
  private known(member: number, kept: number[], previously: Previously | undefined, prefer: Int32Array | undefined): Verdict | undefined {
    const p = previously?.(member, kept);
    if (!p) return undefined;
    // Told again against kept (`tell`): the main proofs told it against their selection's order.
    if (p.dead) return { status: 'unsat', core: p.dead.core, kept };
    const model = p.model ?? modelOf(p.change as Witness);
    // Written against this click's base, as the members' own proofs are, so the next click rebases it.
    return { status: 'sat', witness: prefer ? changeOf(prefer, model) : { model }, kept };
  }

  private carry(member: number, kept: number[]): Verdict | undefined {
    const old = this.previous.get(member);
    if (!old) return undefined;
    if (old.status === 'sat' && old.witness.model && containsAll(old.witness.model, kept)) return { ...old, kept };
    if (old.status === 'unsat' && old.core.every((x) => kept.includes(x))) {
      // The same kept selection: the same words; another: told again (`tell`).
      if (old.told && sameList(old.kept, kept)) return old;
      return { status: 'unsat', core: old.core, kept };
    }
    return undefined;
  }

  /**
   * `prefer`, a model of the whole selection, is a model of every kept selection too (kept is a
   * part of it): the base to start from, so the kept selection is searched for only when a member
   * needs more than a rebase or a repair (a search propagating a click's new choice through
   * thousands of rules was most of the replacements' time).
   */
  private proveAll(kept: number[], members: number[], budget: number, out: Map<number, Verdict>, prefer?: Int32Array): void {
    const { cdcl, repair, rebase } = this;
    let solved = false;
    const solveKept = (): Answer => {
      solved = true;
      const r = cdcl.solve(kept, { budget, hint: this.hinted ? this.hint : undefined });
      if (r.status === 'sat') cdcl.settle(kept.length);
      return r;
    };
    let base = prefer;
    if (!base) {
      const r = solveKept();
      if (r.status !== 'sat') {
        // The kept selection cannot be completed at all: no member helps.
        for (const m of members) out.set(m, r.status === 'unsat' ? this.refute(kept, r.core) : { status: 'unknown', kept });
        return;
      }
      base = r.model;
    }
    rebase.setBase(base, kept);
    this.provedFrom.set(kept, base);
    let repairing = false;
    for (const m of members) {
      // Last click's repaired witness, moved onto this base (rebase.ts).
      const old = this.previous.get(m);
      const was = old?.status === 'sat' ? old.witness : undefined;
      if (was?.base && rebase.holds(was.base, was.added as readonly number[], was.dropped as readonly number[], m)) {
        out.set(m, { status: 'sat', witness: rebase.moved(was as { added: readonly number[]; dropped: readonly number[] }), kept });
        this.stats.rebased++;
        continue;
      }
      if (contains(base, m)) {
        out.set(m, { status: 'sat', witness: { model: base }, kept });
        this.stats.base++;
        continue;
      }
      // The solver's levels for the kept selection: what its propagation excludes is a dead end.
      if (!solved && solveKept().status !== 'sat') {
        // Only when it ran out of budget (base is a model of kept).
        out.set(m, { status: 'unknown', kept });
        continue;
      }
      if (!repairing) {
        repair.setBase(base, kept, (c) => cdcl.fixedFalse(c));
        repairing = true;
        this.repairKept = kept;
      }
      if (cdcl.fixedFalse(m)) {
        out.set(m, { status: 'unsat', core: cdcl.coreOf(m), kept });
        this.stats.propagated++;
        continue;
      }
      // As in the main proofs: keep the repair's change against the base, not a built model.
      if (repair.extendsBase(m)) {
        out.set(m, { status: 'sat', witness: { base, added: [m], dropped: NOTHING }, kept });
        this.stats.repaired++;
        continue;
      }
      if (repair.canAdd(m)) {
        out.set(m, { status: 'sat', witness: { base, ...repair.lastChange() }, kept });
        this.stats.repaired++;
        continue;
      }
      this.stats.searched++;
      const r = cdcl.solve([...kept, m], { budget });
      cdcl.settle(kept.length);
      if (cdcl.assumedCount < kept.length) {
        cdcl.solve(kept, { budget });
        cdcl.settle(kept.length);
      }
      // As a change against the base, so the next click can move it (rebase.ts) rather than search again.
      if (r.status === 'sat') out.set(m, { status: 'sat', witness: changeOf(base, r.model), kept });
      else if (r.status === 'unsat') {
        out.set(m, { status: 'unsat', core: r.core.filter((x) => x !== m), kept });
      } else out.set(m, { status: 'unknown', kept });
    }
  }

  /** Put into words by `tell`. */
  private refute(kept: number[], core: number[]): Verdict {
    return { status: 'unsat', core, kept };
  }
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
