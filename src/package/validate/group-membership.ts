/**
 * Class 3 of issue 18: a task that belongs to a group and also depends on that group the wrong
 * way can never run. A group's tasks run as part of it, after what the group requires and before
 * what it is required for. So a member that `requires` its group waits for itself, and a member
 * `required_for` something the group requires must end before that thing, which must end before
 * the group (and so the member) starts. Nailgun's graph refused both as cycles at deploy time.
 *
 * A task belongs to group G by `groups: [G]`, by `role`/`roles` naming G (a group id used as a
 * role), or by G's `tasks:` list. Groups are the plugin's group tasks and, with a release, the
 * release's. Only conflicts involving a plugin task are the plugin's to fix.
 */
import { finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import { entryPosition, taskPlace, type IndexedTask } from './task-index.js';
import type { ValidationContext } from './context.js';

interface Membership {
  task: IndexedTask;
  group: IndexedTask;
  /** How the task belongs, in the author's words: `groups: [G]`, `roles: [G]`, `G's tasks: list`. */
  how: string;
}

function memberships(byId: Map<string, IndexedTask>): Membership[] {
  const out: Membership[] = [];
  const seen = new Set<string>();
  const add = (task: IndexedTask | undefined, group: IndexedTask, how: string) => {
    // A stage (deploy_start, ...) listed in a group is a synchronisation point, not a member.
    if (!task || task === group || task.type === 'stage' || seen.has(`${task.id}\0${group.id}`)) return;
    seen.add(`${task.id}\0${group.id}`);
    out.push({ task, group, how });
  };
  for (const task of byId.values()) {
    for (const g of task.groups) {
      const group = byId.get(g);
      if (group?.type === 'group') add(task, group, `groups: [${g}]`);
    }
    for (const r of task.roles) {
      const group = byId.get(r);
      if (group?.type === 'group') add(task, group, `roles: [${r}]`);
    }
  }
  for (const group of byId.values()) {
    if (group.type !== 'group') continue;
    for (const id of group.tasks) add(byId.get(id), group, `the tasks: list of group '${group.id}'`);
  }
  return out;
}

export function checkGroupMembership(ctx: ValidationContext, byId: Map<string, IndexedTask>): void {
  for (const { task, group, how } of memberships(byId)) {
    if (!task.raw && !group.raw) continue; // the release's own business
    const where = (t: IndexedTask) => (t.raw ? `task '${t.id}' (${taskPlace(t)})` : `release task '${t.id}' (${taskPlace(t)})`);
    // The member waits for its own group: written on the task (requires) or on the group (required_for).
    const byTask = task.requires.includes(group.id);
    if (byTask || group.requiredFor.includes(task.id)) {
      ctx.findings.push(
        finding(
          'task/requires-own-group',
          'error',
          `${where(task)} belongs to group '${group.id}' (${taskPlace(group)}) through ${how}, and ${byTask ? `requires '${group.id}'` : `group '${group.id}' is required_for it`}: a group's tasks run inside it, so the task would wait for the group it is part of and can never run`,
          (byTask ? entryPosition(task, 'requires', group.id) : entryPosition(group, 'required_for', task.id)) ?? positionOf(task.raw ?? group.raw),
          byTask ? `drop '${group.id}' from the task's requires (a member already runs after what the group requires), or take the task out of the group` : `drop '${task.id}' from the group's required_for, or take the task out of the group`,
        ),
      );
    }
    // The member must end before something the group itself requires.
    for (const x of task.requiredFor) {
      if (x === group.id || !group.requires.includes(x)) continue;
      const other = byId.get(x);
      ctx.findings.push(
        finding(
          'task/before-own-group',
          'error',
          `${where(task)} belongs to group '${group.id}' (${taskPlace(group)}) through ${how}, and is required_for '${x}'${other ? ` (${taskPlace(other)})` : ''}, which group '${group.id}' requires: the group starts only after '${x}' ends, and '${x}' waits for a task inside the group, so neither can ever run`,
          entryPosition(task, 'required_for', x) ?? entryPosition(group, 'requires', x) ?? positionOf(task.raw ?? group.raw),
          `drop '${x}' from the task's required_for, or take the task out of group '${group.id}'`,
        ),
      );
    }
  }
}
