/**
 * Best-fit selection of multi-release records (plugins-v5 "variant 1"). Records that share an id
 * (tasks) or a name (roles, components, ...) form one group; for a given release only the records
 * whose `os-version` and `fuel-version` constraints hold are candidates, and of those the one
 * whose lower bounds sit closest below the target wins (a record without constraints is the
 * fallback). A group with no candidate is left out for that release.
 */
import { lowerBound, parseConstraint, satisfies, type VersionConstraint } from './constraint.js';
import { compareReleaseVersions, parseReleaseVersion, type ReleaseVersion } from './release-version.js';

export interface ReleaseTarget {
  /** The release version (`mitaka-9.0`): gives both sides at once. */
  release?: string;
  /** The Fuel version, when given apart (`9.0`). */
  fuel?: string;
  /** The OpenStack version, when given apart (`2015.1`, `liberty`). */
  os?: string;
}

export interface VersionedRecordProblem {
  index: number;
  key: 'os-version' | 'fuel-version';
  message: string;
}

export interface BestFitResult<T> {
  /** Chosen records in their original order. */
  selected: T[];
  /** Group keys for which no record fits the target. */
  unsatisfied: string[];
  /** Constraints that do not parse (those records never match). */
  problems: VersionedRecordProblem[];
}

/** The target as one version with whatever sides are known. */
export function targetVersion(target: ReleaseTarget): ReleaseVersion {
  const fromRelease = target.release ? parseReleaseVersion(target.release) : undefined;
  const fuel = target.fuel ? parseReleaseVersion(target.fuel, 'fuel') : undefined;
  const os = target.os ? parseReleaseVersion(target.os, 'os') : undefined;
  return {
    text: target.release ?? [target.os, target.fuel].filter(Boolean).join('-'),
    fuel: fuel?.fuel ?? fromRelease?.fuel,
    os: os?.os ?? fromRelease?.os,
    osName: os?.osName ?? fromRelease?.osName,
  };
}

function constraintOf(record: unknown, key: 'os-version' | 'fuel-version'): unknown {
  if (record === null || typeof record !== 'object') return undefined;
  return (record as Record<string, unknown>)[key];
}

/** Is this record subject to version constraints at all? */
export function isVersioned(record: unknown): boolean {
  return constraintOf(record, 'os-version') !== undefined || constraintOf(record, 'fuel-version') !== undefined;
}

export function selectBestFit<T>(records: readonly T[], keyOf: (record: T) => string | undefined, target: ReleaseTarget): BestFitResult<T> {
  const goal = targetVersion(target);
  const problems: VersionedRecordProblem[] = [];
  const groups = new Map<string, number[]>();
  const parsed: Array<{ os?: VersionConstraint; fuel?: VersionConstraint; broken: boolean }> = [];
  records.forEach((record, index) => {
    const entry: { os?: VersionConstraint; fuel?: VersionConstraint; broken: boolean } = { broken: false };
    for (const key of ['os-version', 'fuel-version'] as const) {
      const raw = constraintOf(record, key);
      if (raw === undefined || raw === null) continue;
      const result = parseConstraint(raw, key === 'fuel-version' ? 'fuel' : 'os');
      if (result.ok) {
        if (key === 'os-version') entry.os = result.constraint;
        else entry.fuel = result.constraint;
      } else {
        entry.broken = true;
        problems.push({ index, key, message: result.error });
      }
    }
    parsed.push(entry);
    const key = keyOf(record) ?? `#${index}`;
    const members = groups.get(key);
    if (members) members.push(index);
    else groups.set(key, [index]);
  });

  const chosen = new Set<number>();
  const unsatisfied: string[] = [];
  for (const [key, members] of groups) {
    let best: number | undefined;
    let bestBound: ReleaseVersion | undefined;
    let bestConstrained = false;
    for (const index of members) {
      const c = parsed[index];
      if (c.broken) continue;
      if (c.os && !satisfies(goal, c.os)) continue;
      if (c.fuel && !satisfies(goal, c.fuel)) continue;
      const constrained = Boolean(c.os || c.fuel);
      const bounds = [c.fuel && lowerBound(c.fuel, goal), c.os && lowerBound(c.os, goal)].filter(Boolean) as ReleaseVersion[];
      const bound = bounds.reduce<ReleaseVersion | undefined>((acc, b) => (!acc || (compareReleaseVersions(b, acc) ?? 0) > 0 ? b : acc), undefined);
      // Later records win ties, as a later definition of an id overrides an earlier one in Fuel.
      const better =
        best === undefined ||
        (constrained && !bestConstrained) ||
        (constrained === bestConstrained && compareBounds(bound, bestBound) >= 0);
      if (better) {
        best = index;
        bestBound = bound;
        bestConstrained = constrained;
      }
    }
    if (best === undefined) unsatisfied.push(key);
    else chosen.add(best);
  }
  return { selected: records.filter((_, i) => chosen.has(i)), unsatisfied, problems };
}

function compareBounds(a: ReleaseVersion | undefined, b: ReleaseVersion | undefined): number {
  if (!a && !b) return 0;
  if (!a) return -1;
  if (!b) return 1;
  return compareReleaseVersions(a, b) ?? 0;
}
