/**
 * The wizard's state for a selection: for every component, checked or not, enabled or not and
 * why, the green light, and the smallest change that would enable it.
 *
 * An unchecked component is disabled when (1) it is incompatible with a chosen one, (2) its
 * `requires` on this or an earlier pane are not met yet (Fuel's rule: choose vCenter, then DVS
 * becomes available; requirements on later panes are asked for there), or (3) choosing it
 * would lead into a dead end: no completion satisfies every rule.
 *
 * (3) is satisfiability, done cheaply: one model of the selection proves every component in it;
 * a component outside it is proved by checking that model plus the component against its own
 * rules (no search); only the rest get a search of their own, which starts from a known model
 * and adds its models to the pool. Across clicks the engine keeps each component's witness: a
 * click that adds x keeps every witness containing x, a click that removes x keeps every
 * witness (a completion of the larger selection completes the smaller), and a dead end stays a
 * dead end when a component is added.
 */
import type { Catalog } from './catalog.js';
import { explainDeadEnd, describeRule, nameOf, pairText, render } from './explain.js';
import { Solver, type Refutation } from './solver.js';
import { resolveSelection, validateIndices, type ComponentFinding } from './validate.js';
import type { ComponentGroup } from './names.js';

export interface ComponentState {
  name: string;
  type: string;
  group: ComponentGroup;
  label?: string;
  checked: boolean;
  enabled: boolean;
  /** Every other chosen component is listed as compatible (tested together): the green light. */
  green: boolean;
  /** Chosen components it was not tested with (empty when green). */
  untested: string[];
  /** Disabled because choosing it leads to a dead end (no valid completion). */
  deadEnd: boolean;
  reasons: string[];
  /** The smallest change that enables it: "also choose X", "unselect Y". */
  fix: string[];
}

export interface WizardState {
  /** The selection as it stands is a valid final answer. */
  valid: boolean;
  /** The selection can still be completed into a valid one. */
  completable: boolean;
  /** Why it cannot be completed, when it cannot. */
  blocked?: string;
  findings: ComponentFinding[];
  components: ComponentState[];
}

export interface StateOptions {
  /** Compute removal fixes for dead ends (one search per chosen component and dead end). Default true. */
  fixes?: boolean;
  /** Decision budget per search. */
  budget?: number;
}

interface Status {
  /** Witness model id (enabled-able), or -1 for a dead end, -2 unknown. */
  witness: number;
  why?: Refutation;
}

class Engine {
  readonly solver: Solver;
  readonly helper: Solver;
  selection: number[] = [];
  models: Int32Array[] = [];
  status: Status[] = [];
  baseOk = false;
  baseWhy: Refutation | undefined;
  /** Stamp arrays reused between calls. */
  readonly member: Uint8Array;
  readonly forbidden: Uint8Array;

  constructor(readonly catalog: Catalog) {
    this.solver = new Solver(catalog);
    this.helper = new Solver(catalog);
    this.member = new Uint8Array(catalog.components.length);
    this.forbidden = new Uint8Array(catalog.components.length);
  }
}

const engines = new WeakMap<Catalog, Engine>();

function engineFor(catalog: Catalog): Engine {
  let e = engines.get(catalog);
  if (!e) {
    e = new Engine(catalog);
    engines.set(catalog, e);
  }
  return e;
}

const contains = (model: Int32Array, x: number): boolean => {
  let lo = 0;
  let hi = model.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (model[mid] === x) return true;
    if (model[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
};

/** Marks every component that cannot be added to `model` because of a rule already in force. */
function markModel(e: Engine, model: Int32Array): void {
  const { catalog, member, forbidden } = e;
  member.fill(0);
  forbidden.fill(0);
  for (const m of model) member[m] = 1;
  for (const m of model) for (const y of catalog.conflicts[m]) forbidden[y] = 1;
  const atMax = (k: number) => {
    const rule = catalog.constraints[k];
    if (rule.max === Infinity) return;
    let t = 0;
    for (const x of rule.items) t += member[x];
    if (t >= rule.max) for (const x of rule.items) if (!member[x]) forbidden[x] = 1;
  };
  for (const k of catalog.global) atMax(k);
  for (const m of model) for (const k of catalog.triggeredBy[m]) atMax(k);
}

/** Is `model` plus c still a model? (after markModel) */
function extends1(e: Engine, c: number): boolean {
  const { catalog, member, forbidden } = e;
  if (forbidden[c]) return false;
  for (const k of catalog.triggeredBy[c]) {
    const rule = catalog.constraints[k];
    let t = 0;
    for (const x of rule.items) t += x === c ? 1 : member[x];
    if (t < rule.min || t > rule.max) return false;
  }
  return true;
}

function sameExcept(a: number[], b: number[]): { added?: number; removed?: number; same: boolean } | undefined {
  const sa = new Set(a);
  const sb = new Set(b);
  const added = b.filter((x) => !sa.has(x));
  const removed = a.filter((x) => !sb.has(x));
  if (added.length === 0 && removed.length === 0) return { same: true };
  if (added.length === 1 && removed.length === 0) return { added: added[0], same: false };
  if (removed.length === 1 && added.length === 0) return { removed: removed[0], same: false };
  return undefined;
}

/** Decide, for every component, whether the selection plus it can be completed. */
function refresh(e: Engine, selection: number[], budget: number): void {
  const { catalog, solver } = e;
  const n = catalog.components.length;
  const previous = e.selection;
  const change = e.status.length === n && e.baseOk ? sameExcept(previous, selection) : undefined;
  if (change?.same) return;

  e.selection = selection;
  e.baseOk = solver.assume(selection);
  e.baseWhy = solver.baseRefutation;
  const fresh: Status[] = new Array(n);
  if (!e.baseOk) {
    e.status = Array.from({ length: n }, () => ({ witness: -1 }));
    e.models = [];
    return;
  }
  const base = solver.solve([], { budget, explain: true, prefer: e.models.length ? toMask(n, e.models[0]) : undefined });
  if (base.status !== 'sat') {
    e.baseOk = false;
    e.baseWhy = base.status === 'unsat' ? base.why : undefined;
    e.status = Array.from({ length: n }, () => ({ witness: base.status === 'unsat' ? -1 : -2 }));
    e.models = [];
    return;
  }
  const oldModels = e.models;
  const models: Int32Array[] = [base.model];
  const keep = new Map<number, number>();
  const carried = (old: number): number => {
    let id = keep.get(old);
    if (id === undefined) {
      id = models.length;
      models.push(oldModels[old]);
      keep.set(old, id);
    }
    return id;
  };
  const pending: number[] = [];
  for (let c = 0; c < n; c++) {
    const before = change ? e.status[c] : undefined;
    if (before && before.witness >= 0 && (change?.removed !== undefined || contains(oldModels[before.witness], change?.added as number))) {
      fresh[c] = { witness: carried(before.witness) };
    } else if (before && before.witness === -1 && change?.added !== undefined) {
      fresh[c] = before;
    } else if (contains(base.model, c)) {
      fresh[c] = { witness: 0 };
    } else pending.push(c);
  }
  if (pending.length > 0) {
    markModel(e, base.model);
    const rest: number[] = [];
    for (const c of pending) {
      if (extends1(e, c)) fresh[c] = { witness: 0 };
      else rest.push(c);
    }
    const prefer = toMask(n, base.model);
    for (const c of rest) {
      if (fresh[c]) continue;
      const r = solver.solve([c], { budget, explain: true, prefer });
      if (r.status === 'sat') {
        const id = models.length;
        models.push(r.model);
        fresh[c] = { witness: id };
        // The new model proves every pending component in it.
        for (const x of r.model) if (!fresh[x]) fresh[x] = { witness: id };
      } else fresh[c] = r.status === 'unsat' ? { witness: -1, why: r.why } : { witness: -2 };
    }
  }
  e.status = fresh;
  e.models = models;
}

function toMask(n: number, model: Int32Array): Uint8Array {
  const mask = new Uint8Array(n);
  for (const x of model) mask[x] = 1;
  return mask;
}

/** Requirements on this or an earlier pane that the chosen components do not meet yet. */
function unmetGates(catalog: Catalog, c: number, chosen: Uint8Array): number[] {
  const out: number[] = [];
  const pane = catalog.components[c].pane;
  for (const k of catalog.triggeredBy[c]) {
    const rule = catalog.constraints[k];
    if (rule.kind === 'none_of') continue;
    let now = 0;
    let processed = 0;
    let later = 0;
    for (const x of rule.items) {
      if (catalog.components[x].pane <= pane) {
        processed++;
        now += chosen[x];
      } else later++;
    }
    const ok =
      rule.kind === 'all_of' ? now === processed : rule.kind === 'one_of' ? now === 1 || (now === 0 && later > 0) : now >= 1 || (now === 0 && later > 0);
    if (!ok && processed + later > 0) out.push(k);
  }
  return out;
}

export function state(catalog: Catalog, selectionNames: readonly string[], options: StateOptions = {}): WizardState {
  const budget = options.budget ?? 5_000;
  const { indices, findings } = resolveSelection(catalog, selectionNames);
  findings.push(...validateIndices(catalog, indices));
  const e = engineFor(catalog);
  refresh(e, indices, budget);

  const { components } = catalog;
  const n = components.length;
  const chosen = new Uint8Array(n);
  for (const c of indices) chosen[c] = 1;
  const tested = testedWith(catalog, indices);

  const blocked = e.baseOk ? undefined : e.baseWhy ? render(catalog, e.baseWhy) : 'the search ran out of budget';
  const out: ComponentState[] = new Array(n);
  const needRemovalFix: number[] = [];
  for (let c = 0; c < n; c++) {
    const comp = components[c];
    const checked = chosen[c] === 1;
    const reasons: string[] = [];
    const fix: string[] = [];
    let deadEnd = false;
    if (!checked) {
      for (const y of catalog.conflicts[c]) if (chosen[y]) reasons.push(pairText(catalog, c, y, y));
      if (reasons.length > 0) needRemovalFix.push(c);
      const status = e.status[c];
      if (reasons.length === 0 && !e.baseOk && status.witness === -1) {
        // Nothing can be completed until the selection itself is fixed.
        deadEnd = true;
        reasons.push(`the current selection cannot be completed: ${blocked}`);
        needRemovalFix.push(c);
      } else if (reasons.length === 0 && e.baseOk && status.witness === -1) {
        deadEnd = true;
        reasons.push(status.why ? explainDeadEnd(catalog, c, status.why) : `${nameOf(catalog, c)} cannot be chosen with the current selection`);
        needRemovalFix.push(c);
      }
      if (reasons.length === 0) {
        const gates = unmetGates(catalog, c, chosen);
        for (const k of gates) reasons.push(`${describeRule(catalog, k)}, which is not chosen yet`);
        if (gates.length > 0 && status.witness >= 0) {
          const witness = e.models[status.witness];
          const add = new Set<number>();
          for (const k of gates) for (const x of catalog.constraints[k].items) if (!chosen[x] && contains(witness, x) && components[x].pane <= comp.pane) add.add(x);
          for (const x of add) fix.push(`also choose ${nameOf(catalog, x)}`);
        }
      }
    }
    const others = indices.length - (checked ? 1 : 0);
    const untested: string[] = [];
    for (let i = 0; i < indices.length; i++) if (indices[i] !== c && !tested[i][c]) untested.push(components[indices[i]].name);
    const enabled = checked || reasons.length === 0;
    out[c] = {
      name: comp.name,
      type: comp.type,
      group: comp.group,
      label: typeof comp.source.label === 'string' ? comp.source.label : undefined,
      checked,
      enabled,
      green: enabled && others > 0 && untested.length === 0,
      untested,
      deadEnd,
      reasons,
      fix,
    };
  }
  if (options.fixes !== false) removalFixes(e, indices, needRemovalFix, out, budget);
  const valid = !findings.some((f) => f.severity === 'error');
  return {
    valid,
    completable: e.baseOk,
    blocked,
    findings,
    components: out,
  };
}

/** For each chosen x, which components list x as compatible or are listed by it (symmetric). */
function testedWith(catalog: Catalog, indices: readonly number[]): Uint8Array[] {
  const n = catalog.components.length;
  return indices.map((x) => {
    const mark = new Uint8Array(n);
    for (const p of catalog.matchedBy[x]) for (const use of catalog.patterns[p].usedBy) if (use.list === 'compatible') mark[use.component] = 1;
    for (const p of catalog.components[x].compatible) for (const y of catalog.patterns[p].expansion) mark[y] = 1;
    return mark;
  });
}

/** "unselect Y" for the blocked components that become possible when one chosen Y goes. */
function removalFixes(e: Engine, selection: number[], targets: number[], out: ComponentState[], budget: number): void {
  if (targets.length === 0 || selection.length === 0) return;
  const { catalog, helper } = e;
  const open = new Set(targets);
  for (const y of selection) {
    if (open.size === 0) break;
    if (!helper.assume(selection.filter((x) => x !== y), false)) continue;
    for (const c of [...open]) {
      const r = helper.solve([c], { budget: Math.min(budget, 500) });
      if (r.status === 'sat') {
        out[c].fix.push(`unselect ${nameOf(catalog, y)}`);
        open.delete(c);
      }
    }
  }
  helper.reset();
}
