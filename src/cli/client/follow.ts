/**
 * `hearth env deploy --follow`, `hearth deployment follow` and `hearth env stop`: a deployment's
 * tasks printed as they end (failures with their reason and the end of their output), from the
 * live event stream the web UI reads (`GET /deployments/{id}/events`), so any machine can attach
 * to a run any server is running. Each line has its time (ISO order, 24-hour, with the date) and
 * the node's name; a task silent for 30 s (HEARTH_FOLLOW_HEARTBEAT_S) gets a "still running" line,
 * so a long task is not mistaken for a hung client.
 */
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import { print } from './table.js';
import { progressLine } from '../progress-line.js';
import { duration, hasEnded, outcomeOf, progressText, stamp, type TaskLike } from './progress.js';
import type { Schemas } from '../../api/client.js';

type Deployment = Schemas['Deployment'];
type TaskRun = Schemas['TaskRun'] & TaskLike;

const tail = (text: string | null | undefined, lines = 10) => (text ?? '').trimEnd().split('\n').slice(-lines).map((l) => `      ${l}`).join('\n');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BROKE = new Set(['failed', 'timed_out', 'killed']);

/** Seconds of silence before a running task's "still running" line (tests shorten it). */
export function heartbeatMs(): number {
  const s = Number(process.env.HEARTH_FOLLOW_HEARTBEAT_S);
  return Number.isFinite(s) && s > 0 ? s * 1000 : 30_000;
}

/** Node ids to names, for the environment's nodes (`sync` and `master` are their own names). */
async function nodeNames(c: Client, clusterId: number): Promise<Map<string, string>> {
  const nodes = await c.call('get', '/nodes', { query: { cluster_id: clusterId } }).catch(() => []);
  return new Map(nodes.map((n) => [String(n.id), n.name]));
}

/** Whether a run ended as a script can build on: only `succeeded` is. */
export const runSucceeded = (d: Deployment): boolean => d.status === 'succeeded';

/**
 * Prints each task of the deployment once it has ended, then returns the deployment at its end.
 * A stream the server drops (a restart, a proxy) is attached again while the run is running.
 */
export async function follow(c: Client, start: Deployment, json: boolean): Promise<{ deployment: Deployment; tasks: TaskRun[] }> {
  const names = await nodeNames(c, start.cluster_id);
  const nameOf = (node: string) => names.get(node) ?? node;
  const printed = new Set<string>();
  const running = new Map<string, { task: string; node: string; since: number; heard: number }>();
  const key = (t: { node: string; task_id: string }) => `${t.node}\u0000${t.task_id}`;
  const notice = (line: string) => (json ? process.stderr : process.stdout).write(`${line}\n`);

  const ended = async (t: TaskRun) => {
    const k = key(t);
    running.delete(k);
    if (printed.has(k)) return;
    printed.add(k);
    if (json) return void process.stdout.write(`${JSON.stringify({ ...t, output: undefined })}\n`);
    const outcome = outcomeOf(t);
    const took = t.started_at && t.finished_at ? `, ${duration(Date.parse(t.finished_at) - Date.parse(t.started_at), true)}` : '';
    const exit = t.exit_status !== null && t.exit_status !== 0 ? ` (exit ${t.exit_status})` : '';
    const attempts = t.attempts > 1 ? ` after ${t.attempts} attempts` : '';
    process.stdout.write(`${stamp(t.finished_at ?? Date.now())}  ${outcome.padEnd(9)}  ${t.task_id} on ${nameOf(t.node)}${exit}${attempts}${took}${t.message ? `: ${t.message}` : ''}\n`);
    if (BROKE.has(outcome)) {
      // The stream's task events carry no output: the failure's is read once, for its tail.
      const [withOutput] = await c.call('get', '/deployments/{id}/tasks', { params: { id: start.id }, query: { node: t.node, task: t.task_id, output: true } }).catch(() => []);
      if (withOutput?.output) process.stdout.write(`${tail(withOutput.output)}\n`);
    }
  };
  const seen = async (t: TaskRun) => {
    if (hasEnded(t)) return ended(t);
    if (outcomeOf(t) !== 'running') return;
    if (!names.has(t.node) && /^\d+$/.test(t.node)) for (const [id, name] of await nodeNames(c, start.cluster_id)) names.set(id, name);
    const k = key(t);
    const since = t.started_at ? Date.parse(t.started_at) : Date.now();
    if (!running.has(k)) running.set(k, { task: t.task_id, node: t.node, since, heard: Date.now() });
  };

  const every = heartbeatMs();
  const beat = setInterval(() => {
    const now = Date.now();
    for (const r of running.values()) {
      if (now - r.heard < every) continue;
      r.heard = now;
      notice(`${stamp(now)}  still running: ${r.task} on ${nameOf(r.node)}, ${duration(now - r.since)}`);
    }
  }, Math.min(1000, every));
  let d = start;
  try {
    for (;;) {
      let over = false;
      const stop = new AbortController();
      for await (const e of c.events('/deployments/{id}/events', { id: start.id }, stop.signal)) {
        if (e.event === 'task') await seen(e.data as TaskRun);
        else if (e.event === 'output') {
          const chunk = e.data as { node: string; task_id: string };
          const r = running.get(key(chunk));
          if (r) r.heard = Date.now();
        } else if (e.event === 'deployment' || e.event === 'end') {
          d = e.data as Deployment;
          if (e.event === 'end') over = true;
        }
        if (over) break;
      }
      stop.abort();
      if (!over) d = await c.call('get', '/deployments/{id}', { params: { id: start.id } });
      if (over || d.status !== 'running') break;
      await sleep(1000);
    }
    // Whatever the stream did not show (it was dropped near the end): from the stored records.
    const tasks = (await c.call('get', '/deployments/{id}/tasks', { params: { id: start.id } })) as TaskRun[];
    const left = tasks.filter((t) => hasEnded(t) && !printed.has(key(t)));
    left.sort((a, b) => String(a.finished_at ?? '').localeCompare(String(b.finished_at ?? '')) || a.position - b.position);
    for (const t of left) await ended(t);
    return { deployment: d, tasks };
  } finally {
    clearInterval(beat);
  }
}

/** The last line of a followed or awaited run, and its exit status: 0 only when it succeeded. */
export function printOutcome(d: Deployment, json: boolean, tasks?: readonly TaskLike[]): void {
  print(json, d, () => `${d.dry_run ? 'dry run' : 'deployment'} ${d.id}: ${d.status}${d.message ? ` (${d.message})` : ''}, ${progressText(d, tasks)}${d.dry_run ? ' (simulated: nothing ran on the nodes)' : ''}\n`);
  if (!runSucceeded(d)) process.exitCode = EXIT_FINDINGS;
}

/**
 * Polls a run until it ends (for `--wait`), showing progress on stderr (redrawn on a terminal, a
 * line per step in a pipe; nothing with --json); returns it
 * ended, with its task records when the server sends no `counts` (to count them honestly).
 */
export async function awaitEnd(c: Client, start: Deployment, json: boolean): Promise<{ deployment: Deployment; tasks?: TaskRun[] }> {
  let d = start;
  const line = json ? undefined : progressLine(process.stderr);
  try {
    while (d.status === 'running') {
      line?.update(`${d.dry_run ? 'dry run' : 'deploying'} ${d.id}: ${progressText(d)} (${d.progress}%)`);
      await sleep(250);
      d = await c.call('get', '/deployments/{id}', { params: { id: start.id } });
    }
  } finally {
    line?.end();
  }
  if ('counts' in d || json) return { deployment: d };
  return { deployment: d, tasks: (await c.call('get', '/deployments/{id}/tasks', { params: { id: d.id } })) as TaskRun[] };
}

async function clusterOf(c: Client, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const found = (await c.call('get', '/clusters')).find((x) => x.name === ref);
  if (!found) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, EXIT_FINDINGS);
  return found.id;
}

export const envStop = (ref: string, o: ServerOptions & { grace?: string; wait?: boolean }) =>
  run(o, async (c) => {
    const grace = o.grace === undefined ? undefined : Number(o.grace);
    if (grace !== undefined && !(Number.isInteger(grace) && grace >= 0 && grace <= 86400)) throw new ClientError('--grace must be a whole number of seconds from 0 to 86400', EXIT_USAGE);
    const id = await clusterOf(c, ref);
    const d = await c.call('post', '/clusters/{id}/stop', { params: { id }, body: grace === undefined ? {} : { grace_s: grace } });
    if (!o.wait) {
      print(o.json, d, () => `stopping deployment ${d.id}: nothing new starts; running tasks finish or are killed after ${grace ?? 30} s\n`);
      return;
    }
    if (!o.json) process.stderr.write(`stopping deployment ${d.id}: nothing new starts; running tasks finish or are killed after ${grace ?? 30} s\n`);
    const { deployment: end, tasks } = await awaitEnd(c, d, o.json ?? false);
    printOutcome(end, o.json ?? false, tasks);
    // The stop did what was asked when the run ended stopped; a run that finished, failed or was
    // interrupted before the stop took says so with exit status 1.
    process.exitCode = end.status === 'stopped' ? 0 : EXIT_FINDINGS;
  });
