/**
 * Node classes: nodes with identical labels run identical tasks with identical same-node
 * dependencies, so each class's task list and local edges are worked out once, whatever the number
 * of nodes in it. This is what keeps the graph linear in nodes × tasks: nothing here looks at
 * another node.
 */
import { definitionsAgree } from '../tasks/agree.js';
import type { RoleSelector, Task } from '../tasks/model.js';
import type { NodeClass, Slot } from './model.js';
import { selectorMatches } from './labels.js';
import { compileName, isPattern } from './selectors.js';

/** Task types that only order other tasks and take no time. */
export const ZERO_DURATION_TYPES: ReadonlySet<string> = new Set(['stage', 'group', 'skipped', 'role']);

export interface TaskCatalogue {
  tasks: Task[];
  /** The first definition of each id. */
  byId: Map<string, number>;
  /** Ids that several sources (plugins) define, with every definition's index. */
  alternatives: Map<string, number[]>;
  groups: Map<string, Task>;
  stages: Task[];
  defaultDuration: number;
}

export interface ClassTemplate extends NodeClass {
  isMaster: boolean;
  isSync: boolean;
  /** Same-node edges, as slot pairs. */
  localFrom: number[];
  localTo: number[];
  /** Edges with the sync node: [syncSlot, localSlot] pairs into this class, [localSlot, syncSlot] out of it. */
  fromSync: number[];
  toSync: number[];
  /** Groups each slot is in (through `groups:` or a group's `tasks:` list). */
  memberOf: Map<number, string[]>;
  /** Slots whose task's condition was false for the whole cluster. */
  skippedSlots: Set<number>;
  /** Task ids this class is reached by two disagreeing definitions of (the first one is kept). */
  conflicts: Array<{ id: string; sources: string[] }>;
}

export function durationOf(task: Task, defaultDuration: number): number {
  if (ZERO_DURATION_TYPES.has(task.type)) return 0;
  return task.timeout ?? defaultDuration;
}

/** The selector that places a group's own nodes: its tags, its roles, or its id as a role name. */
function groupSelector(group: Task) {
  return group.tags ?? group.roles ?? [group.id];
}

/**
 * Which tasks run on a node with these labels, and through which groups. `named` holds the tasks
 * chosen because a selector names one of the labels (a role, tag, group or /regex/), as opposed to
 * `*`: what a node runs because of its roles.
 */
function selectTasks(catalogue: TaskCatalogue, labels: readonly string[], isMaster: boolean): { indices: number[]; memberOf: Map<number, string[]>; named: Set<number> } {
  const chosen = new Set<number>();
  const named = new Set<number>();
  const memberOf = new Map<number, string[]>();
  const join = (index: number, group: Task) => {
    if (groupSelector(group) !== '*') named.add(index);
    const list = memberOf.get(index);
    if (!list) memberOf.set(index, [group.id]);
    else if (!list.includes(group.id)) list.push(group.id);
  };
  const pick = (index: number, selector: RoleSelector) => {
    if (!selectorMatches(selector, labels, isMaster)) return;
    chosen.add(index);
    if (selector !== '*') named.add(index);
  };
  const groupRuns = new Map<string, boolean>();
  const runsGroup = (group: Task) => {
    let hit = groupRuns.get(group.id);
    if (hit === undefined) {
      hit = selectorMatches(groupSelector(group), labels, isMaster);
      groupRuns.set(group.id, hit);
    }
    return hit;
  };
  catalogue.tasks.forEach((task, index) => {
    if (task.type === 'group' || task.type === 'stage') return;
    if (task.tags) pick(index, task.tags);
    else if (task.roles) pick(index, task.roles);
    else if (task.groups) {
      for (const name of task.groups) {
        if (isPattern(name)) {
          const compiled = compileName(name);
          for (const group of catalogue.groups.values()) {
            if (compiled.matches(group.id) && runsGroup(group)) {
              chosen.add(index);
              join(index, group);
            }
          }
        } else {
          const group = catalogue.groups.get(name);
          if (!group) pick(index, [name]);
          else if (runsGroup(group)) {
            chosen.add(index);
            join(index, group);
          }
        }
      }
    }
  });
  for (const group of catalogue.groups.values()) {
    if (!group.tasks || !runsGroup(group)) continue;
    for (const member of group.tasks) {
      for (const index of definitionsFor(catalogue, member, group)) {
        const type = catalogue.tasks[index].type;
        if (type === 'group' || type === 'stage') continue;
        chosen.add(index);
        join(index, group);
      }
    }
  }
  return { indices: [...chosen].sort((a, b) => a - b), memberOf, named };
}

/** A group's member by id: its only definition, or among several, the one from the group's own source. */
function definitionsFor(catalogue: TaskCatalogue, member: string, group: Task): number[] {
  const all = catalogue.alternatives.get(member);
  if (!all) {
    const index = catalogue.byId.get(member);
    return index === undefined ? [] : [index];
  }
  const own = all.filter((i) => catalogue.tasks[i].origin.source === group.origin.source);
  return own.length > 0 ? own : all;
}

/** One definition per id on a node; two that disagree are a conflict, reported by the caller. */
function oneDefinitionEach(catalogue: TaskCatalogue, indices: number[]): { indices: number[]; conflicts: ClassTemplate['conflicts'] } {
  if (catalogue.alternatives.size === 0) return { indices, conflicts: [] };
  const kept = new Map<string, number>();
  const conflicts = new Map<string, Set<string>>();
  const out: number[] = [];
  for (const index of indices) {
    const task = catalogue.tasks[index];
    const first = kept.get(task.id);
    if (first === undefined) {
      kept.set(task.id, index);
      out.push(index);
      continue;
    }
    const other = catalogue.tasks[first];
    if (definitionsAgree(other, task)) continue;
    const sources = conflicts.get(task.id) ?? new Set([other.origin.source]);
    sources.add(task.origin.source);
    conflicts.set(task.id, sources);
  }
  return { indices: out, conflicts: [...conflicts].map(([id, sources]) => ({ id, sources: [...sources] })) };
}

function slotsFor(catalogue: TaskCatalogue, indices: number[]): { slots: Slot[]; slotOf: Map<string, number> } {
  const slots: Slot[] = [];
  const slotOf = new Map<string, number>();
  for (const index of indices) {
    const task = catalogue.tasks[index];
    slotOf.set(task.id, slots.length);
    slots.push({ id: task.id, task, duration: durationOf(task, catalogue.defaultDuration) });
  }
  return { slots, slotOf };
}

/** Slots on `own` (and then on the sync node) that a name or /regex/ refers to. */
export function resolveName(name: string, own: NodeClass, sync: NodeClass | undefined): { own: number[]; sync: number[] } {
  if (!isPattern(name)) {
    const here = own.slotOf.get(name);
    if (here !== undefined) return { own: [here], sync: [] };
    const there = sync && sync !== own ? sync.slotOf.get(name) : undefined;
    return { own: [], sync: there === undefined ? [] : [there] };
  }
  const compiled = compileName(name);
  const pick = (c: NodeClass) => c.slots.flatMap((slot, i) => (compiled.matches(slot.id) ? [i] : []));
  return { own: pick(own), sync: sync && sync !== own ? pick(sync) : [] };
}

function newTemplate(labels: string[], slots: Slot[], slotOf: Map<string, number>, memberOf: Map<number, string[]>, isMaster: boolean, isSync: boolean): ClassTemplate {
  return { labels, slots, slotOf, nodes: [], isMaster, isSync, localFrom: [], localTo: [], fromSync: [], toSync: [], memberOf, skippedSlots: new Set(), conflicts: [] };
}

export function syncTemplate(catalogue: TaskCatalogue): ClassTemplate {
  const indices = catalogue.stages.map((t) => catalogue.byId.get(t.id)!).sort((a, b) => a - b);
  const { slots, slotOf } = slotsFor(catalogue, indices);
  return newTemplate([], slots, slotOf, new Map(), false, true);
}

export function classTemplate(catalogue: TaskCatalogue, labels: string[], isMaster: boolean): ClassTemplate {
  const selected = selectTasks(catalogue, labels, isMaster);
  const { indices, conflicts } = oneDefinitionEach(catalogue, selected.indices);
  const { slots, slotOf } = slotsFor(catalogue, indices);
  const memberOf = new Map<number, string[]>();
  for (const [index, groups] of selected.memberOf) {
    const slot = slotOf.get(catalogue.tasks[index].id);
    if (slot === undefined) continue;
    const known = memberOf.get(slot);
    memberOf.set(slot, known ? [...new Set([...known, ...groups])] : groups);
  }
  const template = newTemplate(labels, slots, slotOf, memberOf, isMaster, false);
  template.conflicts = conflicts;
  return template;
}

/**
 * Ids of the tasks a node with these labels runs because a selector names one of its labels (its
 * roles, their tags, a group of them), not only because it runs on every node (`*`). Stages,
 * groups and switched-off tasks do not count.
 */
export function ownTaskIds(catalogue: TaskCatalogue, labels: readonly string[]): string[] {
  const { named } = selectTasks(catalogue, labels, false);
  const out = new Set<string>();
  for (const index of named) {
    const task = catalogue.tasks[index];
    if (!ZERO_DURATION_TYPES.has(task.type)) out.add(task.id);
  }
  return [...out];
}

/**
 * Same-node edges of a class: `requires`, `required_for`, `cross-*` with `role: self`, and legacy
 * hooks' anchoring inside their stage. Names are looked up on the node itself, then on the sync node.
 */
export function linkTemplate(template: ClassTemplate, sync: ClassTemplate): void {
  const seen = new Set<number>();
  const slotCount = template.slots.length + sync.slots.length + 1;
  const add = (kind: 0 | 1 | 2, from: number, to: number) => {
    const key = (kind * slotCount + from) * slotCount + to;
    if (seen.has(key)) return;
    seen.add(key);
    if (kind === 0) {
      template.localFrom.push(from);
      template.localTo.push(to);
    } else if (kind === 1) template.fromSync.push(from, to);
    else template.toSync.push(from, to);
  };
  // A /regex/ that happens to match the task itself is not a dependency on itself (as in Nailgun);
  // a task naming itself exactly is kept, and shows up as a cycle.
  const before = (slot: number, name: string) => {
    const hit = resolveName(name, template, template.isSync ? undefined : sync);
    for (const s of hit.own) if (s !== slot || !isPattern(name)) add(0, s, slot);
    for (const s of hit.sync) add(1, s, slot);
  };
  const after = (slot: number, name: string) => {
    const hit = resolveName(name, template, template.isSync ? undefined : sync);
    for (const s of hit.own) if (s !== slot || !isPattern(name)) add(0, slot, s);
    for (const s of hit.sync) add(2, slot, s);
  };
  template.slots.forEach((entry, slot) => {
    const task = entry.task;
    if (!task) return;
    for (const name of task.requires) before(slot, name);
    for (const name of task.requiredFor) after(slot, name);
    for (const dep of task.crossDepends) {
      if (dep.sync) before(slot, dep.name);
      else if (Array.isArray(dep.role) && dep.role.includes('self')) before(slot, dep.name);
    }
    for (const dep of task.crossDependedBy) {
      if (dep.sync) after(slot, dep.name);
      else if (Array.isArray(dep.role) && dep.role.includes('self')) after(slot, dep.name);
    }
    if (task.stage) {
      before(slot, `${task.stage.name}_start`);
      after(slot, `${task.stage.name}_end`);
    }
  });
}
