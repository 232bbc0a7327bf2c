/** "Did you mean": the closest known word, when it is close enough to be a likely slip. */

/** Damerau-Levenshtein distance (with transpositions), small strings only. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > 3) return Math.abs(m - n);
  // Three rows of the table (two back, for transpositions) rather than all of it.
  let before = new Uint16Array(n + 1);
  let previous = new Uint16Array(n + 1);
  let row = new Uint16Array(n + 1);
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= m; i++) {
    row[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2] + 1);
      row[j] = v;
    }
    [before, previous, row] = [previous, row, before];
  }
  return previous[n];
}

/** Compare ignoring `_` vs `-` and case: `cross_depends` is `cross-depends` misspelt. */
const fold = (s: string) => s.toLowerCase().replace(/[-_]/g, '-');

/** A suggestion is looked for among at most this many names: a mapping of a million keys made each missing key cost a million edit distances. */
export const MAX_SPELLING_CANDIDATES = 2_000;

export function closest(word: string, known: readonly string[]): string | undefined {
  if (known.length > MAX_SPELLING_CANDIDATES) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  const w = fold(word);
  const limit = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  for (const candidate of known) {
    if (candidate === word) return undefined;
    // Lengths further apart than the limit cannot be within it: no distance to compute.
    if (Math.abs(candidate.length - word.length) > limit) continue;
    const c = fold(candidate);
    const distance = c === w ? 0.5 : editDistance(w, c);
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * What exists instead of a name that matches nothing: up to `max` known names, nearest first. A
 * known name is near when it is a likely slip (edit distance up to 3, `_` and `-` alike) or when
 * one name holds the other (`openstack-network` and `openstack-network-start`).
 */
export function closestNames(word: string, known: Iterable<string>, max = 3): string[] {
  // The same sets are asked about many names (a release's 232 task ids): remember per set.
  const memo = typeof known === 'object' ? (asked.get(known) ?? asked.set(known, new Map()).get(known)!) : undefined;
  const key = `${max}\0${word}`;
  const remembered = memo?.get(key);
  if (remembered) return remembered;
  const w = fold(word);
  const limit = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  const scored: Array<{ name: string; score: number }> = [];
  for (const candidate of known instanceof Set ? known : new Set(known)) {
    if (candidate === word) continue;
    const c = fold(candidate);
    // A length difference over the limit is already a distance over it: skip the table.
    const distance = c === w ? 0.5 : Math.abs(c.length - w.length) > limit ? Infinity : editDistance(w, c);
    if (distance <= limit) scored.push({ name: candidate, score: distance });
    else if (w.length >= 5 && c.length >= 5 && (c.includes(w) || w.includes(c))) scored.push({ name: candidate, score: 4 + Math.abs(c.length - w.length) / 100 });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = scored.slice(0, max).map((s) => s.name);
  memo?.set(key, names);
  return names;
}

const asked = new WeakMap<object, Map<string, string[]>>();

/** "; closest: a, b" for a message, or nothing. */
export function closestSuffix(word: string, known: Iterable<string>): string {
  const names = closestNames(word, known);
  return names.length > 0 ? `; closest: ${names.map((n) => `'${n}'`).join(', ')}` : '';
}
