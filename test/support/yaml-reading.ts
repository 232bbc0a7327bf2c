/**
 * Compares two readings of the same YAML: the same data (scalars with Object.is, keys in the same
 * order, the same object wherever one was shared by an alias) and the same recorded positions for
 * every container, key and value. Answers the first difference, in words, or undefined.
 */
import { keyPositionOf, positionOf } from '../../src/core/positions.js';

export function readingDifference(a: unknown, b: unknown, path = ''): string | undefined {
  return compare(a, b, path, new Map());
}

const at = (p: unknown) => JSON.stringify(p);

function compare(a: unknown, b: unknown, path: string, pairs: Map<object, object>): string | undefined {
  if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') {
    return Object.is(a, b) ? undefined : `${path || '/'}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`;
  }
  // A value reached twice (an alias) must be the same object on both sides.
  const paired = pairs.get(a);
  if (paired !== undefined) return paired === b ? undefined : `${path}: an alias is shared on one side only`;
  pairs.set(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return `${path || '/'}: a list against a mapping`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0000') !== kb.join('\u0000')) return `${path || '/'}: keys ${JSON.stringify(ka)} against ${JSON.stringify(kb)}`;
  if (at(positionOf(a)) !== at(positionOf(b))) return `${path || '/'}: placed at ${at(positionOf(a))} against ${at(positionOf(b))}`;
  for (const k of ka) {
    const key = Array.isArray(a) ? Number(k) : k;
    const here = `${path}/${k}`;
    if (at(positionOf(a, key)) !== at(positionOf(b, key))) return `${here}: value at ${at(positionOf(a, key))} against ${at(positionOf(b, key))}`;
    if (!Array.isArray(a) && at(keyPositionOf(a, k)) !== at(keyPositionOf(b, k))) {
      return `${here}: key at ${at(keyPositionOf(a, k))} against ${at(keyPositionOf(b, k))}`;
    }
    const inner = compare((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], here, pairs);
    if (inner) return inner;
  }
  return undefined;
}
