/**
 * The wizard's state for a selection: for every component, checked or not, enabled or not and
 * why, the green light, and the smallest change that would enable it.
 *
 * An unchecked component is disabled when (1) it is incompatible with a chosen one, (2) its
 * `requires` on this or an earlier pane are not met yet (Fuel's rule: choose vCenter, then DVS
 * becomes available; requirements on later panes are asked for there), or (3) choosing it
 * would lead into a dead end: no completion satisfies every rule.
 *
 * (3) is satisfiability, answered with a proof for every component by `Proofs` (proofs.ts): a
 * model (valid selection) containing it, found by reuse, greedy repair or the clause-learning
 * solver, or a refutation; an answer the solver could not reach within its budget is shown as
 * disabled ("could not be checked"), never as enabled.
 */
import type { Catalog } from './catalog.js';
import { explainDeadEnd, describeRule, nameOf, pairText, render } from './explain.js';
import { DEAD, Proofs, UNKNOWN, contains } from './proofs.js';
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
  /** Conflict budget of each complete search (default 100,000); past it the answer is "could not be checked". */
  budget?: number;
}

const engines = new WeakMap<Catalog, Proofs>();

function proofsFor(catalog: Catalog): Proofs {
  let e = engines.get(catalog);
  if (!e) {
    e = new Proofs(catalog);
    engines.set(catalog, e);
  }
  return e;
}

/**
 * Most components have no reason, no fix and the same untested list: they share one frozen
 * array instead of allocating three per component per click (at 10,000 components the garbage
 * collector was a third of a click).
 */
const NONE: string[] = Object.freeze([]) as unknown as string[];
const NO_RULES: number[] = Object.freeze([]) as unknown as number[];

/**
 * The pane split of every requirement, once per catalog: how many of its items sit on the
 * trigger's pane or an earlier one (asked for now) and how many on later panes (asked there).
 */
interface GateShape {
  now: Int32Array;
  later: Int32Array;
}
const gateShapes = new WeakMap<Catalog, GateShape>();

function gateShape(catalog: Catalog): GateShape {
  let shape = gateShapes.get(catalog);
  if (!shape) {
    const m = catalog.constraints.length;
    shape = { now: new Int32Array(m), later: new Int32Array(m) };
    for (const rule of catalog.constraints) {
      if (rule.trigger < 0) continue;
      const pane = catalog.components[rule.trigger].pane;
      for (const x of rule.items) {
        if (catalog.components[x].pane <= pane) shape.now[rule.id]++;
        else shape.later[rule.id]++;
      }
    }
    gateShapes.set(catalog, shape);
  }
  return shape;
}

/** How many chosen components each rule counts among its items on the trigger's pane or earlier. */
function chosenNow(catalog: Catalog, indices: readonly number[]): Int32Array {
  const counts = new Int32Array(catalog.constraints.length);
  for (const y of indices) {
    const pane = catalog.components[y].pane;
    for (const k of catalog.occurrences[y]) {
      const t = catalog.constraints[k].trigger;
      if (t >= 0 && pane <= catalog.components[t].pane) counts[k]++;
    }
  }
  return counts;
}

/** Requirements on this or an earlier pane that the chosen components do not meet yet. */
function unmetGates(catalog: Catalog, c: number, shape: GateShape, chosenCount: Int32Array): number[] {
  const rules = catalog.triggeredBy[c];
  if (rules.length === 0) return NO_RULES;
  let out: number[] | undefined;
  for (const k of rules) {
    const rule = catalog.constraints[k];
    if (rule.kind === 'none_of') continue;
    const now = chosenCount[k];
    const processed = shape.now[k];
    const later = shape.later[k];
    const ok =
      rule.kind === 'all_of' ? now === processed : rule.kind === 'one_of' ? now === 1 || (now === 0 && later > 0) : now >= 1 || (now === 0 && later > 0);
    if (!ok && processed + later > 0) (out ??= []).push(k);
  }
  return out ?? NO_RULES;
}

export function state(catalog: Catalog, selectionNames: readonly string[], options: StateOptions = {}): WizardState {
  const budget = options.budget ?? 100_000;
  const { indices, findings } = resolveSelection(catalog, selectionNames);
  findings.push(...validateIndices(catalog, indices));
  const e = proofsFor(catalog);
  e.refresh(indices, budget);

  const { components } = catalog;
  const n = components.length;
  const chosen = new Uint8Array(n);
  for (const c of indices) chosen[c] = 1;
  const tested = testedWith(catalog, indices);
  const shape = gateShape(catalog);
  const chosenCount = chosenNow(catalog, indices);
  // Clashes with chosen components, gathered from the chosen side (few) rather than per component.
  const clashes = new Map<number, number[]>();
  for (const y of indices) {
    for (const c of catalog.conflicts[y]) {
      const list = clashes.get(c);
      if (list) list.push(y);
      else clashes.set(c, [y]);
    }
  }

  const chosenNames = Object.freeze(indices.map((x) => components[x].name)) as unknown as string[];
  const blocked = e.baseOk ? undefined : e.baseWhy ? render(catalog, e.baseWhy) : e.baseUnknown ? 'the search ran out of budget' : blockedByCore(catalog, indices);
  const out: ComponentState[] = new Array(n);
  const needRemovalFix: number[] = [];
  for (let c = 0; c < n; c++) {
    const comp = components[c];
    const checked = chosen[c] === 1;
    let reasons: string[] = [];
    let fix: string[] = [];
    let deadEnd = false;
    if (!checked) {
      for (const y of clashes.get(c) ?? NO_RULES) reasons.push(pairText(catalog, c, y, y));
      if (reasons.length > 0) needRemovalFix.push(c);
      const witness = e.witness[c];
      if (reasons.length === 0 && !e.baseOk) {
        // Nothing can be completed until the selection itself is fixed.
        deadEnd = !e.baseUnknown;
        reasons.push(`the current selection cannot be completed: ${blocked}`);
        needRemovalFix.push(c);
      } else if (reasons.length === 0 && witness === DEAD) {
        deadEnd = true;
        const d = e.dead.get(c);
        if (d) d.text ??= d.why ? explainDeadEnd(catalog, c, d.why) : deadEndByCore(catalog, c, d.core);
        reasons.push(d?.text ?? `${nameOf(catalog, c)} cannot be chosen with the current selection`);
        needRemovalFix.push(c);
      } else if (reasons.length === 0 && witness === UNKNOWN) {
        // Never shown as enabled without a proof.
        reasons.push(`${nameOf(catalog, c)} could not be checked within the search budget`);
      }
      if (reasons.length === 0) {
        const gates = unmetGates(catalog, c, shape, chosenCount);
        for (const k of gates) reasons.push(`${describeRule(catalog, k)}, which is not chosen yet`);
        if (gates.length > 0 && witness >= 0) {
          const model = e.models[witness];
          const add = new Set<number>();
          for (const k of gates) for (const x of catalog.constraints[k].items) if (!chosen[x] && contains(model, x) && components[x].pane <= comp.pane) add.add(x);
          for (const x of add) fix.push(`also choose ${nameOf(catalog, x)}`);
        }
      }
    }
    const others = indices.length - (checked ? 1 : 0);
    let testedCount = 0;
    for (let i = 0; i < indices.length; i++) if (indices[i] !== c && tested[i][c]) testedCount++;
    let untested = NONE;
    if (!checked && testedCount === 0) untested = chosenNames;
    else if (testedCount < others) {
      untested = [];
      for (let i = 0; i < indices.length; i++) if (indices[i] !== c && !tested[i][c]) untested.push(components[indices[i]].name);
    }
    if (reasons.length === 0) reasons = NONE;
    if (fix.length === 0) fix = NONE;
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
  if (options.fixes !== false) removalFixes(e, needRemovalFix, out, budget);
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
function removalFixes(e: Proofs, targets: number[], out: ComponentState[], budget: number): void {
  for (const [c, y] of e.freedBy(targets, budget)) out[c].fix = [...out[c].fix, `unselect ${nameOf(e.catalog, y)}`];
}

/** Without the explaining solver's chain: the chosen components the dead end rests on. */
function deadEndByCore(catalog: Catalog, c: number, core: number[]): string {
  if (core.length === 0) return `${nameOf(catalog, c)} cannot be part of any valid selection of this release and its plugins`;
  return `no valid selection contains ${nameOf(catalog, c)} together with ${core.map((x) => nameOf(catalog, x)).join(' and ')} (which you chose)`;
}

function blockedByCore(catalog: Catalog, indices: number[]): string {
  return indices.length === 0 ? 'no selection of these components satisfies every rule' : `no valid selection contains ${indices.map((x) => nameOf(catalog, x)).join(', ')}`;
}
