/**
 * Whether nodes run their roles' own tasks. A role whose nodes run only the tasks every node runs
 * deploys nothing of its own: a primary controller that no task names, a role a release forgot.
 * The graph reports such nodes (graph/role-without-tasks); the validator asks the same of a
 * release for every role, on its first node and on the others (release/role-without-tasks).
 */
import { finding, type Finding } from '../findings.js';
import { catalogue } from './catalogue.js';
import { ownTaskIds, type TaskCatalogue } from './classes.js';
import { labelNodes, primaryLabels, reachPrimaries } from './labels.js';
import type { GraphInput, GraphNode } from './model.js';

export const nodeList = (ids: string[]) => (ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', '));

/** The labels a node answers to because of one of its roles (the role, its tags, primary or not). */
function roleLabels(input: Pick<GraphInput, 'roles'>, role: string, nodeLabels: readonly string[]): string[] {
  const tags = input.roles?.[role]?.tags;
  const names = new Set([role, ...(tags && tags.length > 0 ? tags : [])]);
  return [...names].map((name) => (nodeLabels.includes(`primary-${name}`) ? `primary-${name}` : name)).sort();
}

/**
 * Nodes that run none of a role's own tasks (only tasks for every node): a role that deploys
 * nothing, such as a primary node that no task names. Checked per role, with the node's own
 * primary labels, so a node that holds two roles is checked for each.
 */
export function reportRoleTasks(cat: TaskCatalogue, input: GraphInput, nodes: GraphNode[], findings: Finding[]): void {
  const own = new Map<string, boolean>();
  const missing = new Map<string, { role: string; labels: string[]; nodes: string[] }>();
  // A role's labels depend on the node's labels only: worked out once per label list (nodes with
  // the same roles share theirs), not once per node.
  const roleLabelsOf = new Map<readonly string[], Map<string, { labels: string[]; key: string }>>();
  for (const node of nodes.slice(2)) {
    let byRole = roleLabelsOf.get(node.labels);
    if (!byRole) roleLabelsOf.set(node.labels, (byRole = new Map()));
    for (const role of new Set(node.roles)) {
      let known = byRole.get(role);
      if (!known) {
        const labels = roleLabels(input, role, node.labels);
        byRole.set(role, (known = { labels, key: labels.join('\n') }));
      }
      const { labels, key } = known;
      let hit = own.get(key);
      if (hit === undefined) own.set(key, (hit = ownTaskIds(cat, labels).length > 0));
      if (hit) continue;
      const entry = missing.get(`${role}\n${key}`) ?? { role, labels, nodes: [] };
      entry.nodes.push(node.id);
      missing.set(`${role}\n${key}`, entry);
    }
  }
  for (const { role, labels, nodes: ids } of missing.values()) {
    const primary = labels.filter((l) => l.startsWith('primary-'));
    const as = primary.length > 0 ? ` (as ${primary.join(', ')})` : '';
    findings.push(
      finding('graph/role-without-tasks', 'warning', `role '${role}': node${ids.length > 1 ? 's' : ''} ${nodeList(ids)}${as} run${ids.length > 1 ? '' : 's'} none of the role's tasks, only tasks for every node`, undefined, `name the role in the tasks meant for it (roles: [${role}]); a task only for the first node names primary-${role}`),
    );
  }
}

export interface RoleGap {
  role: string;
  /** The labels of the node that runs nothing of the role (`primary-<role>` for its first node). */
  labels: string[];
  /** True for the role's first node (its primary), false for the nodes after it. */
  first: boolean;
}

/**
 * For each role, whether its first node and the nodes after it run any task of the role, in an
 * environment where that role is alone on its nodes. Used to check a release before any node exists.
 */
export function rolesWithoutTasks(input: Pick<GraphInput, 'tasks' | 'roles' | 'tagsMetadata'>, roleNames: readonly string[]): RoleGap[] {
  const cat = catalogue(reachPrimaries(input.tasks, primaryLabels({ ...input, nodes: [] })), 0, []);
  const gaps: RoleGap[] = [];
  for (const role of roleNames) {
    const nodes = labelNodes({ ...input, nodes: [{ id: 'first', roles: [role] }, { id: 'next', roles: [role] }] }, []);
    const seen = new Set<string>();
    nodes.forEach((node, i) => {
      const labels = roleLabels(input, role, node.labels);
      const key = labels.join('\n');
      if (seen.has(key)) return;
      seen.add(key);
      if (ownTaskIds(cat, labels).length === 0) gaps.push({ role, labels, first: i === 0 });
    });
  }
  return gaps;
}
