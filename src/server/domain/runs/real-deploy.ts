/**
 * Real deployments: the dry run's checks (deploy.ts's checkDeployable), then the refusals only a real run has
 * (simulated nodes, files Hearth does not hold), then the graph walked on the nodes by deploy/,
 * whose reports are persisted here in batches. A run belongs to the server that started it; stop
 * reaches it through this server's registry.
 */
import { deploymentNetworksOf } from '../networks.js';
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeVertex } from '../../../core/graph/index.js';
import { environmentStateAfterRun, graphKindOf, nodeStateAfterRun, nodeStateDuringRun, ranThrough, type NodeState } from '../../../core/lifecycle/index.js';
import { runDeployment, type StopReason, type Transport } from '../../../deploy/index.js';
import * as store from '../../../store/index.js';
import * as real from '../../../store/real-nodes.js';
import { LiveCounts } from '../../../store/live-counts.js';
import * as runs from '../../../store/task-runs.js';
import { processAlive } from '../../../store/lock.js';
import { HttpError, storageFailure } from '../../errors.js';
import { buildDeployableGraph, checkDeployable, clusterGraph, type RecordRun } from './deploy.js';
import { nodeVolumesOf } from '../disks.js';
import { clusterOr404 } from '../environment.js';
import { toleranceBreaches } from '../../../deploy/tolerance.js';
import { runReports } from './run-reports.js';
import { keepLiveOutput } from './live-output.js';
import { deploymentData, refuseMissingFiles, settingsOf, sourcesOf, targetsOf } from './real-plan.js';
import type { PluginFiles } from '../plugin-files.js';
import { endRemoval, type Removal } from './removal-end.js';

export interface RealDeployOptions {
  transport: Transport;
  registry: RunRegistry;
  /** Where this server finds plugins' files (packages unpacked on demand). */
  files: PluginFiles;
  /** Where nodes reach this server (plugin repositories). */
  publicUrl?: string;
  /** Run only what the environment's last (unsuccessful) real deployment did not finish. */
  resume?: boolean;
  /** Leave offline nodes out (named in the run's record) instead of refusing. */
  skipOffline?: boolean;
  /** Run on these nodes only (a graph run on the nodes chosen). */
  only?: readonly number[];
  /** A deletion run removing these nodes (node-removal.ts): `removing` meanwhile, out of the environment when it succeeded on them. */
  removal?: Removal;
  /** Who asked for the run (audit.ts's whoAsked), kept with it. */
  requestedBy?: string;
  /** Writes its audit entry in the run's own transaction. */
  record?: RecordRun;
  maxParallel?: number;
  /** Flush task reports every this many ms (and at the end). */
  flushMs?: number;
  graceMs?: number;
  /** Where the bookkeeping's failures are told (the server's log). */
  log?: RunLog;
}

/** The little of a logger (pino's) a run's bookkeeping needs. */
export interface RunLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const rolesOfNode = (n: store.NodeRecord): string[] => [...new Set([...n.roles, ...n.pendingRoles])];

/** Running real deployments of one server (one app), by id: their stop switch and their end. */
export type RunRegistry = Map<number, { stop: AbortController; done: Promise<void>; output: EventEmitter; shutdown?: AbortController }>;

/** A chunk of a running task's output, as the live stream sends it. */
export interface OutputChunk {
  node: string;
  task_id: string;
  chunk: string;
}
const registries = new WeakMap<object, RunRegistry>();
export function registryOf(owner: object): RunRegistry {
  let r = registries.get(owner);
  if (!r) registries.set(owner, (r = new Map()));
  return r;
}

export async function startRealDeployment(db: store.Database, presence: store.Presence, clusterId: number, type: string, options: RealDeployOptions): Promise<number> {
  const choice = { real: true, ...(options.skipOffline ? { skipOffline: true } : {}), ...(options.only ? { only: options.only } : {}) };
  const built = await buildDeployableGraph(db, clusterId, type, choice);
  const prepared: Prepared = await db.transaction(async (tx) => {
    const { cluster, graph, order, nodes, composition, offline, disks } = await checkDeployable(tx, presence, clusterId, type, { ...choice, ...(built ? { built } : {}) });
    const sources = await sourcesOf(tx, cluster, options.files);
    const missing = refuseMissingFiles(graph, sources);
    if (missing) throw missing;
    let resumed: { id: number; done: Set<string> } | undefined;
    // A deletion run resumed (after a stop or a crash, on any server) ends the removal it was started for.
    let removal = options.removal;
    if (options.resume) {
      const r = await runs.resumable(tx, cluster.id, type);
      if ('refusal' in r) throw new HttpError(409, 'deploy/nothing-to-resume', `cannot resume environment '${cluster.name}': ${r.refusal}`, { hint: 'deploy without --resume' });
      resumed = r;
      if (!removal) {
        // Nodes the first run cleaned have left the environment already: only those still in it.
        const first = await runs.removalOf(tx, r.id);
        const here = new Set(nodes.map((n) => n.id));
        if (first) removal = { ...first, nodes: first.nodes.filter((id) => here.has(id)) };
      }
    }
    const tasks: Array<{ node: string; taskId: string; skipped?: boolean; type: string; doneIn?: number }> = [];
    const done = new Set<number>();
    // Each task vertex's row: its place in the run.
    const positions = new Int32Array(graph.barrierBase);
    const nodeIndex = new Map(graph.nodes.map((n) => [n.id, n]));
    for (const v of order) {
      if (v >= graph.barrierBase) continue;
      const pair = describeVertex(graph, v);
      const node = nodeIndex.get(pair.node)!;
      const type = graph.classes[node.classIndex].slots[v - node.base].task.type;
      positions[v] = tasks.length;
      if (resumed?.done.has(`${pair.node}\u0000${pair.task}`)) {
        done.add(v);
        tasks.push({ node: pair.node, taskId: pair.task, type, doneIn: resumed.id });
      } else tasks.push(graph.skipped[v] ? { node: pair.node, taskId: pair.task, skipped: true, type } : { node: pair.node, taskId: pair.task, type });
    }
    const id = await runs.createRealDeployment(tx, cluster.id, type, tasks, presence.id, leaseSeconds());
    if (options.requestedBy !== undefined) await store.recordRequester(tx, id, options.requestedBy);
    await options.record?.(tx, id);
    if (offline.length) {
      const reach = await real.realNodes(tx, offline.map((n) => n.id));
      await store.recordSkippedNodes(tx, id, offline.map((n) => ({ id: n.id, name: n.name, reach_error: reach.get(n.id)?.reachError?.message ?? null })));
    }
    await store.updateCluster(tx, cluster.id, { status: 'deploying' });
    const access = await real.realNodes(tx, nodes.map((n) => n.id));
    await real.beginRunOnNodes(tx, nodes.map((n) => n.id), nodeStateDuringRun(graphKindOf(type)));
    if (removal) {
      await runs.recordRemoval(tx, id, removal);
      await real.setNodeStatus(tx, [...removal.nodes], 'removing');
      if (removal.environment) await store.updateCluster(tx, cluster.id, { status: 'removing' });
    }
    const settings = settingsOf(cluster.attributes);
    return { id, owner: presence.id, done, positions, counts: new LiveCounts(tasks), cluster, graphType: type, graph, access, sources, settings, roles: composition.composed.roles_metadata as Prepared['roles'], nodeRoles: nodes.map((n) => ({ id: String(n.id), roles: rolesOfNode(n) })), data: deploymentData(composition.composed, graph, cluster, settings.values, access, sources, options.publicUrl, (await deploymentNetworksOf(tx, cluster, nodes, composition)).plan, new Map(nodes.map((n) => [String(n.id), nodeVolumesOf(disks.get(n.id)!)]))), statusBefore: cluster.status, ...(removal ? { removal } : {}) };
  });
  const stop = new AbortController();
  const shutdown = new AbortController();
  const output = new EventEmitter();
  output.setMaxListeners(1000);
  keepLiveOutput(output);
  const done = walk(db, prepared, options, stop, output, shutdown.signal).finally(() => options.registry.delete(prepared.id));
  options.registry.set(prepared.id, { stop, done, output, shutdown });
  return prepared.id;
}

/** Why a run stops, as its records say it (docs/lifecycle.md). */
const OPERATOR_STOP = 'the operator stopped the run';
const SHUTDOWN = 'the server shut down';

/** Stop a running deployment of this server: nothing new starts, running tasks get a grace period (`graceMs`, else the run's). */
export function stopRealDeployment(registry: RunRegistry, deploymentId: number, graceMs?: number): boolean {
  const run = registry.get(deploymentId);
  if (!run) return false;
  run.stop.abort({ why: OPERATOR_STOP, ...(graceMs === undefined ? {} : { graceMs }) } satisfies StopReason);
  return true;
}

/** Ends every real deployment of this server (server shutdown), waiting for their bookkeeping. */
export async function settleRealDeployments(registry: RunRegistry, graceMs?: number): Promise<void> {
  for (const run of registry.values()) run.stop.abort({ why: SHUTDOWN, ...(graceMs === undefined ? {} : { graceMs }) } satisfies StopReason);
  // Bookkeeping waiting for the database (a full disk) is given up: the next start fails such a
  // run as interrupted, which is the truth of it; a shutdown must not wait for disk space.
  for (const run of registry.values()) run.shutdown?.abort();
  await Promise.all([...registry.values()].map((r) => r.done));
}

interface Prepared {
  id: number;
  /** This server's presence: the run's lease is held in its name. */
  owner: number;
  /** Vertices finished by the deployment this one resumes. */
  done: Set<number>;
  positions: Int32Array;
  /** The run's counts by outcome, kept as its reports are written. */
  counts: LiveCounts;
  cluster: store.ClusterRecord;
  graphType: string;
  graph: Awaited<ReturnType<typeof clusterGraph>>['graph'];
  access: Map<number, real.RealNodeRecord>;
  sources: Awaited<ReturnType<typeof sourcesOf>>;
  settings: ReturnType<typeof settingsOf>;
  data: Map<string, Record<string, unknown>>;
  statusBefore: store.ClusterStatus;
  /** Roles metadata (fault_tolerance) and each real node's roles, for the outcome. */
  roles: Record<string, { fault_tolerance?: unknown }>;
  nodeRoles: Array<{ id: string; roles: string[] }>;
  /** The removal this deletion run ends (started for it, or resumed from a run that was). */
  removal?: Removal;
}

/** A run's working folder: named by run and process, so a folder whose process is gone is an orphan. */
const WORK_DIR = /^hearth-deployment-\d+-(\d+)$/;
let orphansSwept = false;

/** Working folders of servers killed mid-run (SIGKILL, power loss), removed by the next run here. */
function sweepOrphanWorkDirs(): void {
  if (orphansSwept) return;
  orphansSwept = true;
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(WORK_DIR.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

async function walk(db: store.Database, p: Prepared, options: RealDeployOptions, stop: AbortController, output: EventEmitter, shutdown: AbortSignal): Promise<void> {
  const signal = stop.signal;
  sweepOrphanWorkDirs();
  const workDir = join(tmpdir(), `hearth-deployment-${p.id}-${process.pid}`);
  mkdirSync(workDir, { recursive: true, mode: 0o700 });
  // Each tick renews the run's lease and hears a stop asked through any server. A lease found
  // taken (another server failed the run as interrupted, so it may be resumed elsewhere) ends the
  // run at once, running tasks killed: one deployment never runs on two servers.
  const kill = new AbortController();
  let renewing: Promise<void> | undefined;
  // When the lease was last confirmed (this process's monotonic clock, which also counts time the
  // process spent stopped): a task starts only within half a lease of it, else after a renewal.
  let confirmedAt = performance.now();
  const renew = () =>
    (renewing ??= runs
      .renewLease(db, p.id, p.owner, leaseSeconds())
      .then(
        (lease) => {
          if (lease.held) confirmedAt = performance.now();
          else kill.abort();
          // A stop asked through another server sharing the database carries the grace it was asked with.
          if (lease.held && lease.stopRequested) stop.abort({ why: OPERATOR_STOP, ...(lease.stopGraceS === undefined ? {} : { graceMs: lease.stopGraceS * 1000 }) } satisfies StopReason);
          else if (!lease.held) stop.abort();
        },
        () => undefined,
      )
      .finally(() => (renewing = undefined)));
  const fresh = () => performance.now() - confirmedAt < (leaseSeconds() * 1000) / 2;
  // Unconfirmed (a stall, or the database out of reach): no task starts until a renewal succeeds.
  const hold = async () => {
    while (!fresh() && !kill.signal.aborted && !signal.aborted) {
      await renew();
      if (!fresh()) await new Promise((r) => setTimeout(r, 500));
    }
  };
  const reports = runReports(db, p.id, {
    positionOf: (v) => p.positions[v],
    counts: p.counts,
    output,
    ...(options.flushMs ? { flushMs: options.flushMs } : {}),
    tick: () => void (kill.signal.aborted ? undefined : renew()),
    onWriteFailure: (err, waiting, failures) => {
      // The first failure and then every tenth: a full disk for an hour is not 14,000 lines.
      if (failures === 1 || failures % 10 === 0) options.log?.warn({ err, deployment: p.id, waiting, failures }, `deployment ${p.id}: task reports could not be written; kept, and written again once the database takes them`);
    },
  });
  const events = reports.events;
  let outcome: { status: 'succeeded' | 'failed' | 'stopped' | 'interrupted'; message?: string };
  const failedNodes = new Set<string>();
  try {
    const summary = await runDeployment(
      { graph: p.graph, targets: targetsOf(p.access), data: p.data, sources: p.sources, workDir, secrets: p.settings.secrets, ...(options.files.dataFolder() ? { dataFolder: options.files.dataFolder() } : {}) },
      { transport: options.transport, events, signal, kill: kill.signal, hold, ...(p.done.size ? { done: (v: number) => p.done.has(v) } : {}), ...(options.maxParallel ? { maxParallel: options.maxParallel } : {}), ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}) },
    );
    for (const f of summary.failed) failedNodes.add(f.node);
    const words = summary.failed.slice(0, 5).map((f) => `${f.task.id} on node ${f.node}`).join(', ') + (summary.failed.length > 5 ? ` and ${summary.failed.length - 5} more` : '');
    const failedTasks = `${summary.failed.length} task${summary.failed.length === 1 ? '' : 's'} failed: ${words}`;
    // A failure on the master or the sync node has no role to tolerate it.
    const known = new Set(p.nodeRoles.map((n) => n.id));
    const fatal = summary.failed.some((f) => !known.has(f.node));
    const breaches = toleranceBreaches(p.roles, p.nodeRoles, failedNodes);
    // A shutdown interrupts the run (any server resumes it); an operator's stop stops it.
    if (summary.interrupted && (stop.signal.reason as StopReason | undefined)?.why === SHUTDOWN) outcome = { status: 'interrupted', message: 'interrupted: the server shut down; resume it with --resume on any server' };
    else if (summary.interrupted) outcome = { status: 'stopped', message: 'stopped by the operator' };
    else if (!summary.failed.length) outcome = { status: 'succeeded' };
    else if (fatal || breaches.length) outcome = { status: 'failed', message: `${failedTasks}${breaches.length ? `; beyond fault tolerance: ${breaches.map((b) => `${b.role} ${b.failed} of ${b.of} nodes failed, ${b.allowed} tolerated`).join('; ')}` : ''}` };
    else outcome = { status: 'succeeded', message: `${failedTasks}; within the roles' fault tolerance (nodes ${[...failedNodes].join(', ')} are in error)` };
  } catch (err) {
    outcome = { status: 'failed', message: `the orchestrator stopped: ${(err as Error).message}` };
  }
  await reports.close(shutdown);
  // Reports that waited for the database, or were lost, make the run failed, saying why: the
  // operator sees a full disk as the cause, and `--resume` redoes only what was not recorded.
  const trouble = reports.firstFailure === undefined ? undefined : storageFailure(reports.firstFailure)?.code ?? 'deploy/reports-not-written';
  if (trouble) {
    const why = reports.lost ? `${reports.lost} task report${reports.lost === 1 ? ' was' : 's were'} lost` : 'task reports waited until they could be written';
    outcome = { status: 'failed', message: `${trouble}: ${trouble === 'server/disk-full' ? 'the server ran out of disk space during the deployment' : `writing task reports failed (${(reports.firstFailure as Error)?.message ?? String(reports.firstFailure)})`}; ${why}${outcome.message ? `; ${outcome.message}` : ''}` };
    options.log?.error({ err: reports.firstFailure, deployment: p.id, lost: reports.lost }, `deployment ${p.id}: ${outcome.message}`);
  }
  const unfinished = reports.lost ? 'not known whether it ran: its report could not be written' : undefined;
  await endBookkeeping(
    shutdown,
    () => db.transaction(async (tx) => {
      // A run whose lease was taken has been failed as interrupted by another server: that stands.
      if (!(await runs.endRealDeployment(tx, p.id, outcome.status, outcome.message, unfinished, p.counts.unfinishedPositions()))) return;
      const ids = [...p.access.keys()];
      // Each node by its own tasks in this run (docs/lifecycle.md): read before roles are
      // committed, which resets node statuses.
      const before = await real.statesBeforeRun(tx, ids);
      const own = await store.nodeOutcomes(tx, p.id);
      const after = new Map(ids.map((id) => [id, nodeStateAfterRun((before.get(id) ?? 'discovered') as NodeState, own.get(String(id)) ?? [], graphKindOf(p.graphType))]));
      const anyInError = [...after.values()].includes('error');
      if (outcome.status === 'succeeded' && deploysRoles(p)) {
        const cluster = await clusterOr404(tx, p.cluster.id, { lock: true });
        await store.commitPendingRoles(tx, p.cluster.id, ids);
        const nodes = await store.listNodes(tx, { clusterId: p.cluster.id });
        await store.updateCluster(tx, p.cluster.id, {
          status: environmentStateAfterRun('succeeded', anyInError),
          deployed: { at: new Date().toISOString(), deploymentId: p.id, attributes: cluster.attributes, components: cluster.components, plugins: cluster.plugins, nodes: Object.fromEntries(nodes.map((n) => [String(n.id), n.roles])) },
        });
      } else await store.updateCluster(tx, p.cluster.id, { status: deploysRoles(p) ? environmentStateAfterRun(outcome.status, anyInError) : p.statusBefore });
      for (const state of new Set(after.values())) await real.setNodeStatus(tx, ids.filter((id) => after.get(id) === state), state);
      if (p.removal) await endRemoval(tx, p.cluster.id, p.removal, new Set(ids.filter((id) => ranThrough(own.get(String(id)) ?? []))));
    }),
    (err, failures) => {
      if (failures === 1 || failures % 10 === 0) options.log?.error({ err, deployment: p.id, failures }, `deployment ${p.id}: its end could not be recorded; trying again`);
    },
  );
  rmSync(workDir, { recursive: true, force: true });
}

/**
 * The end of a run, written once the database takes it (a full disk: once space returns), each
 * try later, up to 5 s apart; given up only when the server shuts down (the next start then fails
 * the run as interrupted). A bug (not the storage) is not retried for ever: five tries.
 */
async function endBookkeeping(shutdown: AbortSignal, write: () => Promise<void>, failed: (err: unknown, failures: number) => void): Promise<void> {
  for (let failures = 1; ; failures++) {
    try {
      return await write();
    } catch (err) {
      failed(err, failures);
      if (shutdown.aborted || (failures >= 5 && !storageFailure(err))) return;
      await new Promise<void>((resolve) => {
        const wake = () => (clearTimeout(t), resolve());
        const t = setTimeout(() => (shutdown.removeEventListener('abort', wake), resolve()), Math.min(5000, 250 * 2 ** failures));
        shutdown.addEventListener('abort', wake, { once: true });
      });
    }
  }
}

/** Seconds a run's lease lasts unrenewed (HEARTH_DEPLOY_LEASE_SECONDS; tests shorten it). */
const leaseSeconds = (): number => {
  const s = Number(process.env.HEARTH_DEPLOY_LEASE_SECONDS);
  return Number.isFinite(s) && s >= 1 ? s : runs.DEFAULT_LEASE_SECONDS;
};

/** Only the default graph deploys roles (as the dry run: other graphs leave roles and status alone). */
const deploysRoles = (p: Prepared) => p.graphType === 'default';
