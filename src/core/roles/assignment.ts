/**
 * The rules a node assignment must follow, as the server enforces them before accepting roles or
 * starting a deployment: roles exist, no node holds two conflicting roles, role restrictions do
 * not hold, role limits (min/max/recommended, with overrides) are met, and no node would receive
 * two plugins' definitions of one task.
 */
import { checkRestrictions, evaluateLimits, type ExpressionContext } from '../expressions/index.js';
import { finding, type Finding } from '../findings.js';
import type { RoleMetadata } from '../release/model.js';
import type { ComposedRelease } from '../release/compose.js';
import { canShareNode } from './placement.js';

export interface NodeAssignment {
  id: string | number;
  /** For messages; the id is used when absent. */
  name?: string;
  roles: string[];
  /** Nodes being removed do not count towards limits. */
  pendingDeletion?: boolean;
}

export interface AssignmentContext {
  /** Models the restriction language may read besides `settings` (`cluster`, `version`, `networking_parameters`). */
  models?: Record<string, unknown>;
}

type RolesOnly = Pick<ComposedRelease, 'roles_metadata'> & Partial<Pick<ComposedRelease, 'task_conflicts' | 'role_sources'>>;

const label = (node: NodeAssignment) => (node.name ? `node '${node.name}'` : `node ${String(node.id)}`);
const roleName = (roles: Record<string, RoleMetadata>, name: string) => (roles[name]?.name && roles[name].name !== name ? `${name} (${roles[name].name})` : name);

export function checkRoleAssignment(composed: RolesOnly, nodes: readonly NodeAssignment[], settings: Record<string, unknown>, context: AssignmentContext = {}): Finding[] {
  const findings: Finding[] = [];
  const roles = composed.roles_metadata;
  const models: ExpressionContext = { ...(context.models ?? {}), settings };

  for (const node of nodes) {
    const seen = new Set<string>();
    for (const role of node.roles) {
      if (seen.has(role)) findings.push(finding('role/assigned-twice', 'warning', `${label(node)} lists role '${role}' twice`, undefined, 'list each role once'));
      seen.add(role);
    }
    // Own keys only: `constructor` or `__proto__` would otherwise pass as roles every object has.
    const unknown = [...seen].filter((r) => !Object.hasOwn(roles, r));
    if (unknown.length) {
      findings.push(finding('role/unknown', 'error', `${label(node)}: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a role' : 'are not roles'} of this release or its enabled plugins`, undefined, `use one of: ${Object.keys(roles).sort().join(', ')}`));
    }
    const known = [...seen].filter((r) => Object.hasOwn(roles, r));
    for (let i = 0; i < known.length; i++) {
      for (let j = i + 1; j < known.length; j++) {
        const [a, b] = [known[i], known[j]];
        if (canShareNode(roles, a, b)) continue;
        const who = roles[a].conflicts === '*' || (Array.isArray(roles[a].conflicts) && roles[a].conflicts.includes(b)) ? a : b;
        const other = who === a ? b : a;
        const why = roles[who].conflicts === '*' ? `role '${who}' must be alone on its node` : `role '${who}' conflicts with '${other}'`;
        findings.push(finding('role/conflict', 'error', `${label(node)} cannot hold both ${roleName(roles, a)} and ${roleName(roles, b)}: ${why}`, undefined, `move '${other}' to another node`));
      }
    }
  }

  const counts = new Map<string, number>();
  for (const node of nodes) {
    if (node.pendingDeletion) continue;
    for (const role of new Set(node.roles)) counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  for (const [name, role] of Object.entries(roles)) {
    const count = counts.get(name) ?? 0;
    if (count > 0 && role.restrictions !== undefined) {
      const checks = checkRestrictions(role.restrictions, models);
      for (const check of checks) {
        findings.push(...check.findings.map((f) => ({ ...f, message: `role '${name}' restriction '${check.condition}': ${f.message}` })));
        if (!check.met) continue;
        findings.push(finding('role/restricted', 'error', `role ${roleName(roles, name)} cannot be used here: ${check.message ?? `its restriction '${check.condition}' holds`}`, undefined, 'change the settings the restriction names, or remove the role from its nodes'));
      }
    }
    if (role.limits === undefined) continue;
    const limits = evaluateLimits(role.limits, models, { count, role: role.name ?? name });
    findings.push(...limits.findings.map((f) => ({ ...f, message: `role '${name}': ${f.message}` })));
    for (const failure of limits.failures) {
      const code = failure.type === 'recommended' ? 'role/below-recommended' : failure.type === 'min' ? 'role/too-few' : 'role/too-many';
      findings.push(finding(code, failure.severity, `${roleName(roles, name)}: ${failure.message}`, undefined, failure.type === 'max' ? `remove the role from ${count - failure.limit} node(s)` : `add the role to ${failure.limit - count} more node(s)`));
    }
  }
  findings.push(...checkTaskConflictsOnNodes(composed, nodes));
  return findings;
}

/**
 * At deployment, with the real nodes: a task id claimed by two plugins is an error on each node
 * that holds roles reached by both claims. Composition only warned that it could happen.
 */
export function checkTaskConflictsOnNodes(composed: Partial<Pick<ComposedRelease, 'task_conflicts'>>, nodes: readonly NodeAssignment[]): Finding[] {
  const findings: Finding[] = [];
  for (const conflict of composed.task_conflicts ?? []) {
    for (const node of nodes) {
      if (node.pendingDeletion) continue;
      const hits = conflict.claims.filter((c) => c.roles.some((r) => node.roles.includes(r)));
      if (hits.length < 2) continue;
      const detail = hits.map((c) => `${c.plugin} (via ${c.roles.filter((r) => node.roles.includes(r)).join(', ')})`).join(' and ');
      findings.push(finding('task/conflict-on-node', 'error', `${label(node)} would run two definitions of task '${conflict.id}' (graph '${conflict.graph}'): from ${detail}`, undefined, 'put those roles on different nodes, or disable one of the plugins'));
    }
  }
  return findings;
}
