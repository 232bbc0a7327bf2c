/**
 * Deep merge with Nailgun's `dict_merge(a, b)` semantics: mappings merge key by key, `b` wins, and
 * anything that is not a mapping on both sides (lists included) is replaced, never concatenated.
 * Inputs are never mutated: YAML aliases make one parsed object appear in several places.
 */
import { copyPositions } from '../positions.js';

export type Mapping = Record<string, unknown>;

export const isMapping = (value: unknown): value is Mapping =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A structural copy that keeps the source positions of every container. */
export function cloneValue<T>(value: T): T {
  if (Array.isArray(value)) {
    const out = value.map((item) => cloneValue(item));
    copyPositions(value, out);
    return out as T;
  }
  if (isMapping(value)) {
    const out: Mapping = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneValue(v);
    copyPositions(value, out);
    return out as T;
  }
  return value;
}

export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isMapping(base) || !isMapping(over)) return cloneValue(over);
  return mergeInto(cloneValue(base), over);
}

/**
 * `over` merged into `out`, a copy made for this merge: its own mappings are copies too, merged in
 * place rather than copied again at each level (a fixture record extending another copied each
 * nested mapping once per level of depth).
 */
function mergeInto(out: Mapping, over: Mapping): Mapping {
  for (const [k, v] of Object.entries(over)) {
    if (k in out && isMapping(out[k]) && isMapping(v)) out[k] = Object.prototype.hasOwnProperty.call(out, k) ? mergeInto(out[k] as Mapping, v) : deepMerge(out[k], v);
    else out[k] = cloneValue(v);
  }
  // The overriding record is the one a user edits, so its positions are the useful ones.
  copyPositions(over, out);
  return out;
}
