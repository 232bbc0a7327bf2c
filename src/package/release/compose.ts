/**
 * A release read offline (a release plugin folder or a Fuel fixture) composed with plugin folders:
 * what `hearth release show`, `hearth graph` and `hearth components` print, and what tests and
 * benchmarks compose from disk.
 */
import type { Finding } from '../../core/findings.js';
import { composeRelease, type Composition } from '../../core/release/compose.js';
import type { Task } from '../../core/tasks/model.js';
import type { PluginContribution } from '../../core/release/plugin.js';
import { loadPlugin } from '../plugin/index.js';
import { contributionFromPlugin } from './contribution.js';
import { loadReleaseSource } from './source.js';

export interface ShowReleaseOptions {
  release?: string;
  releaseVersion?: string;
  tasks?: string;
  plugin: string[];
  json?: boolean;
}

/** Compose a release source with plugin folders; everything the command prints comes from here. */
export function composeFromDisk(options: ShowReleaseOptions): { composition?: Composition; findings: Finding[] } {
  const source = loadReleaseSource(options.release!, { ...(options.releaseVersion ? { version: options.releaseVersion } : {}), ...(options.tasks ? { tasksDir: options.tasks } : {}) });
  const findings = [...source.findings];
  const plugins: PluginContribution[] = [];
  for (const dir of options.plugin) {
    const loaded = loadPlugin(dir);
    const prefix = (f: Finding): Finding => ({ ...f, file: f.file ? `${dir}/${f.file}` : dir });
    // Missing deployment_scripts/ or repositories/ matter to packaging, never to composition.
    findings.push(...loaded.findings.filter((f) => f.severity === 'error' && f.code !== 'release/missing-folder').map(prefix));
    if (!loaded.plugin) continue;
    const converted = contributionFromPlugin(loaded.plugin);
    findings.push(...converted.findings.filter((f) => f.severity === 'error').map(prefix));
    plugins.push(converted.contribution);
  }
  if (!source.release) return { findings };
  const composition = composeRelease(source.release, plugins);
  findings.push(...composition.findings);
  return { composition, findings };
}

/** A task id that several plugins define: each definition's plugin and where it runs. */
export interface SharedTask {
  graph: string;
  id: string;
  definitions: Array<{ plugin: string; runs_on: string }>;
}

const selectorText = (task: Task): string => {
  const selector = task.roles ?? task.tags ?? task.groups;
  if (selector === undefined) return task.type === 'group' ? task.id : 'no node';
  return selector === '*' ? 'every node' : selector.join(', ');
};

/** Ids with definitions from several plugins: each node runs the one whose roles it holds. */
export function sharedTasks(graphs: Composition['composed']['graphs']): SharedTask[] {
  const out: SharedTask[] = [];
  for (const [graph, { tasks }] of Object.entries(graphs)) {
    const byId = new Map<string, Task[]>();
    for (const task of tasks) byId.set(task.id, [...(byId.get(task.id) ?? []), task]);
    for (const [id, list] of byId) {
      if (new Set(list.map((t) => t.origin.source)).size < 2) continue;
      out.push({ graph, id, definitions: list.map((t) => ({ plugin: t.origin.source, runs_on: t.type === 'skipped' ? `skipped on ${selectorText(t)}` : selectorText(t) })) });
    }
  }
  return out;
}
