/**
 * Which names a node answers to. A node's labels are its roles, the tags those roles bring (a role
 * with no tags brings its own name), and its own tags. For a role or tag that has a primary, the
 * first node carrying it is labelled `primary-<name>` (as in Nailgun). That node is in both: a
 * task that names `<name>` reaches it too, unless the task's source (the release, or one plugin)
 * itself names `primary-<name>` somewhere. Such a source was written Fuel's way, where the primary
 * carries `primary-<name>` *instead of* `<name>` and tasks for every controller list both
 * (`[primary-controller, controller]`), so its plain `<name>` keeps meaning "the others"
 * (`primary-keystone` and `keystone` are two tasks in the Fuel library). See `reachPrimaries`.
 */
import { finding, type Finding } from '../findings.js';
import type { RoleSelector, Task } from '../tasks/model.js';
import { MASTER_NODE, SYNC_NODE, type GraphInput, type NodeInput } from './model.js';
import { compileName, isPattern } from './selectors.js';

export interface LabelledNode {
  input: NodeInput;
  labels: string[];
}

/**
 * Labels with a primary. From metadata when given; otherwise inferred: a label `L` has a primary
 * when some task names `primary-L` literally (how the Fuel library marks primary roles), so a graph
 * built from task files alone still places primary-only tasks.
 */
export function primaryLabels(input: GraphInput): Set<string> {
  const out = new Set<string>();
  const known = input.roles !== undefined || input.tagsMetadata !== undefined;
  for (const [name, info] of Object.entries(input.roles ?? {})) if (info?.has_primary) out.add(name);
  for (const [name, info] of Object.entries(input.tagsMetadata ?? {})) if (info?.has_primary) out.add(name);
  if (known) return out;
  const mention = (selector: RoleSelector | undefined) => {
    if (!Array.isArray(selector)) return;
    for (const name of selector) if (name.startsWith('primary-') && !isPattern(name)) out.add(name.slice('primary-'.length));
  };
  for (const task of input.tasks) {
    mention(task.roles);
    mention(task.tags);
    if (task.groups) mention(task.groups);
    if (task.type === 'group') mention([task.id]);
  }
  return out;
}

export function labelNodes(input: GraphInput, findings: Finding[]): LabelledNode[] {
  const primaries = primaryLabels(input);
  const primaryTaken = new Set<string>();
  const seen = new Set<string>();
  const sortedLabels = new Map<string, string[]>();
  const out: LabelledNode[] = [];
  for (const node of input.nodes) {
    if (typeof node?.id !== 'string' || node.id.length === 0) {
      findings.push(finding('graph/invalid-node', 'error', `a node has no id; it is left out`, undefined, 'give every node a unique id'));
      continue;
    }
    if (node.id === MASTER_NODE || node.id === SYNC_NODE) {
      findings.push(finding('graph/reserved-node-id', 'error', `node id '${node.id}' is reserved for the ${node.id === MASTER_NODE ? 'Fuel master' : 'cluster-wide stage tasks'}; the node is left out`, undefined, 'rename the node'));
      continue;
    }
    if (seen.has(node.id)) {
      findings.push(finding('graph/duplicate-node', 'error', `node id '${node.id}' appears twice; the second is left out`, undefined, 'node ids must be unique'));
      continue;
    }
    seen.add(node.id);
    // Nodes with the same roles and tags share one sorted label list (ten thousand computes, one
    // list), unless a label becomes primary on this node.
    const roles = node.roles ?? [];
    const tags = node.tags ?? [];
    const key = Array.isArray(roles) && Array.isArray(tags) && roles.every((r) => typeof r === 'string') && tags.every((t) => typeof t === 'string') ? JSON.stringify([roles, tags]) : undefined;
    let sorted = key === undefined ? undefined : sortedLabels.get(key);
    if (!sorted) {
      const labels = new Set<string>();
      for (const role of roles) {
        const roleTags = input.roles?.[role]?.tags;
        labels.add(role);
        for (const tag of roleTags && roleTags.length > 0 ? roleTags : []) labels.add(tag);
      }
      for (const tag of tags) labels.add(tag);
      sorted = [...labels].sort();
      if (key !== undefined) sortedLabels.set(key, sorted);
    }
    if (!sorted.some((label) => primaries.has(label) && !primaryTaken.has(label))) {
      out.push({ input: node, labels: sorted });
      continue;
    }
    const final: string[] = [];
    for (const label of sorted) {
      if (primaries.has(label) && !primaryTaken.has(label)) {
        primaryTaken.add(label);
        final.push(`primary-${label}`);
      } else final.push(label);
    }
    out.push({ input: node, labels: final.sort() });
  }
  return out;
}

/** Does a selector pick a node with these labels? `*` picks every cluster node, never the master. */
export function selectorMatches(selector: RoleSelector, labels: readonly string[], isMaster: boolean): boolean {
  if (selector === '*') return !isMaster;
  for (const name of selector) {
    if (name === MASTER_NODE) {
      if (isMaster) return true;
      continue;
    }
    if (isMaster) continue;
    const compiled = compileName(name);
    for (const label of labels) if (compiled.matches(label)) return true;
  }
  return false;
}

/** Report refused or broken patterns in a task's selectors and dependency names, once per task. */
export function checkPatterns(task: Task, findings: Finding[]): void {
  const names: string[] = [];
  for (const sel of [task.roles, task.tags]) if (Array.isArray(sel)) names.push(...sel);
  names.push(...(task.groups ?? []), ...task.requires, ...task.requiredFor);
  for (const dep of [...task.crossDepends, ...task.crossDependedBy]) {
    names.push(dep.name);
    if (Array.isArray(dep.role)) names.push(...dep.role);
  }
  for (const name of names) {
    if (!isPattern(name)) continue;
    const compiled = compileName(name);
    if (compiled.error) {
      findings.push(finding('graph/unsafe-pattern', 'error', `task '${task.id}': ${compiled.error}; it matches nothing`, task.origin, 'simplify the pattern: list the names, or use one repetition per group'));
    }
  }
}

/** Literal `primary-<name>` names a task writes in its selectors (roles, tags, groups, cross roles, group id). */
function primaryNames(task: Task, out: Set<string>): void {
  const add = (name: string) => {
    if (name.startsWith('primary-') && !isPattern(name)) out.add(name.slice('primary-'.length));
  };
  for (const selector of [task.roles, task.tags, task.groups]) if (Array.isArray(selector)) for (const name of selector) add(name);
  for (const dep of [...task.crossDepends, ...task.crossDependedBy]) if (Array.isArray(dep.role)) for (const name of dep.role) add(name);
  if (task.type === 'group') add(task.id);
}

/**
 * Tasks whose selectors reach the primary node of each label they name: in a source that never
 * names `primary-<label>`, a plain `<label>` in `roles`, `tags`, `groups` or a cross-dependency's
 * `role` also selects `primary-<label>`. Sources that name `primary-<label>` are left as written.
 * Tasks that change are copied; the others are returned as they are.
 */
export function reachPrimaries(tasks: readonly Task[], primaries: ReadonlySet<string>): Task[] {
  if (primaries.size === 0) return [...tasks];
  const aware = new Map<string, Set<string>>();
  for (const task of tasks) {
    let names = aware.get(task.origin.source);
    if (!names) aware.set(task.origin.source, (names = new Set()));
    primaryNames(task, names);
  }
  return tasks.map((task) => {
    const known = aware.get(task.origin.source)!;
    const widen = <T extends RoleSelector | undefined>(selector: T): T => {
      if (!Array.isArray(selector)) return selector;
      let out: string[] | undefined;
      for (const name of selector) {
        if (!primaries.has(name) || known.has(name) || selector.includes(`primary-${name}`)) continue;
        (out ??= [...selector]).push(`primary-${name}`);
      }
      return (out ?? selector) as T;
    };
    const roles = widen(task.roles);
    const tags = widen(task.tags);
    const groups = widen(task.groups);
    const cross = (deps: Task['crossDepends']) => {
      let changed = false;
      const out = deps.map((dep) => {
        const role = widen(dep.role);
        if (role === dep.role) return dep;
        changed = true;
        return { ...dep, role };
      });
      return changed ? out : deps;
    };
    const crossDepends = cross(task.crossDepends);
    const crossDependedBy = cross(task.crossDependedBy);
    if (roles === task.roles && tags === task.tags && groups === task.groups && crossDepends === task.crossDepends && crossDependedBy === task.crossDependedBy) return task;
    const copy: Task = { ...task, crossDepends, crossDependedBy };
    if (roles !== undefined) copy.roles = roles;
    if (tags !== undefined) copy.tags = tags;
    if (groups !== undefined) copy.groups = groups;
    return copy;
  });
}
