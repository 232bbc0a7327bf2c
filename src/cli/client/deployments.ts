/**
 * `hearth deployment list | show | logs | follow` and `hearth env graph run`: the runs of every
 * environment, one run's tasks and their output, attaching to a running one from any machine, and
 * running any graph type on the nodes chosen. Human text by default; `--json` prints the API's
 * objects as it sends them, with the model's words.
 */
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import { clusterId } from './refs.js';
import { print, table } from './table.js';
import { chosenFormat, listOutput, showOutput, type Column, type OutputOptions } from '../output.js';
import { duration, outcomeOf, progressText, stamp, type TaskLike } from './progress.js';
import { awaitEnd, follow, printOutcome } from './follow.js';
import type { Schemas } from '../../api/client.js';

type Deployment = Schemas['Deployment'];
type TaskRun = Schemas['TaskRun'] & TaskLike;

const usage = (message: string) => new ClientError(message, EXIT_USAGE);

function deploymentId(ref: string): number {
  if (!/^\d+$/.test(ref)) throw usage(`'${ref}' is not a deployment id (hearth deployment list shows them)`);
  return Number(ref);
}

/** The environment's nodes: id (as the task records write it) to name. */
async function nodesOf(c: Client, cluster: number): Promise<Map<string, string>> {
  return new Map((await c.call('get', '/nodes', { query: { cluster_id: cluster } })).map((n) => [String(n.id), n.name]));
}

/** A node given by name or id, as the task records write it (its id). */
function nodeRef(names: Map<string, string>, ref: string): string {
  if (names.has(ref) || ref === 'master' || ref === 'sync') return ref;
  const byName = [...names].find(([, name]) => name === ref);
  if (byName) return byName[0];
  if (/^\d+$/.test(ref)) return ref;
  throw new ClientError(`there is no node '${ref}' in this deployment's environment (hearth node list --env shows them)`, EXIT_FINDINGS);
}

const took = (t: { started_at: string | null; finished_at: string | null }) => (t.started_at && t.finished_at ? duration(Date.parse(t.finished_at) - Date.parse(t.started_at), true) : null);

/** A deployment with its environment's name, as the list shows it. */
type Listed = Deployment & { env_name?: string };

const DEPLOYMENT_COLUMNS: Array<Column<Listed>> = [
  { header: 'id', value: (d) => d.id },
  { header: 'env', value: (d) => d.env_name ?? d.cluster_id },
  { header: 'graph', value: (d) => d.graph_type },
  { header: 'mode', value: (d) => d.mode },
  { header: 'status', value: (d) => d.status },
  { header: 'progress', value: (d) => progressText(d) },
  { header: 'started', value: (d) => stamp(d.started_at) },
  { header: 'by', value: (d) => d.requested_by ?? null },
  { header: 'took', value: (d) => (d.finished_at ? duration(Date.parse(d.finished_at) - Date.parse(d.started_at)) : null) },
];

export const deploymentList = (o: ServerOptions & OutputOptions & { env?: string }) =>
  run(o, async (c) => {
    const out = listOutput(o, DEPLOYMENT_COLUMNS);
    const query = o.env ? { cluster_id: await clusterId(c, o.env) } : {};
    const list = await c.call('get', '/deployments', { query });
    // JSON and YAML of the whole list are the API's objects: no environment names to look up.
    const envs = out.format === 'json' || out.format === 'yaml' ? new Map<number, string>() : new Map((await c.call('get', '/clusters')).map((e) => [e.id, e.name]));
    process.stdout.write(await out.render(list.map((d) => ({ ...d, env_name: envs.get(d.cluster_id) })), list));
  });

export const deploymentShow = (ref: string, o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    const format = chosenFormat(o);
    const id = deploymentId(ref);
    const d = await c.call('get', '/deployments/{id}', { params: { id } });
    if (format !== 'table' || o.column?.length) return void process.stdout.write(await showOutput(o, d, () => ''));
    const [tasks, names, env] = await Promise.all([
      c.call('get', '/deployments/{id}/tasks', { params: { id } }) as Promise<TaskRun[]>,
      nodesOf(c, d.cluster_id).catch(() => new Map<string, string>()),
      c.call('get', '/clusters/{id}', { params: { id: d.cluster_id } }).catch(() => undefined),
    ]);
    tasks.sort((a, b) => a.position - b.position);
    process.stdout.write(
      `${d.dry_run ? 'dry run' : 'deployment'} ${d.id} of ${env ? `environment ${env.name}` : `environment ${d.cluster_id}`}, graph ${d.graph_type}: ${d.status}${d.message ? ` (${d.message})` : ''}\n` +
        `${progressText(d, tasks)}\nstarted ${stamp(d.started_at)}${d.requested_by ? ` by ${d.requested_by}` : ''}${d.finished_at ? `, ended ${stamp(d.finished_at)} (${duration(Date.parse(d.finished_at) - Date.parse(d.started_at))})` : ''}${d.dry_run ? '\nsimulated: nothing ran on the nodes' : ''}\n\n` +
        table(
          ['node', 'task', 'outcome', 'exit', 'attempts', 'started', 'took', 'message'],
          tasks.map((t) => [names.get(t.node) ?? t.node, t.task_id, outcomeOf(t), t.exit_status, t.attempts || null, t.started_at ? stamp(t.started_at) : null, took(t), t.message]),
        ),
    );
  });

export const deploymentLogs = (ref: string, o: ServerOptions & { node?: string; task?: string }) =>
  run(o, async (c) => {
    const id = deploymentId(ref);
    const d = await c.call('get', '/deployments/{id}', { params: { id } });
    const names = await nodesOf(c, d.cluster_id).catch(() => new Map<string, string>());
    const query = { output: true, ...(o.node !== undefined ? { node: nodeRef(names, o.node) } : {}), ...(o.task !== undefined ? { task: o.task } : {}) };
    const tasks = (await c.call('get', '/deployments/{id}/tasks', { params: { id }, query })) as TaskRun[];
    // In the order they ran (the API answers failures first).
    tasks.sort((a, b) => String(a.started_at ?? '~').localeCompare(String(b.started_at ?? '~')) || a.position - b.position);
    if (o.json) return print(true, tasks, () => '');
    const shown = tasks.filter((t) => t.started_at || t.output);
    if (!shown.length) {
      process.stderr.write(`hearth: deployment ${id} has no task output${o.node || o.task ? ' for that node and task' : ''}${d.dry_run ? ' (a dry run runs nothing on the nodes)' : ''}\n`);
      return;
    }
    for (const t of shown) {
      const exit = t.exit_status !== null ? `, exit ${t.exit_status}` : '';
      process.stdout.write(`==> ${t.task_id} on ${names.get(t.node) ?? t.node}: ${outcomeOf(t)}${exit}, started ${t.started_at ? stamp(t.started_at) : '-'}${took(t) ? `, took ${took(t)}` : ''} <==\n`);
      const out = t.output ?? '';
      process.stdout.write(out ? (out.endsWith('\n') ? out : `${out}\n`) : '(no output)\n');
    }
  });

export const deploymentFollow = (ref: string, o: ServerOptions) =>
  run(o, async (c) => {
    const id = deploymentId(ref);
    const end = await follow(c, await c.call('get', '/deployments/{id}', { params: { id } }), o.json ?? false);
    printOutcome(end.deployment, o.json ?? false, end.tasks);
  });

/**
 * `hearth env graph run <env> <type>`: `POST /clusters/{id}/graphs/{type}/run {nodes?, dry_run?}`,
 * answered 202 with the deployment, as `POST …/deploy` is.
 */
export const envGraphRun = (ref: string, type: string, o: ServerOptions & { nodes?: string; dryRun?: boolean; follow?: boolean; wait?: boolean }) =>
  run(o, async (c) => {
    const id = await clusterId(c, ref);
    let nodes: number[] | undefined;
    if (o.nodes !== undefined) {
      const names = await nodesOf(c, id);
      const wanted = o.nodes.split(',').map((s) => s.trim()).filter(Boolean);
      if (!wanted.length) throw usage('--nodes needs node names or ids, comma-separated');
      nodes = wanted.map((w) => {
        const at = [...names].find(([nodeId, name]) => nodeId === w || name === w)?.[0];
        if (at === undefined) throw new ClientError(`node '${w}' is not in environment '${ref}' (hearth env show ${ref} lists its nodes)`, EXIT_FINDINGS);
        return Number(at);
      });
    }
    const body = { ...(nodes ? { nodes } : {}), ...(o.dryRun !== undefined ? { dry_run: o.dryRun } : {}) };
    // Untyped until the route is in the generated types (src/api/schema.ts); its answer is a Deployment.
    const post = c.call as unknown as (method: 'post', path: string, request: object) => Promise<Deployment>;
    const d = await post('post', '/clusters/{id}/graphs/{type}/run', { params: { id, type }, body });
    if (o.wait === false && !o.follow) return print(o.json, d, () => `started ${d.dry_run ? 'dry run' : 'deployment'} ${d.id} of graph ${d.graph_type} (hearth deployment follow ${d.id} watches it)\n`);
    const end = o.follow ? await follow(c, d, o.json ?? false) : await awaitEnd(c, d, o.json ?? false);
    printOutcome(end.deployment, o.json ?? false, end.tasks);
  });
