/**
 * The plugin's deployment tasks and, with a release, the release's default graph, as one lookup
 * by id: what the cross-task checks (group membership, references, cycles through the release)
 * reason over. A plugin task replaces a release task of the same id, as composition does.
 */
import type { SourcePosition } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import type { Task } from '../../core/tasks/model.js';
import type { TaskSource } from './tasks.js';
import type { ValidationContext } from './context.js';

export interface IndexedTask {
  id: string;
  type: string;
  roles: string[];
  groups: string[];
  requires: string[];
  requiredFor: string[];
  /** A group's `tasks:` list. */
  tasks: string[];
  /** The plugin task as written (for positions), absent for the release's. */
  raw?: Record<string, unknown>;
  /** The release task, absent for the plugin's. */
  release?: Task;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);
const selector = (v: unknown): string[] => (v === '*' ? ['*'] : strings(v));

/** The release's side, read once per release (a server or a corpus run validates many plugins against one). */
const releaseIndexes = new WeakMap<object, Map<string, IndexedTask>>();

function releaseIndex(tasks: readonly Task[]): Map<string, IndexedTask> {
  const cached = releaseIndexes.get(tasks);
  if (cached) return cached;
  const byId = new Map<string, IndexedTask>();
  for (const task of tasks) {
    byId.set(task.id, {
      id: task.id,
      type: String(task.type),
      roles: [...selector(task.roles), ...selector(task.tags)],
      groups: task.groups ?? [],
      requires: task.requires ?? [],
      requiredFor: task.requiredFor ?? [],
      tasks: task.tasks ?? [],
      release: task,
    });
  }
  releaseIndexes.set(tasks, byId);
  return byId;
}

export function indexTasks(ctx: ValidationContext, sources: TaskSource[]): Map<string, IndexedTask> {
  const tasks = ctx.release?.graphs?.default?.tasks;
  const byId = new Map<string, IndexedTask>(tasks ? releaseIndex(tasks) : undefined);
  // Extensions only: a release plugin's own graph is a release of its own, not a contribution.
  for (const source of sources) {
    if (source.releaseRecord !== undefined) continue;
    for (const raw of source.tasks) {
      if (typeof raw.id !== 'string') continue;
      byId.set(raw.id, {
        id: raw.id,
        type: String(raw.type),
        roles: [...selector(raw.role), ...selector(raw.roles)],
        groups: strings(raw.groups),
        requires: strings(raw.requires),
        requiredFor: strings(raw.required_for),
        tasks: strings(raw.tasks),
        raw,
      });
    }
  }
  return byId;
}

/** Where a task is: its own line in the plugin, or the release file and line it came from. */
export function taskPlace(task: IndexedTask): string {
  if (task.raw) {
    const at = positionOf(task.raw);
    return at ? `${at.file}:${at.line}` : 'the plugin';
  }
  const o = task.release?.origin;
  return o?.file ? `release ${o.file}${o.line ? `:${o.line}` : ''}` : 'the release';
}

/** The position of `value` inside `list` of a plugin task (a requires/required_for/tasks entry). */
export function entryPosition(task: IndexedTask, key: string, value: string): SourcePosition | undefined {
  if (!task.raw) return undefined;
  const list = task.raw[key];
  if (Array.isArray(list)) {
    const i = list.indexOf(value);
    if (i >= 0) return positionOf(list, i);
  }
  return positionOf(task.raw, key) ?? positionOf(task.raw);
}
