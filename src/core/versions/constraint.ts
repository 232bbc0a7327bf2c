/**
 * Version constraints on multi-release records (plugins-v5 "variant 1"): `os-version: ">=liberty-8.0"`,
 * `fuel-version: ">=7,<=8"`, `os-version: "==2014.2,==2015.1"`.
 *
 * Meaning of a comma: every range clause (`>=`, `>`, `<=`, `<`, `!=`) must hold, and the `==`
 * clauses are alternatives: `==2014.2,==2015.1` means "2014.2 or 2015.1", as the design's example
 * intends (read literally as "both", it could never hold). So `>=7,==7.0,==8.0` is "at least 7,
 * and exactly 7.0 or 8.0". `==X` and `!=X` compare only the parts X names: `==2014.2` covers
 * `2014.2.2`, `==9` covers `9.0` and `9.1`.
 */
import {
  compareNumbers,
  compareReleaseVersions,
  numbersStartWith,
  parseReleaseVersion,
  type BareNumberMeaning,
  type ReleaseVersion,
} from './release-version.js';

export type ConstraintOperator = '==' | '!=' | '>=' | '<=' | '>' | '<';

export interface ConstraintClause {
  operator: ConstraintOperator;
  version: ReleaseVersion;
}

export interface VersionConstraint {
  text: string;
  clauses: ConstraintClause[];
}

export type ConstraintParse = { ok: true; constraint: VersionConstraint } | { ok: false; error: string; clause?: string };

const CLAUSE = /^(==|!=|>=|<=|>|<|=)?\s*(.+)$/;

/** Parse a constraint string. `bare` tells what lone numbers mean (see parseReleaseVersion). */
export function parseConstraint(input: unknown, bare: BareNumberMeaning = 'guess'): ConstraintParse {
  if (typeof input === 'number') input = String(input);
  if (typeof input !== 'string') return { ok: false, error: 'a version constraint must be a string such as ">=8.0,<10.0"' };
  const text = input.trim();
  if (text === '') return { ok: false, error: 'the version constraint is empty' };
  const clauses: ConstraintClause[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    if (part === '') return { ok: false, error: `"${text}" has an empty clause between commas`, clause: raw };
    const m = CLAUSE.exec(part);
    if (!m) return { ok: false, error: `"${part}" is not a version clause`, clause: part };
    const operator = (m[1] === undefined || m[1] === '=' ? '==' : m[1]) as ConstraintOperator;
    const version = parseReleaseVersion(m[2], bare);
    if (!version) {
      return { ok: false, error: `"${m[2].trim()}" is not a release version (write e.g. 9.0, 2015.1.0-7.0 or liberty-8.0)`, clause: part };
    }
    clauses.push({ operator, version });
  }
  return { ok: true, constraint: { text, clauses } };
}

/**
 * Compare the parts a clause and a target share. Fuel decides first, then OpenStack. Undefined
 * when they share nothing (the clause then cannot be decided for this target).
 */
function compareToTarget(target: ReleaseVersion, clause: ReleaseVersion, exactPrefix: boolean): number | undefined {
  let compared = false;
  if (clause.fuel && target.fuel) {
    if (exactPrefix) {
      if (!numbersStartWith(target.fuel, clause.fuel)) return compareNumbers(target.fuel, clause.fuel) || 1;
    } else {
      const d = compareNumbers(target.fuel, clause.fuel);
      if (d !== 0) return d;
    }
    compared = true;
  }
  if (clause.os && target.os) {
    if (exactPrefix) {
      if (!numbersStartWith(target.os, clause.os)) return compareNumbers(target.os, clause.os) || 1;
    } else {
      const d = compareNumbers(target.os, clause.os);
      if (d !== 0) return d;
    }
    compared = true;
  } else if (clause.osName && target.osName && !clause.os) {
    if (clause.osName !== target.osName) return clause.osName < target.osName ? 1 : -1;
    compared = true;
  }
  return compared ? 0 : undefined;
}

function clauseHolds(target: ReleaseVersion, clause: ConstraintClause): boolean | undefined {
  const exact = clause.operator === '==' || clause.operator === '!=';
  const d = compareToTarget(target, clause.version, exact);
  if (d === undefined) return undefined;
  switch (clause.operator) {
    case '==':
      return d === 0;
    case '!=':
      return d !== 0;
    case '>=':
      return d >= 0;
    case '<=':
      return d <= 0;
    case '>':
      return d > 0;
    case '<':
      return d < 0;
  }
}

/**
 * Does `target` satisfy the constraint? Clauses that share no side with the target (a Fuel-only
 * clause against an OpenStack-only target) do not count against it.
 */
export function satisfies(target: ReleaseVersion, constraint: VersionConstraint): boolean {
  const alternatives = constraint.clauses.filter((c) => c.operator === '==');
  const ranges = constraint.clauses.filter((c) => c.operator !== '==');
  for (const clause of ranges) if (clauseHolds(target, clause) === false) return false;
  if (alternatives.length === 0) return true;
  const outcomes = alternatives.map((c) => clauseHolds(target, c));
  return outcomes.some((o) => o === true) || outcomes.every((o) => o === undefined);
}

/** The highest lower bound a constraint sets (from `==`, `>=`, `>`), for choosing the closest fit. */
export function lowerBound(constraint: VersionConstraint, target: ReleaseVersion): ReleaseVersion | undefined {
  let best: ReleaseVersion | undefined;
  for (const c of constraint.clauses) {
    if (c.operator === '<' || c.operator === '<=' || c.operator === '!=') continue;
    if (c.operator === '==' && clauseHolds(target, c) !== true) continue;
    if (!best || (compareReleaseVersions(c.version, best) ?? 0) > 0) best = c.version;
  }
  return best;
}
