/**
 * Where each value of parsed input came from. Parsed data stays plain (objects, arrays, scalars);
 * positions live beside it in a WeakMap keyed by the containing object, so any code holding the
 * data can ask "where is this key?" without the data carrying extra fields.
 */
import type { SourcePosition } from './findings.js';

interface ContainerPositions {
  self: SourcePosition;
  /** Position of each key (maps) — where a "did you mean" or duplicate-key finding points. */
  keys: Map<string, SourcePosition>;
  /** Position of each value, by key (maps) or index (sequences). */
  values: Map<string | number, SourcePosition>;
}

const positions = new WeakMap<object, ContainerPositions>();

export function recordContainer(container: object, self: SourcePosition): ContainerPositions {
  let entry = positions.get(container);
  if (!entry) {
    entry = { self, keys: new Map(), values: new Map() };
    positions.set(container, entry);
  }
  return entry;
}

/** Position of a container, or of the value under `key` in it. */
export function positionOf(container: unknown, key?: string | number): SourcePosition | undefined {
  if (container === null || typeof container !== 'object') return undefined;
  const entry = positions.get(container);
  if (!entry) return undefined;
  if (key === undefined) return entry.self;
  return entry.values.get(key) ?? entry.self;
}

/** Position of a mapping key itself (falls back to the value, then the container). */
export function keyPositionOf(container: unknown, key: string): SourcePosition | undefined {
  if (container === null || typeof container !== 'object') return undefined;
  const entry = positions.get(container);
  if (!entry) return undefined;
  return entry.keys.get(key) ?? entry.values.get(key) ?? entry.self;
}

/**
 * The most precise position known along a path from `root`: the deepest container on the path
 * that has a recorded position for the next step.
 */
export function positionAt(root: unknown, path: readonly (string | number)[]): SourcePosition | undefined {
  let best = positionOf(root);
  let node: unknown = root;
  for (const step of path) {
    if (node === null || typeof node !== 'object') break;
    const here = positionOf(node, step);
    if (here) best = here;
    node = (node as Record<string | number, unknown>)[step];
  }
  return best;
}

/** Copy the positions of one container onto another (used when data is cloned or merged). */
export function copyPositions(from: object, to: object): void {
  const entry = positions.get(from);
  if (entry && !positions.has(to)) positions.set(to, entry);
}
