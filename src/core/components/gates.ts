/**
 * What the wizard shows besides satisfiability: requirements on this or an earlier pane that are
 * not chosen yet (Fuel's rule), and which chosen components each component was tested with (the
 * green light).
 */
import type { Catalog } from './catalog.js';

/**
 * Most components have no reason, no fix and the same untested list: they share one frozen
 * array instead of allocating three per component per click (at 10,000 components the garbage
 * collector was a third of a click).
 */
export const NONE: string[] = Object.freeze([]) as unknown as string[];
export const NO_RULES: number[] = Object.freeze([]) as unknown as number[];

/**
 * The pane split of every requirement, once per catalog: how many of its items sit on the
 * trigger's pane or an earlier one (asked for now) and how many on later panes (asked there).
 */
export interface GateShape {
  now: Int32Array;
  later: Int32Array;
  /** How each rule gates its trigger: 0 never (none_of, or no items), 1 all_of, 2 one_of, 3 at least one. */
  test: Int8Array;
  /** Components with at least one gating rule (most have none, and every click asks all of them). */
  gated: Uint8Array;
  /** Each component's pane, read in loops over a thousand components a click (no component object loaded). */
  pane: Int32Array;
}
const gateShapes = new WeakMap<Catalog, GateShape>();

export function gateShape(catalog: Catalog): GateShape {
  let shape = gateShapes.get(catalog);
  if (!shape) {
    const m = catalog.constraints.length;
    shape = { now: new Int32Array(m), later: new Int32Array(m), test: new Int8Array(m), gated: new Uint8Array(catalog.components.length), pane: Int32Array.from(catalog.components, (c) => c.pane) };
    for (const rule of catalog.constraints) {
      if (rule.trigger < 0) continue;
      const pane = catalog.components[rule.trigger].pane;
      for (const x of rule.items) {
        if (catalog.components[x].pane <= pane) shape.now[rule.id]++;
        else shape.later[rule.id]++;
      }
      // ML2's need of a driver never gates ML2: its drivers wait for ML2 on the same pane.
      if (rule.kind === 'none_of' || rule.kind === 'ml2-drivers' || shape.now[rule.id] + shape.later[rule.id] === 0) continue;
      shape.test[rule.id] = rule.kind === 'all_of' ? 1 : rule.kind === 'one_of' ? 2 : 3;
      shape.gated[rule.trigger] = 1;
    }
    gateShapes.set(catalog, shape);
  }
  return shape;
}

/** How many chosen components each rule counts among its items on the trigger's pane or earlier. */
export function chosenNow(catalog: Catalog, indices: readonly number[]): Int32Array {
  const counts = new Int32Array(catalog.constraints.length);
  for (const y of indices) {
    const pane = catalog.components[y].pane;
    const ks = catalog.occurrences[y];
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i];
      const t = catalog.constraints[k].trigger;
      if (t >= 0 && pane <= catalog.components[t].pane) counts[k]++;
    }
  }
  return counts;
}

/** Requirements on this or an earlier pane that the chosen components do not meet yet. */
export function unmetGates(catalog: Catalog, c: number, shape: GateShape, chosenCount: Int32Array): number[] {
  const out: number[] = [];
  return unmetGatesInto(catalog, c, shape, chosenCount, out) === 0 ? NO_RULES : out;
}

/** `unmetGates` written into `out` (from 0), for a caller asking of every component; returns how many. */
export function unmetGatesInto(catalog: Catalog, c: number, shape: GateShape, chosenCount: Int32Array, out: number[]): number {
  if (!shape.gated[c]) return 0;
  const rules = catalog.triggeredBy[c];
  let n = 0;
  for (let i = 0; i < rules.length; i++) {
    const k = rules[i];
    const test = shape.test[k];
    if (test === 0) continue;
    const now = chosenCount[k];
    const ok = test === 1 ? now === shape.now[k] : test === 2 ? now === 1 || (now === 0 && shape.later[k] > 0) : now >= 1 || shape.later[k] > 0;
    if (!ok) out[n++] = k;
  }
  return n;
}

/** For each chosen x, which components list x as compatible or are listed by it (symmetric). */
export function testedWith(catalog: Catalog, indices: readonly number[]): Uint8Array[] {
  let marks = testedMarks.get(catalog);
  if (!marks) testedMarks.set(catalog, (marks = new Map()));
  return indices.map((x) => {
    // It depends on the catalog alone, and a walk asks for the same few again after every click.
    let mark = (marks as Map<number, Uint8Array>).get(x);
    if (!mark) {
      mark = new Uint8Array(catalog.components.length);
      for (const p of catalog.matchedBy[x]) for (const use of catalog.patterns[p].usedBy) if (use.list === 'compatible') mark[use.component] = 1;
      for (const p of catalog.components[x].compatible) {
        const ys = catalog.patterns[p].expansion;
        for (let i = 0; i < ys.length; i++) mark[ys[i]] = 1;
      }
      (marks as Map<number, Uint8Array>).set(x, mark);
    }
    return mark;
  });
}
const testedMarks = new WeakMap<Catalog, Map<number, Uint8Array>>();

const labelCache = new WeakMap<Catalog, Array<string | undefined>>();

/** Labels read once per catalog: the sources differ in shape, and reading them 10,000 times a click was slow. */
export function labelsOf(catalog: Catalog): Array<string | undefined> {
  let labels = labelCache.get(catalog);
  if (!labels) {
    labels = catalog.components.map((c) => (typeof c.source.label === 'string' ? c.source.label : undefined));
    labelCache.set(catalog, labels);
  }
  return labels;
}
