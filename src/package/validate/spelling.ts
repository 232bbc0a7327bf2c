/** "Did you mean": the closest known word, when it is close enough to be a likely slip. */

/** Damerau-Levenshtein distance (with transpositions), small strings only. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > 3) return Math.abs(m - n);
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => Array.from({ length: n + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}

/** Compare ignoring `_` vs `-` and case: `cross_depends` is `cross-depends` misspelt. */
const fold = (s: string) => s.toLowerCase().replace(/[-_]/g, '-');

export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const w = fold(word);
  for (const candidate of known) {
    if (candidate === word) return undefined;
    const c = fold(candidate);
    const distance = c === w ? 0.5 : editDistance(w, c);
    const limit = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
