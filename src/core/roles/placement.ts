/**
 * Which roles can be on one node, and which roles a task's selector reaches. Role `conflicts`
 * decide placement, and they bind both ways: if controller conflicts with compute, a compute node
 * can no more take the controller role than the reverse.
 */
import type { RoleMetadata } from '../release/model.js';
import type { RoleSelector } from '../tasks/model.js';

export type RoleTable = Record<string, Pick<RoleMetadata, 'conflicts' | 'tags'>>;

function declaredConflict(roles: RoleTable, a: string, b: string): boolean {
  const conflicts = roles[a]?.conflicts;
  if (conflicts === '*') return true;
  return Array.isArray(conflicts) && conflicts.includes(b);
}

/** Can one node hold both roles? (`master` is the Fuel master, never a deployed node.) */
export function canShareNode(roles: RoleTable, a: string, b: string): boolean {
  if (a === b) return true;
  if (a === 'master' || b === 'master') return false;
  return !declaredConflict(roles, a, b) && !declaredConflict(roles, b, a);
}

/** The role a `primary-<role>` selector stands for, when that role exists. */
export function baseRole(roles: RoleTable, name: string): string {
  if (name.startsWith('primary-') && !(name in roles) && name.slice(8) in roles) return name.slice(8);
  return name;
}

/** `undefined`: not a regex selector; `null`: a regex that does not compile (reaches nothing). */
function regexOf(selector: string): RegExp | null | undefined {
  if (selector.length < 2 || !selector.startsWith('/') || !selector.endsWith('/')) return undefined;
  try {
    return new RegExp(selector.slice(1, -1));
  } catch {
    return null;
  }
}

/**
 * The role names a task's `roles` selector (or `tags`) can reach. `undefined` means "not known
 * from this task alone" and callers decide; `master` is kept as its own name.
 */
export function rolesReached(roles: RoleTable, selector: RoleSelector | undefined, byTags = false): string[] | undefined {
  if (selector === undefined) return undefined;
  const all = Object.keys(roles).sort();
  if (selector === '*') return all;
  const out = new Set<string>();
  for (const item of selector) {
    if (item === '*') return all;
    const re = regexOf(item);
    if (re === null) continue;
    if (re) {
      for (const name of all) if (re.test(name)) out.add(name);
      continue;
    }
    if (byTags) {
      for (const name of all) {
        const tags = roles[name]?.tags ?? [name];
        if (tags.includes(item) || (item.startsWith('primary-') && tags.includes(item.slice(8)))) out.add(name);
      }
      continue;
    }
    out.add(baseRole(roles, item));
  }
  return [...out].sort();
}

/** Do two role sets have a pair of roles that one node may hold together? */
export function canMeetOnNode(roles: RoleTable, a: readonly string[], b: readonly string[]): [string, string] | undefined {
  for (const x of a) for (const y of b) if (canShareNode(roles, x, y)) return [x, y];
  return undefined;
}
