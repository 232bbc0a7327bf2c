/**
 * Task composition per graph type: the release's tasks, then each plugin's. A plugin task with the
 * id of a release task replaces it (`type: skipped` switches it off); a new id is added. When two
 * plugins define (or override) one id, both definitions are kept: each node runs the definition
 * whose selector reaches it, as the role-as-a-plugin design asks. That is a conflict only where
 * two definitions that disagree can land on one node: a warning now, and an error at deployment
 * when real nodes do hold both (see roles/assignment and the graph). Definitions that agree (both
 * switch the task off) never conflict.
 */
import { finding, type Finding } from '../findings.js';
import { canMeetOnNode, rolesReached, type RoleTable } from '../roles/placement.js';
import { definitionsAgree } from '../tasks/agree.js';
import type { Task } from '../tasks/model.js';
import type { Release } from './model.js';
import { pluginLabel, type PluginContribution } from './plugin.js';

export interface TaskClaim {
  graph: string;
  id: string;
  plugin: string;
  /** Role names the claiming task reaches (resolved against the composed roles). */
  roles: string[];
}

/** One task id defined by two plugins in ways that disagree, on roles that can share a node. */
export interface TaskConflict {
  graph: string;
  id: string;
  claims: TaskClaim[];
}

export interface TaskOverride {
  graph: string;
  id: string;
  plugin: string;
  /** True when the plugin switched the release task off (`type: skipped`). */
  skipped: boolean;
}

export interface ComposedTasks {
  graphs: Release['graphs'];
  overrides: TaskOverride[];
  conflicts: TaskConflict[];
  findings: Finding[];
}

const where = (task: Task) => (task.origin.file ? { file: task.origin.file, line: task.origin.line, column: task.origin.column } : undefined);

/**
 * Roles a task's own selector reaches (`roles`, `tags`, `groups`; a group task's id). A task with
 * none reaches no node: an override written without roles replaces the release task and runs
 * nowhere, as in Fuel, so it cannot meet another plugin's definition on a node.
 */
function reach(roles: RoleTable, task: Task): string[] {
  const own = rolesReached(roles, task.roles) ?? rolesReached(roles, task.tags, true) ?? rolesReached(roles, task.groups);
  if (own) return own;
  if (task.type === 'group') return rolesReached(roles, [task.id]) ?? [];
  return [];
}

export function composeTasks(release: Release, plugins: readonly PluginContribution[], roles: RoleTable): ComposedTasks {
  const findings: Finding[] = [];
  const overrides: TaskOverride[] = [];
  const conflicts: TaskConflict[] = [];
  const types = new Set<string>(Object.keys(release.graphs));
  for (const p of plugins) for (const t of Object.keys(p.graphs)) types.add(t);
  const graphs: Release['graphs'] = {};

  for (const type of [...types].sort()) {
    const base = release.graphs[type];
    const tasks: Task[] = [...(base?.tasks ?? [])];
    const releaseIndex = new Map<string, number>();
    tasks.forEach((t, i) => releaseIndex.set(t.id, i));
    let metadata: Record<string, unknown> | undefined = base?.metadata ? { ...base.metadata } : undefined;
    const claims = new Map<string, { task: Task; claim: TaskClaim }[]>();

    for (const plugin of plugins) {
      const graph = plugin.graphs[type];
      if (!graph) continue;
      if (graph.metadata) metadata = { ...(metadata ?? {}), ...graph.metadata };
      // Multi-release groups were settled before: contributionForRelease (for-release.ts) keeps
      // one record per task id for this release and strips its os-version/fuel-version.
      const own = graph.tasks;
      const seen = new Set<string>();
      for (const task of own) {
        if (seen.has(task.id)) {
          findings.push(finding('task/duplicate-id', 'warning', `plugin ${pluginLabel(plugin)} defines task '${task.id}' more than once in graph '${type}'; the last one is used`, where(task)));
        }
        seen.add(task.id);
        const claim: TaskClaim = { graph: type, id: task.id, plugin: pluginLabel(plugin), roles: reach(roles, task) };
        const list = claims.get(task.id) ?? [];
        const previous = list.findIndex((c) => c.claim.plugin === claim.plugin);
        if (previous >= 0) list[previous] = { task, claim };
        else list.push({ task, claim });
        claims.set(task.id, list);
      }
    }

    const added: Task[] = [];
    const replacing = new Map<number, Task[]>();
    for (const [id, list] of [...claims].sort(([a], [b]) => a.localeCompare(b))) {
      const at = releaseIndex.get(id);
      if (list.length > 1) {
        const checked = checkClaims(type, id, list, roles, at !== undefined);
        conflicts.push(...checked.conflicts);
        findings.push(checked.finding);
      }
      // Every plugin's definition stays; the graph gives each node the one its selector reaches.
      const definitions = list.map((c) => c.task);
      if (at !== undefined) {
        replacing.set(at, definitions);
        for (const c of list) overrides.push({ graph: type, id, plugin: c.claim.plugin, skipped: c.task.type === 'skipped' });
      } else {
        added.push(...definitions);
      }
    }
    const kept = tasks.flatMap((task, i) => replacing.get(i) ?? [task]);
    const composed = [...kept, ...added];
    findings.push(...checkGroups(type, composed));
    const entry: Release['graphs'][string] = { tasks: composed };
    if (base?.name) entry.name = base.name;
    if (metadata) entry.metadata = metadata;
    graphs[type] = entry;
  }
  return { graphs, overrides, conflicts, findings };
}

function checkClaims(graph: string, id: string, list: ReadonlyArray<{ task: Task; claim: TaskClaim }>, roles: RoleTable, ofRelease: boolean): { conflicts: TaskConflict[]; finding: Finding } {
  const what = ofRelease ? `override the release task '${id}'` : `define the task '${id}'`;
  const names = list.map((c) => c.claim.plugin).join(' and ');
  const conflicts: TaskConflict[] = [];
  const hows: string[] = [];
  let agreeing = 0;
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = [list[i], list[j]];
      if (definitionsAgree(a.task, b.task)) {
        agreeing++;
        continue;
      }
      const shared = a.claim.roles.find((r) => b.claim.roles.includes(r) && r !== 'master');
      const meet = shared ? ([shared, shared] as const) : canMeetOnNode(roles, a.claim.roles, b.claim.roles);
      if (!meet) continue;
      const [x, y] = meet;
      conflicts.push({ graph, id, claims: [a.claim, b.claim] });
      hows.push(x === y ? `both reach '${x}' nodes` : `'${x}' (${a.claim.plugin}) and '${y}' (${b.claim.plugin}) can be on one node`);
    }
  }
  if (conflicts.length > 0) {
    return {
      conflicts,
      finding: finding('task/plugins-overlap', 'warning', `plugins ${names} both ${what} in graph '${graph}' differently, and ${hows.join('; ')}; a node reached by two definitions could not run both`, undefined, `each node runs the definition that reaches it; deployment stops if a node holds roles of both, so keep those roles on different nodes, or enable only one of these plugins`),
    };
  }
  const pairs = (list.length * (list.length - 1)) / 2;
  const why = agreeing === pairs ? 'their definitions agree (both switch it off, or are the same)' : 'each node runs the definition its roles reach, and no node can hold roles of two that disagree';
  return { conflicts, finding: finding('task/plugins-share-id', 'info', `plugins ${names} both ${what} in graph '${graph}': ${why}`) };
}

/** A group task names its members; members that exist nowhere are a typo or a missing plugin. */
function checkGroups(graph: string, tasks: readonly Task[]): Finding[] {
  const ids = new Set(tasks.map((t) => t.id));
  const out: Finding[] = [];
  for (const task of tasks) {
    if (task.type !== 'group' || !task.tasks) continue;
    const missing = task.tasks.filter((m) => !ids.has(m));
    if (missing.length) {
      out.push(finding('task/unknown-group-member', 'warning', `group '${task.id}' (${task.origin.source}) in graph '${graph}' lists tasks that do not exist: ${missing.join(', ')}`, where(task), 'list tasks of this graph, or add them'));
    }
  }
  return out;
}

