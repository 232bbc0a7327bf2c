import type { GraphTask } from './schedule.js';

/** The graph endpoint's JSON (`format=json`): nodes with their tasks and dependencies. */
export interface GraphJson {
  nodes?: Array<{ id: string; tasks: Array<{ id: string; type?: string; duration_s?: number; start_s?: number; requires?: Array<{ node: string; task: string }> }> }>;
  critical_path?: Array<{ node: string; task: string }>;
  findings?: Array<{ code: string; message: string; severity?: string }>;
}

export function readGraph(json: GraphJson): { tasks: GraphTask[]; critical: Array<{ node: string; task: string }>; findings: Array<{ message: string }> } {
  const tasks: GraphTask[] = [];
  for (const node of json.nodes ?? []) {
    for (const t of node.tasks ?? []) {
      tasks.push({ node: String(node.id), task: t.id, type: t.type, duration: t.duration_s ?? 0, start: t.start_s, deps: t.requires ?? [] });
    }
  }
  return { tasks, critical: json.critical_path ?? [], findings: json.findings ?? [] };
}
