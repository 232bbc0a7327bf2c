/**
 * Expanding a graph type's tasks over a cluster. The work is organised so that it grows with
 * nodes × tasks and no faster: task selection, same-node dependencies and cluster-wide conditions
 * are worked out once per node class (see classes.ts); each node then only copies its class's edges
 * with its own vertex offset; cross-node dependencies go through shared barriers (see cross.ts).
 */
import { finding, type Finding } from '../findings.js';
import type { Task } from '../tasks/model.js';
import { catalogue } from './catalogue.js';
import { classTemplate, linkTemplate, syncTemplate, type ClassTemplate, type TaskCatalogue } from './classes.js';
import { allConditionsHold, type ConditionScope } from './conditions.js';
import { CrossLinker } from './cross.js';
import { EdgeBuffer } from './edges.js';
import { checkPatterns, labelNodes, primaryLabels, reachPrimaries } from './labels.js';
import { MASTER_NODE, SYNC_NODE, type DeploymentGraph, type GraphInput, type GraphNode } from './model.js';
import { nodeList, reportRoleTasks } from './role-tasks.js';
import { findCycle, schedule } from './schedule.js';
import { compileName, isPattern } from './selectors.js';
import { paceOf, type AmountContext } from './strategy.js';
import { describeVertex } from './vertices.js';

export { nodeOfVertex } from './vertices.js';

export const DEFAULT_DURATION_S = 300;

/** Dependencies on tasks that exist nowhere in the graph: a warning per task, listing them. */
function reportMissing(cat: TaskCatalogue, findings: Finding[]): void {
  const ids = cat.tasks.map((t) => t.id);
  const exists = (name: string) => (isPattern(name) ? ids.some((id) => compileName(name).matches(id)) : cat.byId.has(name));
  for (const task of cat.tasks) {
    checkPatterns(task, findings);
    const missing = new Set<string>();
    for (const name of [...task.requires, ...task.requiredFor]) if (!exists(name)) missing.add(name);
    for (const dep of [...task.crossDepends, ...task.crossDependedBy]) if (!exists(dep.name)) missing.add(dep.name);
    for (const name of task.tasks ?? []) if (!exists(name)) missing.add(name);
    if (task.stage) for (const name of [`${task.stage.name}_start`, `${task.stage.name}_end`]) if (!exists(name)) missing.add(name);
    if (missing.size > 0) {
      findings.push(
        finding('task/unknown-dependency', 'warning', `task '${task.id}' (${task.origin.source}) refers to task${missing.size > 1 ? 's' : ''} that do not exist in this graph: ${[...missing].join(', ')}; those dependencies are left out`, task.origin, 'check the spelling, or ignore this if those tasks come from an optional plugin'),
      );
    }
  }
}

/** Plugins' definitions of one task id that disagree and reach one node: which of them runs there is not decidable. */
function reportConflicts(classes: ClassTemplate[], nodes: GraphNode[], findings: Finding[]): void {
  for (const template of classes) {
    if (template.conflicts.length === 0 || template.nodes.length === 0) continue;
    const ids = template.nodes.map((n) => `'${nodes[n].id}'`);
    for (const conflict of template.conflicts) {
      const task = template.slots[template.slotOf.get(conflict.id) ?? -1]?.task;
      findings.push(
        finding('task/conflict-on-node', 'error', `node${ids.length > 1 ? 's' : ''} ${nodeList(ids)} would run two definitions of task '${conflict.id}': from ${conflict.sources.join(' and ')}`, task?.origin, 'put the roles of those plugins on different nodes, or enable only one of the plugins'),
      );
    }
  }
}

/** The index of the node whose slots hold vertex `v` (each node's vertices are contiguous). */
function nodeIndexOf(nodes: GraphNode[], v: number): number {
  let lo = 0;
  let hi = nodes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (nodes[mid].base <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The task definition a node's vertex runs. */
function slotTaskOf(nodes: GraphNode[], classes: ClassTemplate[], v: number): Task | undefined {
  const node = nodes[nodeIndexOf(nodes, v)];
  return classes[node.classIndex].slots[v - node.base]?.task;
}

export function buildDeploymentGraph(input: GraphInput): DeploymentGraph {
  const findings: Finding[] = [];
  // A plain role name reaches the primary node too, unless the task's source names primary-<role> (labels.ts).
  const cat = catalogue(reachPrimaries(input.tasks ?? [], primaryLabels(input)), input.defaultDuration ?? DEFAULT_DURATION_S, findings);
  reportMissing(cat, findings);
  const labelled = input.labelled ? (findings.push(...input.labelled.findings), input.labelled.nodes) : labelNodes(input, findings);

  // Node classes: sync (index 0), master (1), then one per distinct label set.
  const sync = syncTemplate(cat);
  const master = classTemplate(cat, [], true);
  const classes: ClassTemplate[] = [sync, master];
  const nodes: GraphNode[] = [
    { id: SYNC_NODE, roles: [], labels: [], classIndex: 0, base: 0 },
    { id: MASTER_NODE, roles: [MASTER_NODE], labels: [MASTER_NODE], classIndex: 1, base: 0 },
  ];
  sync.nodes.push(0);
  master.nodes.push(1);
  const classByKey = new Map<string, number>();
  for (const { input: node, labels } of labelled) {
    const key = labels.join('\n');
    let index = classByKey.get(key);
    if (index === undefined) {
      index = classes.length;
      classByKey.set(key, index);
      classes.push(classTemplate(cat, labels, false));
    }
    classes[index].nodes.push(nodes.length);
    nodes.push({ id: node.id, roles: [...(node.roles ?? [])], labels, classIndex: index, base: 0 });
  }

  for (const template of classes) linkTemplate(template, sync);
  reportConflicts(classes, nodes, findings);
  if (input.checkRoleTasks) reportRoleTasks(cat, input, nodes, findings);

  // Conditions: cluster-wide ones once per task, per-node ones once per (node, task).
  const evaluator = input.conditions ?? allConditionsHold;
  const clusterValue = new Map<Task, boolean>();
  let conditioned = 0;
  const scopeBase = { settings: input.settings, context: input.context, previous: input.previous };
  for (const task of cat.tasks) {
    if (task.condition === undefined) continue;
    conditioned++;
    if (evaluator.perNode(task.condition, task)) continue;
    const result = evaluator.evaluate(task.condition, task, scopeBase);
    if (result.finding) findings.push(result.finding);
    clusterValue.set(task, result.value);
  }
  if (evaluator.placeholder && conditioned > 0) {
    findings.push(finding('graph/conditions-not-evaluated', 'info', `${conditioned} task conditions were taken as true (as on a first deployment); pass a condition evaluator to skip tasks whose conditions do not hold`));
  }
  for (const template of classes) {
    template.slots.forEach((slot, i) => {
      if (slot.task && clusterValue.get(slot.task) === false) template.skippedSlots.add(i);
    });
  }

  // Vertex ids: each node's slots are contiguous; barriers come last.
  let next = 0;
  for (const node of nodes) {
    node.base = next;
    next += classes[node.classIndex].slots.length;
  }
  const nodeVertices = next;

  // Each node's copy of its class's edges, into arrays made big enough for all of them at once.
  let copied = 0;
  for (const node of nodes) {
    const t = classes[node.classIndex];
    copied += t.localFrom.length + (t.fromSync.length + t.toSync.length) / 2;
  }
  const edges = new EdgeBuffer(Math.max(1 << 16, copied + (copied >> 3)));
  for (const node of nodes) {
    const t = classes[node.classIndex];
    edges.addShifted(t.localFrom, t.localTo, node.base, node.base);
    edges.addPairs(t.fromSync, 0, node.base);
    edges.addPairs(t.toSync, node.base, 0);
  }

  const linker = new CrossLinker(classes, nodes, edges, findings);
  for (const template of classes) {
    if (template.isSync || template.nodes.length === 0) continue;
    template.slots.forEach((slot, i) => {
      const task = slot.task;
      if (!task) return;
      for (const dep of task.crossDepends) if (!dep.sync && !(Array.isArray(dep.role) && dep.role.includes('self'))) linker.after(template, i, task.id, dep);
      for (const dep of task.crossDependedBy) if (!dep.sync && !(Array.isArray(dep.role) && dep.role.includes('self'))) linker.before(template, i, task.id, dep);
    });
  }
  // Legacy tasks.yaml hooks ran one after another within their stage, ordered by the /N suffix.
  const hooks = cat.tasks.map((task, index) => ({ task, index })).filter((h) => h.task.stage);
  hooks.sort((a, b) => a.task.stage!.name.localeCompare(b.task.stage!.name) || a.task.stage!.order - b.task.stage!.order || a.index - b.index);
  for (let i = 1; i < hooks.length; i++) {
    if (hooks[i].task.stage!.name === hooks[i - 1].task.stage!.name) linker.sequence(hooks[i - 1].task.id, hooks[i].task.id);
  }

  // Strategies: node i+k may start a paced task only after node i has finished it. A group's
  // strategy paces each of its members the same way (Astute paced tasks, not whole groups: pacing a
  // group as one block would tie tasks of different stages together).
  // Amounts computed by YAQL read the data of the first node that runs the task (strategy.ts).
  const valueOf = evaluator.value?.bind(evaluator);
  const amounts: AmountContext = {
    findings,
    reported: new Set(),
    ...(valueOf
      ? {
          evaluate: (expression: string, task: Task, v: number) => {
            const i = nodeIndexOf(nodes, v);
            return valueOf(expression, task, { ...scopeBase, node: nodes[i], ...(i >= 2 ? { input: labelled[i - 2].input } : {}) });
          },
        }
      : {}),
  };
  const chain = (vertices: number[], pace: number) => {
    for (let i = 0; i + pace < vertices.length; i++) edges.add(vertices[i], vertices[i + pace]);
  };
  for (const task of cat.tasks) {
    if (task.type === 'group' || task.type === 'stage' || !task.strategy) continue;
    // Where plugins define the id apart, each definition paces only the nodes that run it.
    const all = linker.vertices(task.id);
    const vertices = cat.alternatives.has(task.id) ? all.filter((v) => slotTaskOf(nodes, classes, v) === task) : all;
    const pace = paceOf(task, vertices, amounts);
    if (pace !== undefined) chain(vertices, pace);
  }
  for (const group of cat.groups.values()) {
    if (!group.strategy) continue;
    const members = new Map<string, number[]>();
    // A class's member slots (and the lists their vertices go to) are found on its first node,
    // so the lists are made in the same order as a look at every node would make them.
    const slotsOf: Array<Array<{ slot: number; list: number[] }> | undefined> = [];
    for (let n = 0; n < nodes.length; n++) {
      const node = nodes[n];
      let entries = slotsOf[node.classIndex];
      if (!entries) {
        const t = classes[node.classIndex];
        entries = [];
        for (const [slot, groups] of t.memberOf) {
          if (!groups.includes(group.id) || t.slots[slot].task.strategy) continue;
          const id = t.slots[slot].id;
          entries.push({ slot, list: members.get(id) ?? members.set(id, []).get(id)! });
        }
        slotsOf[node.classIndex] = entries;
      }
      for (let i = 0; i < entries.length; i++) entries[i].list.push(node.base + entries[i].slot);
    }
    for (const vertices of members.values()) {
      const pace = paceOf(group, vertices, amounts);
      if (pace !== undefined) chain(vertices, pace);
    }
  }

  const barrierBase = nodeVertices;
  const vertexCount = nodeVertices + linker.barriers.length;
  linker.flush(barrierBase);
  const { from, to } = edges.finish();

  // Durations, skipped flags and which node runs what.
  const duration = new Float64Array(vertexCount);
  const worker = new Int32Array(vertexCount).fill(-1);
  const skipped = new Uint8Array(vertexCount);
  let taskPairs = 0;
  let skippedPairs = 0;
  // What each slot of a class does on every node of it: runs, is skipped, or asks its node's condition.
  const RUNS = 0;
  const SKIPPED = 1;
  const PER_NODE = 2;
  const slotFates = classes.map((t) =>
    Uint8Array.from(t.slots, (slot, s) => {
      const task = slot.task;
      if (t.skippedSlots.has(s) || task.type === 'skipped') return SKIPPED;
      return task.condition !== undefined && !clusterValue.has(task) ? PER_NODE : RUNS;
    }),
  );
  nodes.forEach((node, nodeIndex) => {
    const t = classes[node.classIndex];
    const fates = slotFates[node.classIndex];
    const input = nodeIndex >= 2 ? labelled[nodeIndex - 2].input : undefined;
    // One scope per node, made on its first per-node condition, not one per (node, task).
    let scope: ConditionScope | undefined;
    const slots = t.slots;
    taskPairs += slots.length;
    for (let s = 0; s < slots.length; s++) {
      const v = node.base + s;
      let skip = fates[s] === SKIPPED;
      if (fates[s] === PER_NODE) {
        const task = slots[s].task;
        const result = evaluator.evaluate(task.condition!, task, (scope ??= { ...scopeBase, node, input }));
        if (result.finding) findings.push(result.finding);
        skip = !result.value;
      }
      if (skip) {
        skipped[v] = 1;
        skippedPairs++;
      } else duration[v] = slots[s].duration;
    }
    if (!t.isSync) worker.fill(nodeIndex, node.base, node.base + slots.length);
  });

  const plan = schedule(vertexCount, from, to, duration, worker, nodes.length);
  const graph: DeploymentGraph = {
    nodes,
    classes,
    barriers: linker.barriers,
    vertexCount,
    barrierBase,
    edgeFrom: from,
    edgeTo: to,
    skipped,
    criticalPath: [],
    makespan: 0,
    counts: { nodes: labelled.length, tasks: taskPairs, skipped: skippedPairs, edges: from.length, barriers: linker.barriers.length },
    findings,
  };

  if (plan.ordered < vertexCount) {
    const mask = new Uint8Array(vertexCount);
    for (let i = 0; i < plan.ordered; i++) mask[plan.order[i]] = 1;
    const cycle = findCycle(vertexCount, plan.adjacency, mask) ?? [];
    graph.cycle = cycle.map((v) => describeVertex(graph, v));
    const steps = graph.cycle.map((p) => `  ${p.task} on ${p.node}`).join('\n    → ');
    const first = cycle.length > 0 ? describeVertex(graph, cycle[0]) : undefined;
    const task = first ? cat.tasks[cat.byId.get(first.task) ?? -1] : undefined;
    findings.push(
      finding('graph/cycle', 'error', `the deployment graph has a cycle, so no order can satisfy it:\n    ${steps}`, task?.origin, 'remove or redirect one of these dependencies (requires, required_for, cross-depends, cross-depended-by, or a strategy)'),
    );
    return graph;
  }

  graph.order = plan.order;
  graph.start = plan.start;
  graph.finish = plan.finish;
  let last = -1;
  for (let v = 0; v < vertexCount; v++) if (last < 0 || plan.finish[v] > plan.finish[last]) last = v;
  graph.makespan = last < 0 ? 0 : plan.finish[last];
  const path: number[] = [];
  for (let v = last; v >= 0; v = plan.decidedBy[v]) path.push(v);
  graph.criticalPath = path
    .reverse()
    .filter((v) => v < barrierBase)
    .map((v) => describeVertex(graph, v));
  return graph;
}
