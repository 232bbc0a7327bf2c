/**
 * The numbers of a catalog's rules and components as flat typed arrays, made once per catalog.
 * The solvers read a rule's trigger, bounds and size on every assignment and a component's weight
 * on every candidate; reading them from the rule objects (several shapes, with names, messages and
 * positions beside the numbers) was most of what a propagation step cost at 10,000 components.
 */
import type { Catalog } from './catalog.js';

export interface RuleTables {
  /** Per rule: its trigger (-1: always in force). */
  trigger: Int32Array;
  min: Int32Array;
  /** Per rule: its maximum (Infinity for "at least"). */
  max: Float64Array;
  /** Per rule: how many items it has. */
  size: Int32Array;
  /** Per component: its weight (lighter is tried first). */
  weight: Float64Array;
}

const made = new WeakMap<Catalog, RuleTables>();

export function ruleTables(catalog: Catalog): RuleTables {
  let t = made.get(catalog);
  if (!t) {
    const { constraints, components } = catalog;
    const m = constraints.length;
    t = { trigger: new Int32Array(m), min: new Int32Array(m), max: new Float64Array(m), size: new Int32Array(m), weight: new Float64Array(components.length) };
    for (let k = 0; k < m; k++) {
      const c = constraints[k];
      t.trigger[k] = c.trigger;
      t.min[k] = c.min;
      t.max[k] = c.max;
      t.size[k] = c.items.length;
    }
    for (let i = 0; i < components.length; i++) t.weight[i] = components[i].weight;
    made.set(catalog, t);
  }
  return t;
}
