/**
 * The two ways plugin data is combined: the files matched by one glob (`graphs/*.yaml`), and a
 * release over its `base_release_path` template. Both keep the positions of every value, so a
 * finding about merged data still names the file and line it came from.
 */
import { keyPositionOf, positionOf, recordContainer } from '../../core/positions.js';

export const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A new mapping whose positions start as a copy of `like`'s (so it can be changed apart from it). */
export function mappingLike(like: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const self = positionOf(like);
  if (self) recordContainer(out, self);
  return out;
}

/** Put `value` under `key` in `target`, with the key and value positions taken from `from[fromKey]`. */
export function putWithPosition(target: Record<string, unknown>, key: string, value: unknown, from: unknown, fromKey: string): void {
  setOwn(target, key, value);
  const keyPos = keyPositionOf(from, fromKey);
  const valuePos = positionOf(from, fromKey);
  const anchor = positionOf(target) ?? keyPos ?? valuePos;
  if (!anchor) return;
  const entry = recordContainer(target, anchor);
  if (keyPos) entry.keys.set(key, keyPos);
  // A loaded file's own root position is more useful than the `_path` line for its contents.
  const inner = positionOf(value);
  const at = inner ?? valuePos;
  if (at) entry.values.set(key, at);
}

export type GlobMerge =
  | { ok: true; value: unknown }
  | { ok: false; lists: string[]; mappings: string[]; scalars: string[] };

/**
 * Merge the parsed roots of the files one glob matched, in file order: all lists are
 * concatenated, all mappings merged (a later file's key replaces an earlier one), and mixing the
 * two is refused (the design says the loader fails). Empty files (null) add nothing.
 */
export function mergeGlobRoots(roots: ReadonlyArray<{ file: string; value: unknown }>): GlobMerge {
  const present = roots.filter((r) => r.value !== null && r.value !== undefined);
  const lists = present.filter((r) => Array.isArray(r.value)).map((r) => r.file);
  const mappings = present.filter((r) => isMapping(r.value)).map((r) => r.file);
  const scalars = present.filter((r) => !Array.isArray(r.value) && !isMapping(r.value)).map((r) => r.file);
  const kinds = [lists, mappings, scalars].filter((k) => k.length > 0).length;
  if (kinds > 1 || scalars.length > 1) return { ok: false, lists, mappings, scalars };
  if (present.length === 0) return { ok: true, value: null };
  if (scalars.length === 1) return { ok: true, value: present[0].value };
  if (lists.length > 0) {
    const out: unknown[] = [];
    const entry = recordContainer(out, positionOf(present[0].value) ?? { file: present[0].file, line: 1, column: 1 });
    for (const r of present) {
      (r.value as unknown[]).forEach((item, i) => {
        const at = positionOf(r.value, i);
        if (at) entry.values.set(out.length, at);
        out.push(item);
      });
    }
    return { ok: true, value: out };
  }
  const out = mappingLike(present[0].value);
  for (const r of present) for (const key of Object.keys(r.value as object)) putWithPosition(out, key, (r.value as Record<string, unknown>)[key], r.value, key);
  return { ok: true, value: out };
}

/**
 * `base` overridden by `over`, key by key and all the way down: where both hold a mapping the two
 * are merged; anything else in `over` (a list, a scalar, null) replaces the base's value.
 */
export function deepOverride(base: unknown, over: unknown): unknown {
  if (!isMapping(base) || !isMapping(over)) return over === undefined ? base : over;
  const out = mappingLike(over);
  for (const key of Object.keys(base)) putWithPosition(out, key, base[key], base, key);
  for (const key of Object.keys(over)) {
    const merged = key in base && isMapping(base[key]) && isMapping(over[key]) ? deepOverride(base[key], over[key]) : over[key];
    putWithPosition(out, key, merged, over, key);
  }
  return out;
}
