/**
 * Plugins v5: a node role may list its tasks (`tasks: [hiera, globals, ...]`) instead of the plugin
 * writing a `type: group` task by hand. Each such list becomes a group task whose `id` and `roles`
 * equal the role name (design/plugins-v5.rst), so the graph treats both spellings the same.
 */
import { finding, type Finding } from '../findings.js';
import { keyPositionOf, positionOf } from '../positions.js';
import type { Task, TaskOrigin } from './model.js';

export function unwrapRoleTasks(nodeRoles: unknown, origin: TaskOrigin): { tasks: Task[]; findings: Finding[] } {
  const tasks: Task[] = [];
  const findings: Finding[] = [];
  if (nodeRoles === null || typeof nodeRoles !== 'object' || Array.isArray(nodeRoles)) return { tasks, findings };
  for (const [role, meta] of Object.entries(nodeRoles as Record<string, unknown>)) {
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) continue;
    const list = (meta as Record<string, unknown>).tasks;
    if (list === undefined || list === null) continue;
    const pos = keyPositionOf(meta, 'tasks') ?? positionOf(meta) ?? { file: origin.file, line: origin.line, column: origin.column };
    if (!Array.isArray(list)) {
      findings.push(finding('role/invalid-tasks', 'error', `role '${role}': 'tasks' must be a list of task ids`, pos, 'write tasks: [hiera, globals, ...]'));
      continue;
    }
    const members: string[] = [];
    list.forEach((item, i) => {
      if (typeof item === 'string' && item.length > 0) members.push(item);
      else findings.push(finding('role/invalid-tasks', 'error', `role '${role}': tasks entry ${i + 1} is not a task id`, positionOf(list, i) ?? pos));
    });
    tasks.push({
      id: role,
      type: 'group',
      version: '2.0.0',
      roles: [role],
      requires: [],
      requiredFor: [],
      crossDepends: [],
      crossDependedBy: [],
      tasks: members,
      strategy: { type: 'parallel' },
      origin: { ...origin, ...(pos ? { file: pos.file, line: pos.line, column: pos.column } : {}) },
    });
  }
  return { tasks, findings };
}
