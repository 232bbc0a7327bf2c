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
import { deadEndByCore, explainDeadEnd, nameOf, render } from './explain.js';
import { DEAD, Proofs, UNKNOWN } from './proofs.js';
import { resolveSelection, validateIndices, type ComponentFinding } from './validate.js';
import { WIZARD_PANES, paneOfGroup, type ComponentGroup, type WizardPane } from './names.js';
import { NONE, chosenNow, gateShape, labelsOf, testedWith, unmetGatesInto, type GateShape } from './gates.js';
import { alsoChooseItems, type AlsoChooseQuestions } from './also-choose.js';
import { radioStates } from './radio-state.js';
import { Replacements, replacementsOf, replacingMembers } from './radio.js';
import { Clashes, Shown } from './shown.js';
import { disableMl2WithoutDrivers } from './ml2.js';

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
  /**
   * Not proved either way: the state was asked for other panes (`StateOptions.panes`). Shown as
   * disabled; ask for its pane's state before showing it.
   */
  unchecked?: true;
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
  /**
   * Prove only the components of these panes (the one the wizard shows): the others that are not
   * chosen come back `unchecked`. Every answer given is the one the whole state gives. Default:
   * every pane.
   */
  panes?: readonly WizardPane[];
}

/** Per catalog: the proofs, the radio members' proofs, and what was shown last (shown.ts). */
interface Engine {
  proofs: Proofs;
  radio?: Replacements;
  shown: Shown;
  clashes: Clashes;
  chosen: Uint8Array;
  replacing: Uint8Array;
  /** Per component, the untested positions of the selection as bits (a scratch table). */
  masks: Int32Array;
  /** Marks of the components on each set of panes asked for (at most 15 sets). */
  scopes: Map<string, Uint8Array>;
}
const engines = new WeakMap<Catalog, Engine>();

function engineFor(catalog: Catalog): Engine {
  let e = engines.get(catalog);
  if (!e) {
    const n = catalog.components.length;
    e = { proofs: new Proofs(catalog), shown: new Shown(catalog), clashes: new Clashes(n), chosen: new Uint8Array(n), replacing: new Uint8Array(n), masks: new Int32Array(n), scopes: new Map() };
    engines.set(catalog, e);
  }
  return e;
}

export function state(catalog: Catalog, selectionNames: readonly string[], options: StateOptions = {}): WizardState {
  const budget = options.budget ?? 100_000;
  const { indices, findings } = resolveSelection(catalog, selectionNames);
  findings.push(...validateIndices(catalog, indices));
  const engine = engineFor(catalog);
  const { proofs: e, shown, clashes, chosen } = engine;
  const scope = scopeOf(catalog, engine, options.panes);
  const replacing = replacementsOf(catalog, indices, replacingMembers(catalog, indices));
  e.refresh(indices, budget, [...replacing.keys()], scope);

  const { components } = catalog;
  const n = components.length;
  chosen.fill(0);
  for (const c of indices) chosen[c] = 1;
  engine.replacing.fill(0);
  for (const c of replacing.keys()) engine.replacing[c] = 1;
  const tested = testedWith(catalog, indices);
  const shape = gateShape(catalog);
  const chosenCount = chosenNow(catalog, indices);
  clashes.build(catalog, indices);

  const blocked = e.baseOk ? undefined : e.baseWhy ? render(catalog, e.baseWhy) : e.baseUnknown ? 'the search ran out of budget' : blockedByCore(catalog, indices);
  const out: ComponentState[] = new Array(n);
  const needRemovalFix: number[] = [];
  const untestedOf = untestedLists(shown, indices, tested, engine.masks);
  const labels = labelsOf(catalog);
  // Scratch lists, copied only into answers that changed (shown.ts).
  const texts: string[] = [];
  const ids: number[] = [];
  const gates: number[] = [];
  const questions: AlsoChooseQuestions = { chosen: (x) => chosen[x] === 1, inProof: (c, x) => e.inWitness(c, x), completable: (extra) => e.completable(extra, budget) };
  for (let c = 0; c < n; c++) {
    const checked = chosen[c] === 1;
    if (scope !== undefined && scope[c] === 0 && !checked) {
      out[c] = shown.unchecked(c, labels[c]);
      continue;
    }
    if (engine.replacing[c]) continue;
    // Most components have nothing to say: lists are made only for those that do, and only when they changed.
    let reasons = NONE;
    let fix = NONE;
    let deadEnd = false;
    if (!checked) {
      if (clashes.has(c)) {
        reasons = shown.clashReasons(c, ids, clashes.into(c, ids));
        needRemovalFix.push(c);
      } else if (!e.baseOk) {
        // Nothing can be completed until the selection itself is fixed.
        deadEnd = !e.baseUnknown;
        texts[0] = `the current selection cannot be completed: ${blocked}`;
        reasons = shown.reasons(c, texts, 1);
        needRemovalFix.push(c);
      } else if (e.witness[c] === DEAD) {
        deadEnd = true;
        const d = e.dead.get(c);
        if (d) d.text ??= d.why ? explainDeadEnd(catalog, c, d.why) : deadEndByCore(catalog, c, d.core);
        texts[0] = d?.text ?? `${nameOf(catalog, c)} cannot be chosen with the current selection`;
        reasons = shown.reasons(c, texts, 1);
        needRemovalFix.push(c);
      } else if (e.witness[c] === UNKNOWN) {
        // Never shown as enabled without a proof.
        texts[0] = `${nameOf(catalog, c)} could not be checked within the search budget`;
        reasons = shown.reasons(c, texts, 1);
      } else {
        const g = unmetGatesInto(catalog, c, shape, chosenCount, gates);
        if (g > 0) {
          for (let i = 0; i < g; i++) texts[i] = shown.notChosenYet(gates[i]);
          reasons = shown.reasons(c, texts, g);
          fix = e.choosable(c) ? alsoChoose(e, shown, c, gates, g, questions, shape, ids, texts) : NONE;
        }
      }
    }
    const untested = untestedOf(c);
    const enabled = checked || reasons.length === 0;
    out[c] = shown.answer(c, checked, enabled, enabled && indices.length > (checked ? 1 : 0) && untested.length === 0, untested, deadEnd, reasons, fix, labels[c]);
  }
  const radioShown = scope === undefined ? replacing : new Map([...replacing].filter(([c]) => scope[c] === 1));
  if (radioShown.size > 0) {
    engine.radio ??= new Replacements(catalog);
    radioStates(catalog, engine.radio, radioShown, { indices, tested, clashes: (c) => clashes.of(c), budget, fixes: options.fixes !== false, prefer: e.baseModel, previously: (c, kept) => e.previously(c, kept) }, shown, out);
  }
  disableMl2WithoutDrivers(catalog, out, indices, (c) => replacing.get(c)?.kept, shape);
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

/** Marks of the components on `panes` (undefined: every pane, as asked without). */
function scopeOf(catalog: Catalog, engine: Engine, panes: readonly WizardPane[] | undefined): Uint8Array | undefined {
  if (panes === undefined) return undefined;
  const asked = WIZARD_PANES.filter((p) => panes.includes(p));
  if (asked.length === WIZARD_PANES.length) return undefined;
  const key = asked.join(',');
  let marks = engine.scopes.get(key);
  if (!marks) {
    const { components } = catalog;
    marks = new Uint8Array(components.length);
    for (let c = 0; c < components.length; c++) if (asked.includes(paneOfGroup(components[c].group))) marks[c] = 1;
    engine.scopes.set(key, marks);
  }
  return marks;
}

/**
 * "also choose X" for the unmet gates of `c` (also-choose.ts: canonical, whatever proof the engine
 * found for `c`). `ids` and `texts` are scratch lists.
 */
function alsoChoose(e: Proofs, shown: Shown, c: number, gates: readonly number[], g: number, q: AlsoChooseQuestions, shape: GateShape, ids: number[], texts: string[]): string[] {
  const k = alsoChooseItems(e.catalog, shape, c, gates, g, q, ids);
  for (let i = 0; i < k; i++) texts[i] = shown.alsoChoose(ids[i]);
  return shown.fix(c, texts, k);
}

/**
 * The chosen components each component was not tested with. Components share a handful of
 * distinct lists (which of the few chosen ones list them): the untested positions of every
 * component are gathered into bit masks in one pass per chosen component (tight loops over typed
 * arrays, rather than a call and a Map lookup per component), and each list is made once per
 * mask; the lists themselves are shared across clicks (shown.ts).
 */
function untestedLists(shown: Shown, indices: readonly number[], tested: readonly Uint8Array[], masks: Int32Array): (c: number) => string[] {
  const k = indices.length;
  if (k > 30) {
    return (c) => {
      const missing = indices.filter((x, i) => x !== c && !tested[i][c]);
      return missing.length > 0 ? shown.untested(missing) : NONE;
    };
  }
  masks.fill(0);
  const n = masks.length;
  for (let i = 0; i < k; i++) {
    const mark = tested[i];
    const bit = 1 << i;
    for (let c = 0; c < n; c++) if (!mark[c]) masks[c] |= bit;
    masks[indices[i]] &= ~bit;
  }
  // Masks index a plain array while there are few chosen (2^k slots); a Map beyond.
  const small = k <= 12;
  const byMask: string[][] = [];
  const byMaskMap = new Map<number, string[]>();
  return (c) => {
    const mask = masks[c];
    if (mask === 0) return NONE;
    let list = small ? byMask[mask] : byMaskMap.get(mask);
    if (!list) {
      list = shown.untested(indices.filter((_, i) => mask & (1 << i)));
      if (small) byMask[mask] = list;
      else byMaskMap.set(mask, list);
    }
    return list;
  };
}

/** "unselect Y" for the blocked components that become possible when one chosen Y goes. */
function removalFixes(e: Proofs, targets: number[], out: ComponentState[], budget: number): void {
  // A new object: the answers are frozen and shared with later clicks (shown.ts).
  for (const [c, y] of e.freedBy(targets, budget)) out[c] = { ...out[c], fix: [...out[c].fix, `unselect ${nameOf(e.catalog, y)}`] };
}

function blockedByCore(catalog: Catalog, indices: number[]): string {
  return indices.length === 0 ? 'no selection of these components satisfies every rule' : `no valid selection contains ${indices.map((x) => nameOf(catalog, x)).join(', ')}`;
}
