/**
 * "Also choose X": which unchosen items of a component's unmet requirements (on its pane or an
 * earlier one) to name, so that choosing them and the component keeps a valid completion.
 *
 * The answer is canonical: a function of the catalog, the selection and the component alone, never
 * of the proof the engine happened to find for the component (which depends on what was asked of
 * it before; a server shares one engine per catalog across users, and one user's clicks changed
 * the fix another saw). Requirements are taken in the catalog's order: an all_of names every
 * unchosen item (each is in every completion with the component); any other names its first item,
 * in catalog order, that can be chosen with the component and the items named so far. The
 * component's own proof is only a shortcut: when it contains the candidate and the items named so
 * far, they can be chosen together without asking the solver.
 */
import { sortedHas, type Catalog } from './catalog.js';
import type { GateShape } from './gates.js';

/** Made once a click and asked of every component with unmet requirements (no closures per component). */
export interface AlsoChooseQuestions {
  chosen: (x: number) => boolean;
  /** Is `x` in the valid selection already proving `c` choosable? (A shortcut: false is always safe.) */
  inProof: (c: number, x: number) => boolean;
  /** Can the selection plus `extra` be completed? (False when the solver could not tell within its budget.) */
  completable: (extra: readonly number[]) => boolean;
}

/** The items to name for component `c` and its unmet gates `gates[0..g)`, written into `out` (from 0); returns how many. */
export function alsoChooseItems(catalog: Catalog, shape: GateShape, c: number, gates: readonly number[], g: number, q: AlsoChooseQuestions, out: number[]): number {
  const { constraints } = catalog;
  const panes = shape.pane;
  const pane = panes[c];
  let k = 0;
  for (let j = 0; j < g; j++) {
    const rule = gates[j];
    const { items } = constraints[rule];
    if (shape.test[rule] === 1) {
      for (let i = 0; i < items.length; i++) {
        const x = items[i];
        if (!q.chosen(x) && panes[x] <= pane && !among(out, k, x)) out[k++] = x;
      }
      continue;
    }
    // One item meets it: one named for an earlier requirement may already (no chosen one does:
    // it is unmet, and a one_of with two chosen makes the component a dead end, not asked here).
    let met = false;
    for (let i = 0; i < k && !met; i++) met = sortedHas(items, out[i]);
    if (met) continue;
    for (let i = 0; i < items.length; i++) {
      const x = items[i];
      if (q.chosen(x) || panes[x] > pane) continue;
      out[k] = x;
      if (allInProof(q, c, out, k + 1) || q.completable(withComponent(c, out, k + 1))) {
        k++;
        break;
      }
    }
  }
  return k;
}

function allInProof(q: AlsoChooseQuestions, c: number, xs: readonly number[], k: number): boolean {
  for (let i = 0; i < k; i++) if (!q.inProof(c, xs[i])) return false;
  return true;
}

function withComponent(c: number, xs: readonly number[], k: number): number[] {
  const extra = [c];
  for (let i = 0; i < k; i++) extra.push(xs[i]);
  return extra;
}

/** Is `x` among the first `k` of `ids`? */
function among(ids: readonly number[], k: number, x: number): boolean {
  for (let i = 0; i < k; i++) if (ids[i] === x) return true;
  return false;
}
