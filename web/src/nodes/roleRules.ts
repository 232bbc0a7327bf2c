/**
 * Role conflicts as the roles metadata states them (`conflicts: [..]` or `'*'`, either side), for
 * disabling a role before it is clicked, as Fuel's roles panel did. The server's role rules
 * (limits, restrictions) still answer every draft through a dry run.
 */
import { checkRestrictions } from '../../../src/core/expressions/index.js';
import type { Role } from '../types.js';

const lists = (r: Role | undefined, other: string) => r !== undefined && (r.conflicts === '*' || (Array.isArray(r.conflicts) && r.conflicts.includes(other)));
export const roleLabel = (r: Role | undefined, name: string) => r?.label ?? name;

/** Why `role` cannot join a node that holds `held` (a clause, without the full stop), or null. */
export function conflictReason(role: string, held: readonly string[], roles: ReadonlyMap<string, Role>): string | null {
  const mine = roles.get(role);
  for (const other of held) {
    if (other === role) continue;
    const theirs = roles.get(other);
    if (lists(mine, other) || lists(theirs, role)) {
      const alone = mine?.conflicts === '*' ? roleLabel(mine, role) : theirs?.conflicts === '*' ? roleLabel(theirs, other) : null;
      return `${roleLabel(mine, role)} cannot be combined with ${roleLabel(theirs, other)}${alone ? `: ${alone} takes a node alone` : ''}`;
    }
  }
  return null;
}

/**
 * Why a role cannot be chosen with the environment's settings as they are: its met restrictions'
 * messages (core's evaluator, as the server's role rules run it), or null.
 */
export function restrictionReason(role: Role, context: Record<string, unknown>): string | null {
  if (role.restrictions === undefined) return null;
  const met = checkRestrictions(role.restrictions, context, { actions: ['disable'] }).filter((c) => c.met);
  if (!met.length) return null;
  return met.map((c) => (c.message ?? `${roleLabel(role, role.name)} is not available: '${c.condition}' holds`).trim().replace(/\.?$/, '')).join('. ');
}

export interface Finding {
  code: string;
  severity: string;
  message: string;
}

const RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };
/** Within a severity: what a deployment needs (a `min` limit, shown as a warning while assigning) before what is recommended. */
const NEED: Record<string, number> = { 'role/too-few': 0, 'role/below-recommended': 2 };

/** The role rules' findings, each said once: errors, then what deploying needs, then recommendations. */
export function rankFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings
    .filter((f) => (seen.has(f.message) ? false : (seen.add(f.message), true)))
    .sort((a, b) => (RANK[a.severity] ?? 3) - (RANK[b.severity] ?? 3) || (NEED[a.code] ?? 1) - (NEED[b.code] ?? 1));
}

/** Whether a finding is a recommendation rather than something deploying needs. */
export const isRecommendation = (f: Finding) => f.code === 'role/below-recommended' || f.severity === 'info';
