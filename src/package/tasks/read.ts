/**
 * Reading a Fuel library tasks folder (`fuel-library/`): `deployment/**\/tasks.yaml` is the default
 * graph; `graphs/<folder>/**\/tasks.yaml` with that folder's `metadata.yaml` are the other graph
 * types. Task ids are unique per graph, not globally (`move_to_bootstrap` is in two graphs).
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import { normalizeTasks } from '../../core/tasks/normalize.js';
import type { Task } from '../../core/tasks/model.js';
import { readYamlFile } from '../yaml/index.js';

export interface TasksFolderGraph {
  metadata?: Record<string, unknown>;
  tasks: Task[];
}

export interface TasksFolder {
  graphs: Record<string, TasksFolderGraph>;
  findings: Finding[];
}

/** Fuel's folder names for graph types, mapped to the type names Nailgun used. */
const FOLDER_TYPES: Record<string, string> = {
  provision: 'provisioning',
  provisioning: 'provisioning',
  deletion: 'deletion',
  'net-verification': 'network_verification',
  network_verification: 'network_verification',
  deployment: 'default',
  default: 'default',
};

export function graphTypeOfFolder(folder: string): string {
  return FOLDER_TYPES[folder] ?? folder;
}

function tasksFiles(dir: string, out: string[], depth = 0, seen = new Set<string>()): void {
  if (depth > 32) return;
  // A folder reached twice through links (`a -> .`, `b -> .`) would be walked 2^depth times.
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return;
  }
  if (seen.has(real)) return;
  seen.add(real);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    let stat;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) tasksFiles(path, out, depth + 1, seen);
    else if (name === 'tasks.yaml' || name === 'tasks.yml') out.push(path);
  }
}

export function readTasksFolder(dir: string): TasksFolder {
  const findings: Finding[] = [];
  const graphs: Record<string, TasksFolderGraph> = {};
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
  } catch {
    findings.push(finding('tasks/no-folder', 'error', `'${dir}' is not a folder of task files`, undefined, 'point --tasks at a fuel-library checkout (with deployment/ and graphs/)'));
    return { graphs, findings };
  }
  const files: string[] = [];
  tasksFiles(dir, files);
  const firstSeen = new Map<string, Map<string, Task>>();
  for (const path of files) {
    const display = relative(dir, path).split(sep).join('/');
    const parts = display.split('/');
    // graphs/<type>/... → that type; anything else (deployment/... or a bare folder) → default.
    const type = parts[0] === 'graphs' && parts.length > 2 ? graphTypeOfFolder(parts[1]) : 'default';
    const parsed = readYamlFile(path, display);
    findings.push(...parsed.findings);
    if (!parsed.ok) continue;
    const result = normalizeTasks(parsed.value, { source: 'release', file: display }, 'deployment');
    findings.push(...result.findings);
    const graph = (graphs[type] ??= { tasks: [] });
    const seen = firstSeen.get(type) ?? new Map<string, Task>();
    firstSeen.set(type, seen);
    for (const task of result.tasks) {
      const earlier = seen.get(task.id);
      if (earlier) {
        findings.push(
          finding('task/duplicate-id', 'error', `task '${task.id}' of the ${type} graph is defined twice: here and at ${earlier.origin.file}:${earlier.origin.line ?? '?'}; the later one wins`, { file: task.origin.file, line: task.origin.line, column: task.origin.column }, 'task ids must be unique within a graph'),
        );
        graph.tasks[graph.tasks.indexOf(earlier)] = task;
      } else graph.tasks.push(task);
      seen.set(task.id, task);
    }
  }
  // Graph metadata (node_filter, on_success, ...) lives beside the graph's tasks.
  const graphsDir = join(dir, 'graphs');
  let folders: string[] = [];
  try {
    folders = readdirSync(graphsDir).sort();
  } catch {
    folders = [];
  }
  for (const folder of folders) {
    const metaPath = join(graphsDir, folder, 'metadata.yaml');
    try {
      if (!statSync(metaPath).isFile()) continue;
    } catch {
      continue;
    }
    const display = `graphs/${folder}/metadata.yaml`;
    const parsed = readYamlFile(metaPath, display);
    findings.push(...parsed.findings);
    if (!parsed.ok || parsed.value === undefined || parsed.value === null) continue;
    if (typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
      findings.push(finding('graph/invalid-metadata', 'error', `${display} must be a mapping (node_filter, on_success, on_error, on_stop)`, positionOf(parsed.value) ?? { file: display, line: 1, column: 1 }));
      continue;
    }
    const type = graphTypeOfFolder(folder);
    (graphs[type] ??= { tasks: [] }).metadata = parsed.value as Record<string, unknown>;
  }
  if (files.length === 0) {
    findings.push(finding('tasks/no-tasks', 'warning', `no tasks.yaml files under '${dir}'`, undefined, 'point --tasks at a fuel-library checkout (with deployment/ and graphs/)'));
  }
  return { graphs, findings };
}
