/**
 * Witnesses written as changes: a valid selection kept as base − dropped + added against a base
 * model, which is what the repair finds, what a rebase moves (rebase.ts) and what "also choose"
 * fixes read — no model is built.
 */
import { sortedHas } from './catalog.js';

export interface Change {
  base: Int32Array;
  added: readonly number[];
  dropped: readonly number[];
}
export const NOTHING: readonly number[] = Object.freeze([]);

/** `model` written as a change against `base` (both ascending). */
export function changeOf(base: Int32Array, model: Int32Array): Change {
  const added: number[] = [];
  const dropped: number[] = [];
  let i = 0;
  let j = 0;
  while (i < base.length || j < model.length) {
    if (j >= model.length || (i < base.length && base[i] < model[j])) dropped.push(base[i++]);
    else if (i >= base.length || model[j] < base[i]) added.push(model[j++]);
    else {
      i++;
      j++;
    }
  }
  return { base, added, dropped: dropped.length === 0 ? NOTHING : dropped };
}

/** Is every one of `xs` in base − dropped + added? */
export function inChangeAll(change: Change, xs: readonly number[]): boolean {
  for (let i = 0; i < xs.length; i++) if (!inChange(change, xs[i])) return false;
  return true;
}

/** Is `x` in base − dropped + added? */
export function inChange(change: Change, x: number): boolean {
  return change.added.includes(x) || (contains(change.base, x) && !change.dropped.includes(x));
}

/** Is `x` in the ascending `model`? (The catalog's binary search, under the witnesses' name.) */
export const contains: (model: Int32Array, x: number) => boolean = sortedHas;

/** Is every one of `xs` in the ascending `model`? */
export function containsAll(model: Int32Array, xs: readonly number[]): boolean {
  for (const x of xs) if (!contains(model, x)) return false;
  return true;
}
