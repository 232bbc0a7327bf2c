/**
 * The tasks of one graph, indexed once: by id, groups, stages. One id may have several
 * definitions when they come from different sources (plugins whose roles keep them apart).
 */
import { finding, type Finding } from '../findings.js';
import type { Task } from '../tasks/model.js';
import type { TaskCatalogue } from './classes.js';

export function catalogue(tasks: Task[], defaultDuration: number, findings: Finding[]): TaskCatalogue {
  const byId = new Map<string, number>();
  const alternatives = new Map<string, number[]>();
  const list: Task[] = [];
  for (const task of tasks) {
    const earlier = byId.get(task.id);
    if (earlier === undefined) {
      byId.set(task.id, list.length);
      list.push(task);
      continue;
    }
    const definitions = alternatives.get(task.id) ?? [earlier];
    const same = definitions.find((i) => list[i].origin.source === task.origin.source);
    if (same === undefined) {
      // Another source's definition of the id: composition keeps one per plugin when their roles
      // keep them apart (role-as-a-plugin). Each node runs the definition its selectors reach.
      definitions.push(list.length);
      alternatives.set(task.id, definitions);
      list.push(task);
      continue;
    }
    const first = list[same];
    findings.push(
      finding('graph/duplicate-task', 'warning', `task '${task.id}' is defined twice (${first.origin.source}${first.origin.file ? ` ${first.origin.file}:${first.origin.line ?? '?'}` : ''} and ${task.origin.source}); the later definition is used`, task.origin, 'compose the release and plugins first, or remove one definition'),
    );
    list[same] = task;
  }
  const groups = new Map<string, Task>();
  const stages: Task[] = [];
  for (const [index, task] of list.entries()) {
    if (task.type === 'group') groups.set(task.id, task);
    else if (task.type === 'stage' && byId.get(task.id) === index) stages.push(task);
  }
  return { tasks: list, byId, alternatives, groups, stages, defaultDuration };
}
