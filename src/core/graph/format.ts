/**
 * The graph in words and pictures: the summary (what `hearth graph --format summary` prints), JSON
 * (per node, per task, direct dependencies; a cross-node rule appears once as a barrier rather than
 * once per pair of nodes, which keeps the output linear), Graphviz DOT and Mermaid.
 */
import type { Finding } from '../findings.js';
import type { DeploymentGraph, TaskPair } from './model.js';
import { barrierLabel, describeVertex, predecessors } from './vertices.js';

export interface GraphSummary {
  nodes: number;
  tasks: number;
  edges: number;
  critical_path: TaskPair[];
  makespan_s: number;
  findings: Finding[];
}

export function summarizeGraph(graph: DeploymentGraph, findings: Finding[] = graph.findings): GraphSummary {
  return {
    nodes: graph.counts.nodes,
    tasks: graph.counts.tasks,
    edges: graph.counts.edges,
    critical_path: graph.criticalPath,
    makespan_s: Math.round(graph.makespan * 1000) / 1000,
    findings,
  };
}

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m ${String(s).padStart(2, '0')}s` : `${s}s`;
}

export function formatSummaryText(graph: DeploymentGraph): string {
  const c = graph.counts;
  const lines = [
    `nodes: ${c.nodes} (plus master and the sync node for stages), node classes: ${graph.classes.length}`,
    `tasks: ${c.tasks} (node, task) pairs, ${c.skipped} skipped by their conditions`,
    `edges: ${c.edges} (cross-node rules through ${c.barriers} barriers)`,
  ];
  if (graph.cycle) {
    lines.push('cycle: no order exists:', ...graph.cycle.map((p, i) => `  ${i === 0 ? ' ' : '→'} ${p.task} on ${p.node}`));
  } else {
    lines.push(`makespan: ${duration(graph.makespan)} (${Math.round(graph.makespan)} s, from task timeouts; an upper estimate)`);
    lines.push(`critical path: ${graph.criticalPath.length} tasks`);
    for (const p of graph.criticalPath) lines.push(`  ${p.node}: ${p.task}`);
  }
  return lines.join('\n') + '\n';
}

type JsonDependency = TaskPair | { barrier: number };

export interface GraphJson {
  /** Each task names its `source`: the release's or a plugin's name, whose definition the node runs. */
  nodes: Array<{ id: string; roles: string[]; labels: string[]; tasks: Array<{ id: string; type: string; source: string; skipped?: true; start_s?: number; finish_s?: number; requires: JsonDependency[] }> }>;
  barriers: Array<{ id: number; meaning: string; requires: JsonDependency[] }>;
  summary: GraphSummary;
}

export function graphToJson(graph: DeploymentGraph): GraphJson {
  const preds = predecessors(graph);
  const depsOf = (v: number): JsonDependency[] => {
    const out: JsonDependency[] = [];
    for (let e = preds.offsets[v]; e < preds.offsets[v + 1]; e++) {
      const u = preds.sources[e];
      out.push(u >= graph.barrierBase ? { barrier: u - graph.barrierBase } : describeVertex(graph, u));
    }
    return out;
  };
  const nodes = graph.nodes
    .filter((n) => graph.classes[n.classIndex].slots.length > 0 || (n.id !== 'sync' && n.id !== 'master'))
    .map((node) => ({
      id: node.id,
      roles: node.roles,
      labels: node.labels,
      tasks: graph.classes[node.classIndex].slots.map((slot, i) => {
        const v = node.base + i;
        const entry: GraphJson['nodes'][number]['tasks'][number] = { id: slot.id, type: slot.task.type, source: slot.task.origin.source, requires: depsOf(v) };
        if (graph.skipped[v]) entry.skipped = true;
        if (graph.start && graph.finish) {
          entry.start_s = graph.start[v];
          entry.finish_s = graph.finish[v];
        }
        return entry;
      }),
    }));
  const barriers = graph.barriers.map((_, b) => ({ id: b, meaning: barrierLabel(graph, b), requires: depsOf(graph.barrierBase + b) }));
  return { nodes, barriers, summary: summarizeGraph(graph) };
}

const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** Graphviz: one cluster per node; barriers are small diamonds. */
export function graphToDot(graph: DeploymentGraph): string {
  const out = ['digraph deployment {', '  rankdir=LR;', '  node [shape=box, fontsize=10];'];
  graph.nodes.forEach((node, n) => {
    const slots = graph.classes[node.classIndex].slots;
    if (slots.length === 0) return;
    out.push(`  subgraph cluster_${n} {`, `    label=${quote(node.id)};`);
    slots.forEach((slot, i) => {
      const v = node.base + i;
      const style = graph.skipped[v] ? ', style=dashed' : slot.task.type === 'stage' ? ', shape=ellipse' : '';
      out.push(`    v${v} [label=${quote(slot.id)}${style}];`);
    });
    out.push('  }');
  });
  graph.barriers.forEach((_, b) => out.push(`  v${graph.barrierBase + b} [shape=diamond, label="", xlabel=${quote(barrierLabel(graph, b))}, width=0.2, height=0.2];`));
  for (let e = 0; e < graph.edgeFrom.length; e++) out.push(`  v${graph.edgeFrom[e]} -> v${graph.edgeTo[e]};`);
  out.push('}');
  return out.join('\n') + '\n';
}

/** Mermaid flowchart: one subgraph per node; barriers as small circles. */
export function graphToMermaid(graph: DeploymentGraph): string {
  const text = (s: string) => `"${s.replace(/"/g, '#quot;')}"`;
  const out = ['flowchart LR'];
  graph.nodes.forEach((node, n) => {
    const slots = graph.classes[node.classIndex].slots;
    if (slots.length === 0) return;
    out.push(`  subgraph n${n}[${text(node.id)}]`);
    slots.forEach((slot, i) => out.push(`    v${node.base + i}[${text(slot.id)}]`));
    out.push('  end');
  });
  graph.barriers.forEach((_, b) => out.push(`  v${graph.barrierBase + b}((${text(barrierLabel(graph, b))}))`));
  for (let e = 0; e < graph.edgeFrom.length; e++) out.push(`  v${graph.edgeFrom[e]} --> v${graph.edgeTo[e]}`);
  return out.join('\n') + '\n';
}
