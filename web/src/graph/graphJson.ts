import type { Schemas } from '../../../src/api/client.js';
import type { GraphTask } from './schedule.js';

/** The graph endpoint's JSON (`format=json`): nodes with their scheduled tasks, and barriers. */
export type GraphJson = Schemas['DeploymentGraph'];

/**
 * Flatten the server's graph for drawing. A barrier (one vertex standing for "every node of a role")
 * is shown by what it means, not expanded into node pairs.
 */
export function readGraph(json: GraphJson): { tasks: GraphTask[]; critical: Array<{ node: string; task: string }>; findings: Array<{ message: string }>; roles: Map<string, string[]> } {
  const barrierName = new Map((json.barriers ?? []).map((b) => [b.id, b.meaning]));
  const tasks: GraphTask[] = [];
  for (const node of json.nodes ?? []) {
    for (const t of node.tasks ?? []) {
      if (t.skipped) continue;
      const deps = (t.requires ?? []).map((d) => ('barrier' in d ? { node: 'all', task: barrierName.get(d.barrier) ?? `barrier ${d.barrier}` } : d));
      const start = t.start_s ?? 0;
      tasks.push({ node: String(node.id), task: t.id, type: t.type, duration: Math.max(0, (t.finish_s ?? start) - start), start, deps });
    }
  }
  const roles = new Map((json.nodes ?? []).map((n) => [String(n.id), n.roles ?? []]));
  return { tasks, critical: json.critical_path ?? [], findings: json.findings ?? [], roles };
}
