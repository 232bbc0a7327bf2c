/**
 * The keys a task may carry, and the nearest known key for a misspelt one. Fuel stored unknown keys
 * silently (`_custom`), so `cross-depened-by` or `required_form` simply did nothing; we say so.
 */

/** Keys Hearth reads or knowingly carries through in `extra`. */
export const KNOWN_TASK_KEYS: ReadonlySet<string> = new Set([
  'id',
  'type',
  'version',
  'role',
  'roles',
  'groups',
  'tags',
  'requires',
  'required_for',
  'cross-depends',
  'cross_depends',
  'cross-depended-by',
  'cross_depended_by',
  'tasks',
  'parameters',
  'condition',
  'stage',
  'strategy',
  'timeout',
  'test_pre',
  'test_post',
  'refresh_on',
  'reexecute_on',
  'fault_tolerance',
  'fail_on_error',
  'skipped',
  'description',
  'task_name',
  'os-version',
  'fuel-version',
]);

/** Levenshtein distance with an early exit once it passes `limit`. */
export function editDistance(a: string, b: string, limit = 3): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (row[j] < best) best = row[j];
    }
    if (best > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length];
}

/** The known key a misspelt one most likely meant, if any is close enough to be a typo. */
export function suggestKey(key: string, known: Iterable<string> = KNOWN_TASK_KEYS): string | undefined {
  const normalised = key.toLowerCase().replace(/[-_ ]/g, '');
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // `cross_depends` vs `cross-depends` differ only in separators: treat that as distance 0.
    const d = editDistance(normalised, candidate.replace(/[-_]/g, ''), 3);
    const allowed = candidate.length <= 5 ? 1 : 2;
    if (d <= allowed && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
