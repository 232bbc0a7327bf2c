/**
 * One deployment: before a node's first task, its deployment data is written to
 * /etc/hearth/deployment.yaml and /etc/astute.yaml (mode 0600: it holds the settings, passwords
 * included) and every plugin's scripts are delivered to /etc/hearth/plugins/<name>-<version>/;
 * then the graph is walked (run.ts) with each task run by its type (tasks.ts).
 */
import { stringify } from 'yaml';
import type { DeploymentGraph } from '../core/graph/index.js';
import { MASTER_NODE } from '../core/graph/index.js';
import { insideReal, unsendableFolder, type DataFolder } from './confine.js';
import { quote } from './quote.js';
import { runGraph, type RunEvents, type RunSummary, type VertexRef } from './run.js';
import { MARKER_TYPES, PLUGINS_ROOT, redact, runTask, uploadCommand, type ScriptsFolder, type TaskOutcome, type TaskRunContext } from './tasks.js';
import type { DeployTarget, Transport } from './transport.js';

export interface PluginScripts {
  /** `<name>-<version>`: the folder under /etc/hearth/plugins/. */
  folder: string;
  /** The scripts folder on the Hearth server; absent when the source has none. */
  localDir?: string;
  /** The plugin's folder on the Hearth server: the scripts folder must stay inside it, after every link. */
  root?: string;
}

export interface DeploymentPlan {
  graph: DeploymentGraph;
  /** The graph's node ids of real nodes, and how to reach them. */
  targets: ReadonlyMap<string, DeployTarget>;
  /** Each node's deployment data. */
  data: ReadonlyMap<string, Record<string, unknown>>;
  /** Scripts of each task source: `release` and each plugin name (a task's `origin.source`). */
  sources: ReadonlyMap<string, PluginScripts>;
  /** The deployment's working folder on the Hearth server (master_shell runs there). */
  workDir: string;
  secrets: readonly string[];
  /** The server's data folder: nothing of it is sent to a node (confine.ts). */
  dataFolder?: DataFolder;
}

export interface DeployOptions {
  transport: Transport;
  events: RunEvents;
  maxParallel?: number;
  signal?: AbortSignal;
  graceMs?: number;
  /** Stop now, killing running tasks (see run.ts). */
  kill?: AbortSignal;
  hold?: () => Promise<void> | void;
  done?: (vertex: number) => boolean;
  sleep?: (ms: number) => Promise<void>;
}

const scriptsOf = (plan: DeploymentPlan, source: string): ScriptsFolder => {
  const s = plan.sources.get(source) ?? plan.sources.get('release');
  return { ...(s?.localDir ? { localDir: s.localDir } : {}), ...(s?.root ? { pluginRoot: s.root } : {}), remoteDir: s ? `${PLUGINS_ROOT}/${s.folder}` : '/' };
};

/** What a node gets before its first task: its data, then every source's scripts. */
async function prepareNode(plan: DeploymentPlan, transport: Transport, target: DeployTarget, signal: AbortSignal, refusal: string | undefined): Promise<TaskOutcome | undefined> {
  if (refusal) return { exitCode: null, output: '', attempts: 0, message: refusal };
  const data = plan.data.get(target.id) ?? {};
  const yaml = stringify(data, { lineWidth: 0, aliasDuplicateObjects: false });
  const write = `${uploadCommand('/etc/hearth/deployment.yaml', yaml, '0600', '0755')} && cp -p -- /etc/hearth/deployment.yaml /etc/astute.yaml`;
  const r = await transport.exec(target, write, { stdin: yaml, timeoutMs: 120_000, signal });
  if (r.exitCode !== 0 || r.transportError) return { exitCode: r.exitCode, output: redact(r.output, plan.secrets), attempts: 0, message: `writing the deployment data on the node failed: ${r.transportError?.message ?? `exit status ${r.exitCode}`}` };
  for (const s of new Map([...plan.sources.values()].map((p) => [p.folder, p])).values()) {
    const remote = `${PLUGINS_ROOT}/${s.folder}`;
    const sent = s.localDir ? await transport.sync(target, s.localDir, remote, { timeoutMs: 600_000, signal }) : await transport.exec(target, `mkdir -p -- ${quote(remote)}`, { timeoutMs: 60_000, signal });
    if (sent.exitCode !== 0 || sent.transportError) return { exitCode: sent.exitCode, output: redact(sent.output, plan.secrets), attempts: 0, message: `delivering ${s.folder} to the node failed: ${sent.transportError?.message ?? `exit status ${sent.exitCode}`}` };
  }
  return undefined;
}

/**
 * Why the sources' scripts folders may not be sent, or undefined: each is checked before anything
 * reaches a node (a link in one leading out, or a folder of the data folder; rsync's --safe-links
 * is the second guard). Every node's first task then fails with this message.
 */
function unsendableScripts(plan: DeploymentPlan): string | undefined {
  for (const s of new Map([...plan.sources.values()].map((p) => [p.folder, p])).values()) {
    const why = !s.localDir ? undefined : s.root && !insideReal(s.root, s.localDir) ? "it leads out of the plugin's folder" : unsendableFolder(s.localDir, plan.dataFolder);
    if (why) return `the scripts of ${s.folder} (${s.localDir}) cannot be sent to nodes: ${why}; nothing was sent`;
  }
  return undefined;
}

export async function runDeployment(plan: DeploymentPlan, options: DeployOptions): Promise<RunSummary> {
  const refusal = unsendableScripts(plan);
  const prepared = new Map<string, Promise<TaskOutcome | undefined>>();
  // Every node is prepared from the start, max-parallel at a time, so a node whose first task
  // waits for others is ready when it may start: preparation stays off the critical path.
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  options.kill?.addEventListener('abort', () => controller.abort(), { once: true });
  const graphNodes = new Map(plan.graph.nodes.map((n) => [n.id, n]));
  const queue = [...plan.targets.values()].filter((t) => nodeHasWork(plan, graphNodes.get(t.id)));
  let slots = Math.max(1, options.maxParallel ?? 50);
  // Read from `next` on, not shift()ed: shifting an array of thousands of waiting nodes copied it
  // whole each time (run.ts's queue of idle nodes says more).
  const waiting: Array<() => void> = [];
  let next = 0;
  const acquire = () => (slots > 0 ? (slots--, Promise.resolve()) : new Promise<void>((r) => waiting.push(r)));
  const releaseSlot = () => (next < waiting.length ? waiting[next++]() : slots++);
  for (const target of queue) {
    prepared.set(
      target.id,
      acquire().then(() => prepareNode(plan, options.transport, target, controller.signal, refusal).finally(releaseSlot)),
    );
  }
  // One scripts folder per source for the whole run, not one object per task.
  const scriptsBySource = new Map<string, ScriptsFolder>();
  const scriptsFor = (source: string): ScriptsFolder => {
    let s = scriptsBySource.get(source);
    if (!s) scriptsBySource.set(source, (s = scriptsOf(plan, source)));
    return s;
  };
  const execute = async (v: VertexRef, _attempt: number, signal: AbortSignal, onOutput: (chunk: string) => void): Promise<TaskOutcome> => {
    const target = plan.targets.get(v.node);
    const onMaster = v.node === MASTER_NODE || v.task.type === 'master_shell';
    if (!target && !onMaster) return { exitCode: null, output: '', attempts: 0, message: `node ${v.node} has no address to reach it (a simulated node)` };
    if (target && !onMaster) {
      let ready = prepared.get(v.node);
      if (!ready) prepared.set(v.node, (ready = prepareNode(plan, options.transport, target, signal, refusal)));
      const failure = await ready;
      // A node that could not be prepared fails the task; the next attempt prepares it again.
      if (failure) {
        prepared.delete(v.node);
        return failure;
      }
    }
    // Built key by key: spreading optional keys in made an object per key, per task (issue 30).
    const ctx: TaskRunContext = { transport: options.transport, workDir: plan.workDir, scripts: scriptsFor(v.task.origin.source), data: plan.data.get(v.node) ?? {}, secrets: plan.secrets, signal, onOutput };
    if (target && !onMaster) ctx.target = target;
    if (plan.dataFolder) ctx.dataFolder = plan.dataFolder;
    return runTask(v.task, ctx);
  };
  return runGraph({
    graph: plan.graph,
    execute,
    events: options.events,
    ...(options.maxParallel ? { maxParallel: options.maxParallel } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
    ...(options.kill ? { kill: options.kill } : {}),
    ...(options.hold ? { hold: options.hold } : {}),
    ...(options.done ? { done: options.done } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
}

/** Whether a node has a task to run (not only markers): a node with none is not prepared. */
function nodeHasWork(plan: DeploymentPlan, node: DeploymentGraph['nodes'][number] | undefined): boolean {
  if (!node) return false;
  const slots = plan.graph.classes[node.classIndex].slots;
  return slots.some((s, i) => plan.graph.skipped[node.base + i] !== 1 && !MARKER_TYPES.has(s.task.type) && s.task.type !== 'master_shell');
}
