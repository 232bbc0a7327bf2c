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
import { deadEndByCore, explainDeadEnd, describeRule, nameOf, pairText, render } from './explain.js';
import { DEAD, Proofs, UNKNOWN } from './proofs.js';
import { resolveSelection, validateIndices, type ComponentFinding } from './validate.js';
import type { ComponentGroup } from './names.js';
import { NONE, chosenNow, gateShape, labelsOf, testedWith, unmetGates } from './gates.js';
import { radioStates } from './radio-state.js';
import { Replacements, replacementsOf, replacingMembers } from './radio.js';

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
  /**
   * A radio member while a sibling is checked: the chosen components its click unselects (the
   * sibling, and what was chosen only because of it). It is judged against that selection.
   */
  replaces?: string[];
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
const radioEngines = new WeakMap<Catalog, Replacements>();

function proofsFor(catalog: Catalog): Proofs {
  let e = engines.get(catalog);
  if (!e) {
    e = new Proofs(catalog);
    engines.set(catalog, e);
  }
  return e;
}

export function state(catalog: Catalog, selectionNames: readonly string[], options: StateOptions = {}): WizardState {
  const budget = options.budget ?? 100_000;
  const { indices, findings } = resolveSelection(catalog, selectionNames);
  findings.push(...validateIndices(catalog, indices));
  const e = proofsFor(catalog);
  const replacing = replacementsOf(catalog, indices, replacingMembers(catalog, indices));
  e.refresh(indices, budget, [...replacing.keys()]);


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

  const blocked = e.baseOk ? undefined : e.baseWhy ? render(catalog, e.baseWhy) : e.baseUnknown ? 'the search ran out of budget' : blockedByCore(catalog, indices);
  const out: ComponentState[] = new Array(n);
  const needRemovalFix: number[] = [];
  const untestedOf = untestedLists(components, indices, tested);
  const labels = labelsOf(catalog);
  for (let c = 0; c < n; c++) {
    if (replacing.has(c)) continue;
    const comp = components[c];
    const checked = chosen[c] === 1;
    // Most components have nothing to say: arrays are made only for those that do.
    let reasons = NONE;
    let fix = NONE;
    let deadEnd = false;
    if (!checked) {
      const clash = clashes.get(c);
      if (clash) {
        reasons = clash.map((y) => pairText(catalog, c, y, y));
        needRemovalFix.push(c);
      } else if (!e.baseOk) {
        // Nothing can be completed until the selection itself is fixed.
        deadEnd = !e.baseUnknown;
        reasons = [`the current selection cannot be completed: ${blocked}`];
        needRemovalFix.push(c);
      } else if (e.witness[c] === DEAD) {
        deadEnd = true;
        const d = e.dead.get(c);
        if (d) d.text ??= d.why ? explainDeadEnd(catalog, c, d.why) : deadEndByCore(catalog, c, d.core);
        reasons = [d?.text ?? `${nameOf(catalog, c)} cannot be chosen with the current selection`];
        needRemovalFix.push(c);
      } else if (e.witness[c] === UNKNOWN) {
        // Never shown as enabled without a proof.
        reasons = [`${nameOf(catalog, c)} could not be checked within the search budget`];
      } else {
        const gates = unmetGates(catalog, c, shape, chosenCount);
        if (gates.length > 0) {
          reasons = gates.map((k) => `${describeRule(catalog, k)}, which is not chosen yet`);
          let also = e.fixes.get(c);
          if (!also) {
            also = NONE;
            if (e.choosable(c)) {
              let add: Set<number> | undefined;
              for (const k of gates) {
                const { items } = catalog.constraints[k];
                // The same names in the same (ascending) order either way; the shorter side is walked.
                if (items.length <= 8) {
                  for (const x of items) if (!chosen[x] && components[x].pane <= comp.pane && e.inWitness(c, x)) (add ??= new Set()).add(x);
                } else for (const x of e.witnessItems(c, items)) if (!chosen[x] && components[x].pane <= comp.pane) (add ??= new Set()).add(x);
              }
              if (add) also = Object.freeze([...add].map((x) => `also choose ${nameOf(catalog, x)}`)) as unknown as string[];
            }
            e.fixes.set(c, also);
          }
          fix = also;
        }
      }
    }
    const untested = untestedOf(c);
    const enabled = checked || reasons.length === 0;
    out[c] = {
      name: comp.name,
      type: comp.type,
      group: comp.group,
      label: labels[c],
      checked,
      enabled,
      green: enabled && indices.length > (checked ? 1 : 0) && untested.length === 0,
      untested,
      deadEnd,
      reasons,
      fix,
    };
  }
  if (replacing.size > 0) {
    let radio = radioEngines.get(catalog);
    if (!radio) radioEngines.set(catalog, (radio = new Replacements(catalog)));
    radioStates(catalog, radio, replacing, { indices, tested, clashes, budget, fixes: options.fixes !== false, prefer: e.baseModel }, out);
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

/**
 * The chosen components each component was not tested with. Components share a handful of
 * distinct lists (which of the few chosen ones list them): each list is made once per click,
 * keyed by the bit mask of the untested positions.
 */
function untestedLists(components: Catalog['components'], indices: readonly number[], tested: readonly Uint8Array[]): (c: number) => string[] {
  const lists = new Map<number, string[]>();
  const small = indices.length <= 30;
  return (c) => {
    let mask = 0;
    let missing: string[] | undefined;
    for (let i = 0; i < indices.length; i++) {
      if (indices[i] === c || tested[i][c]) continue;
      if (small) mask |= 1 << i;
      else (missing ??= []).push(components[indices[i]].name);
    }
    if (!small) return missing ?? NONE;
    if (mask === 0) return NONE;
    let list = lists.get(mask);
    if (!list) {
      list = Object.freeze(indices.filter((_, i) => mask & (1 << i)).map((x) => components[x].name)) as unknown as string[];
      lists.set(mask, list);
    }
    return list;
  };
}

/** "unselect Y" for the blocked components that become possible when one chosen Y goes. */
function removalFixes(e: Proofs, targets: number[], out: ComponentState[], budget: number): void {
  for (const [c, y] of e.freedBy(targets, budget)) out[c].fix = [...out[c].fix, `unselect ${nameOf(e.catalog, y)}`];
}

function blockedByCore(catalog: Catalog, indices: number[]): string {
  return indices.length === 0 ? 'no selection of these components satisfies every rule' : `no valid selection contains ${indices.map((x) => nameOf(catalog, x)).join(', ')}`;
}
