/**
 * Task composition per graph type: the release's tasks, then each plugin's. A plugin task with the
 * id of a release task replaces it (`type: skipped` switches it off); a new id is added. Two
 * plugins claiming one id is a conflict only where their roles can meet on one node: a warning
 * now, and an error at deployment when real nodes do hold both (see roles/task-claims).
 */
import { finding, type Finding } from '../findings.js';
import { canMeetOnNode, rolesReached, type RoleTable } from '../roles/placement.js';
import type { Task } from '../tasks/model.js';
import { selectBestFit } from '../versions/index.js';
import type { Release } from './model.js';
import { pluginLabel, type PluginContribution } from './plugin.js';

export interface TaskClaim {
  graph: string;
  id: string;
  plugin: string;
  /** Role names the claiming task reaches (resolved against the composed roles). */
  roles: string[];
}

/** A task id claimed by two plugins whose roles can share a node. */
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

/** Nodes a task reaches: its own selector, else the task it replaces, else (unknown) every role. */
function reach(roles: RoleTable, task: Task, replaced: Task | undefined): string[] {
  const own = rolesReached(roles, task.roles) ?? rolesReached(roles, task.tags, true);
  if (own) return own;
  if (replaced) return reach(roles, replaced, undefined);
  return Object.keys(roles).sort();
}

// Tasks stored before `osVersion`/`fuelVersion` were Task fields carry the constraints in `extra`.
const osVersionOf = (task: Task) => task.osVersion ?? task.extra?.['os-version'];
const fuelVersionOf = (task: Task) => task.fuelVersion ?? task.extra?.['fuel-version'];
const versioned = (task: Task) => osVersionOf(task) !== undefined || fuelVersionOf(task) !== undefined;

export function composeTasks(release: Release, plugins: readonly PluginContribution[], roles: RoleTable, targetVersion: Map<string, string>): ComposedTasks {
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
      let own = graph.tasks;
      if (own.some(versioned)) {
        // Best-fit reads the constraints from the record's top level, under their file names.
        const records = own.map((t) => ({ task: t, 'os-version': osVersionOf(t), 'fuel-version': fuelVersionOf(t) }));
        const fit = selectBestFit(records, (r) => r.task.id, { release: targetVersion.get(plugin.name) ?? release.version });
        own = fit.selected.map((r) => r.task);
        for (const id of fit.unsatisfied) {
          findings.push(finding('task/no-fit-for-release', 'info', `plugin ${pluginLabel(plugin)}: no version of task '${id}' fits release ${release.version}; the task is left out`));
        }
        for (const p of fit.problems) {
          const t = graph.tasks[p.index];
          findings.push(finding('task/bad-version-constraint', 'error', `plugin ${pluginLabel(plugin)}: task '${t.id}' has a bad ${p.key}: ${p.message}`, where(t)));
        }
      }
      const seen = new Set<string>();
      for (const task of own) {
        if (seen.has(task.id)) {
          findings.push(finding('task/duplicate-id', 'warning', `plugin ${pluginLabel(plugin)} defines task '${task.id}' more than once in graph '${type}'; the last one is used`, where(task)));
        }
        seen.add(task.id);
        const at = releaseIndex.get(task.id);
        const replaced = at !== undefined ? base?.tasks[at] : undefined;
        const claim: TaskClaim = { graph: type, id: task.id, plugin: pluginLabel(plugin), roles: reach(roles, task, replaced) };
        const list = claims.get(task.id) ?? [];
        const previous = list.findIndex((c) => c.claim.plugin === claim.plugin);
        if (previous >= 0) list[previous] = { task, claim };
        else list.push({ task, claim });
        claims.set(task.id, list);
      }
    }

    const added: Task[] = [];
    for (const [id, list] of [...claims].sort(([a], [b]) => a.localeCompare(b))) {
      const at = releaseIndex.get(id);
      if (list.length > 1) {
        const conflict = checkClaims(type, id, list.map((c) => c.claim), roles, at !== undefined);
        if (conflict.conflict) conflicts.push(conflict.conflict);
        findings.push(conflict.finding);
      }
      // The first plugin in name order keeps the id; on nodes of the others the deployment check decides.
      const winner = list[0];
      if (at !== undefined) {
        tasks[at] = winner.task;
        overrides.push({ graph: type, id, plugin: winner.claim.plugin, skipped: winner.task.type === 'skipped' });
      } else {
        added.push(winner.task);
      }
    }
    const composed = [...tasks, ...added];
    findings.push(...checkGroups(type, composed));
    const entry: Release['graphs'][string] = { tasks: composed };
    if (base?.name) entry.name = base.name;
    if (metadata) entry.metadata = metadata;
    graphs[type] = entry;
  }
  return { graphs, overrides, conflicts, findings };
}

function checkClaims(graph: string, id: string, claims: TaskClaim[], roles: RoleTable, ofRelease: boolean): { conflict?: TaskConflict; finding: Finding } {
  const what = ofRelease ? `override the release task '${id}'` : `define the task '${id}'`;
  const names = claims.map((c) => c.plugin).join(' and ');
  for (let i = 0; i < claims.length; i++) {
    for (let j = i + 1; j < claims.length; j++) {
      const meet = canMeetOnNode(roles, claims[i].roles, claims[j].roles);
      if (meet) {
        const [a, b] = meet;
        const how = a === b ? `both run on '${a}' nodes` : `'${a}' (${claims[i].plugin}) and '${b}' (${claims[j].plugin}) can be on one node`;
        return {
          conflict: { graph, id, claims },
          finding: finding('task/plugins-overlap', 'warning', `plugins ${names} both ${what} in graph '${graph}', and ${how}; a node with both would get two definitions`, undefined, `deployment stops if any node holds roles of both; keep such roles on different nodes, or enable only one of these plugins`),
        };
      }
    }
  }
  return { finding: finding('task/plugins-share-id', 'info', `plugins ${names} both ${what} in graph '${graph}', but their roles never share a node (role conflicts keep them apart)`) };
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

