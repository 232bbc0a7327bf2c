/**
 * Graphs and deployment of an environment. The graph is core's; the pre-deployment checks are
 * core's role rules (conflicts, limits, restrictions, two plugins overriding one task on a shared
 * node), shared by the dry run and the real run (real-deploy.ts). The dry run walks the graph in its
 * execution order and records each task's status, so progress can be watched while it runs; it
 * executes nothing.
 */
import { deploymentNetworksOf, refuseNetworkErrors } from '../networks.js';
import { createHash } from 'node:crypto';
import { describeVertex, graphForCluster, type DeploymentGraph } from '../../../core/graph/index.js';
import type { Finding } from '../../../core/findings.js';
import { checkRoleAssignment } from '../../../core/roles/index.js';
import * as store from '../../../store/index.js';
import * as real from '../../../store/real-nodes.js';
import { HttpError, errorsOf, refused } from '../../errors.js';
import { clusterOr404, composeCluster } from '../environment.js';
import { buildDeployGraph } from '../graph-build.js';
import { blockingProblems, diskStates, nodeVolumesOf, type DiskState } from '../disks.js';
import type { NodeVolumes } from '../../../core/disks/index.js';

export interface DeployOptions {
  /** Pause per slice of tasks (ms), so progress is visible; 0 in tests. */
  sliceDelayMs?: number;
  /** Tasks finished per slice. */
  sliceSize?: number;
  /** A shutdown's grace period for running tasks (ms; 30 s). */
  shutdownGraceMs?: number;
}

export interface ClusterGraph {
  graph: DeploymentGraph;
  findings: Finding[];
}

const rolesOfNode = (n: store.NodeRecord): string[] => [...new Set([...n.roles, ...n.pendingRoles])];


/** Writes the run's audit entry in the run's own transaction (audit.ts's runRecorder). */
export type RecordRun = (tx: store.Queryable, deploymentId: number) => Promise<void>;
/** `{section: {field: value}}` from a settings tree: what the graph's deployment data reads. */
function settingsValues(editable: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [section, fields] of Object.entries(editable)) {
    if (!fields || typeof fields !== 'object' || Array.isArray(fields)) continue;
    for (const [field, slot] of Object.entries(fields as Record<string, unknown>)) {
      if (field !== 'metadata' && slot && typeof slot === 'object' && 'value' in slot) (out[section] ??= {})[field] = (slot as { value: unknown }).value;
    }
  }
  return out;
}

/** What core needs to build an environment's graph, read from the database (and the composition cache). */
export async function clusterGraphInput(q: store.Queryable, cluster: store.ClusterRecord, type: string, leaveOut?: ReadonlySet<number>, read?: store.NodeRecord[], known?: Composed) {
  // `known`: the composition read before the caller's transaction; the caller's stamp (graphStamp,
  // which names the catalog version, the release and the plugins) says whether it still holds.
  const composition = known ?? (await composeCluster(q, cluster));
  if (!Object.hasOwn(composition.composed.graphs, type)) throw new HttpError(404, 'graph/not-found', `environment '${cluster.name}' has no '${type}' graph`, { types: Object.keys(composition.composed.graphs) });
  // `leaveOut`: nodes a run leaves out (offline ones, with skip_offline); the checks still see them.
  // `read`: the environment's nodes, when the caller has just read them.
  const nodes = (read ?? (await store.listNodes(q, { clusterId: cluster.id }))).filter((n) => rolesOfNode(n).length > 0 && !leaveOut?.has(n.id));
  // Each node's disk layout, once per node: its `node_volumes`, and what the checks judge.
  const disks = await diskStates(q, nodes, composition.composed);
  const volumes = sharedNodeVolumes(nodes, disks);
  // Core builds the graph the CLI builds too, with task conditions evaluated on the deployment
  // data and lifecycle conditions compared with what was deployed last.
  const input: Parameters<typeof graphForCluster>[0] = {
    composed: composition.composed,
    nodes: nodes.map((n) => ({ id: String(n.id), roles: rolesOfNode(n), node_volumes: volumes.get(n.id)! })),
    settings: settingsValues(cluster.attributes),
    // What was deployed keeps no layout: a node's is taken as unchanged since (Fuel's `changed($.node_volumes)` is then false).
    ...(cluster.deployed
      ? { previous: { nodes: Object.entries(cluster.deployed.nodes).filter(([, roles]) => roles.length).map(([id, roles]) => ({ id, roles, ...(volumes.has(Number(id)) ? { node_volumes: volumes.get(Number(id))! } : {}) })), settings: settingsValues(cluster.deployed.attributes) } }
      : {}),
    type,
    // The addresses, VIPs and interfaces the API shows are those the deployment data is written from.
    // The composition above, not composed again: in a transaction nothing is cached, and composing
    // reads and parses the release and its plugins again (issue 24's 5% rule).
    cluster: { id: cluster.id, name: cluster.name, networks: (await deploymentNetworksOf(q, cluster, nodes, composition)).plan },
  };
  return { input, nodes, composition, disks };
}

/**
 * Each node's `node_volumes`, one value shared by the nodes with the same layout: the graph then
 * still evaluates a condition reading it once per class of nodes, not once per node.
 */
function sharedNodeVolumes(nodes: readonly store.NodeRecord[], disks: ReadonlyMap<number, DiskState>): Map<number, NodeVolumes> {
  const byText = new Map<string, NodeVolumes>();
  const byState = new Map<DiskState, NodeVolumes>();
  const out = new Map<number, NodeVolumes>();
  for (const n of nodes) {
    // Nodes alike share their disk state (diskStates): its volumes are made and compared once.
    const state = disks.get(n.id)!;
    const known = byState.get(state);
    if (known) {
      out.set(n.id, known);
      continue;
    }
    const own = nodeVolumesOf(state);
    const text = JSON.stringify(own);
    let shared = byText.get(text);
    if (!shared) byText.set(text, (shared = own));
    byState.set(state, shared);
    out.set(n.id, shared);
  }
  return out;
}

/**
 * A deployment refuses nodes whose disks cannot take their volumes, before anything runs, each
 * node with Fuel's words ("Volume group 'vm' requires a minimum of 5120 MB").
 */
function refuseSmallDisks(clusterName: string, nodes: readonly store.NodeRecord[], disks: ReadonlyMap<number, DiskState>): HttpError | undefined {
  const bad = nodes.map((n) => ({ id: n.id, name: n.name, findings: blockingProblems(disks.get(n.id)) })).filter((n) => n.findings.length);
  if (!bad.length) return undefined;
  const said = bad.slice(0, 10).map((n) => `'${n.name}' (${n.findings.map((f) => f.message).join('; ')})`);
  return new HttpError(400, 'deploy/disks-too-small', `environment '${clusterName}' has node${bad.length === 1 ? '' : 's'} whose disks cannot take their volumes: ${said.join(', ')}${bad.length > 10 ? ` and ${bad.length - 10} more` : ''}`, {
    nodes: bad,
    hint: 'give the volumes more space, or the node bigger disks (hearth node disks <node> --set VOLUME=SIZE@DISK; --defaults for the default layout)',
  });
}

export async function clusterGraph(q: store.Queryable, cluster: store.ClusterRecord, type: string, leaveOut?: ReadonlySet<number>): Promise<ClusterGraph & { nodes: store.NodeRecord[]; composition: Awaited<ReturnType<typeof composeCluster>>; disks: Map<number, DiskState> }> {
  const { input, nodes, composition, disks } = await clusterGraphInput(q, cluster, type, leaveOut);
  const graph = graphForCluster(input);
  return { graph, findings: [...composition.findings, ...graph.findings], nodes, composition, disks };
}

/** Which of an environment's nodes (with roles) are simulated: a real run refuses them by name. */
export async function simulatedNodes(q: store.Queryable, clusterId: number): Promise<{ real: store.NodeRecord[]; simulated: store.NodeRecord[] }> {
  const nodes = (await store.listNodes(q, { clusterId })).filter((n) => rolesOfNode(n).length > 0);
  const access = await real.realNodes(q, nodes.map((n) => n.id));
  return { real: nodes.filter((n) => access.has(n.id)), simulated: nodes.filter((n) => !access.has(n.id)) };
}

export function refuseSimulated(clusterName: string, simulated: store.NodeRecord[]): HttpError {
  const names = simulated.map((n) => `'${n.name}'`);
  return new HttpError(400, 'deploy/simulated-nodes', `environment '${clusterName}' has simulated node${names.length === 1 ? '' : 's'} ${names.slice(0, 20).join(', ')}${names.length > 20 ? ` and ${names.length - 20} more` : ''}: a real deployment needs real hosts`, {
    nodes: simulated.map((n) => ({ id: n.id, name: n.name })),
    hint: 'deploy with --dry-run (dry_run: true) to simulate, or replace them with real hosts (hearth node add <address>)',
  });
}

/** Which nodes a run is asked for: a real one (offline nodes matter), leaving offline ones out, on these nodes only. */
export interface RunChoice {
  real?: boolean;
  skipOffline?: boolean;
  only?: readonly number[];
}

/** The nodes a run touches: `only` those chosen (the deletion graph on the node being removed, say), offline ones left out if asked. */
async function nodesOfRun(q: store.Queryable, clusterId: number, options: RunChoice) {
  const withRoles = (await store.listNodes(q, { clusterId })).filter((n) => rolesOfNode(n).length > 0);
  let chosen = withRoles;
  let unknown: number[] = [];
  if (options.only) {
    const known = new Set(withRoles.map((n) => n.id));
    unknown = options.only.filter((id) => !known.has(id));
    const only = new Set(options.only);
    chosen = withRoles.filter((n) => only.has(n.id));
  }
  const offline = options.real ? chosen.filter((n) => n.status === 'offline') : [];
  const outOfRun = [...offline.map((n) => n.id), ...withRoles.filter((n) => !chosen.includes(n)).map((n) => n.id)];
  return { withRoles, unknown, offline, leaveOut: outOfRun.length ? new Set(outOfRun) : undefined };
}

/**
 * A deployment's graph built before its transaction, in a worker (graph-build.ts), and a stamp of
 * what it was built from. Task conditions run on every node, each up to YAQL's work budget: built
 * inside the transaction they held the request thread, and the environment's row (with PGlite, the
 * whole database) for 16.7 s at 200 nodes (issue 24, item 10).
 */
type Composed = Awaited<ReturnType<typeof composeCluster>>;

export interface BuiltGraph {
  stamp: string;
  /** The composed release and plugins it was built from (a pure function of what the stamp names). */
  composition?: Composed;
  graph?: DeploymentGraph;
  /** The build's refusal (graph/too-complex, say), given where the graph is needed among the checks. */
  error?: unknown;
}

/** What a graph is built from, as a digest: the release and plugins (by the catalog's version), the environment, its nodes. */
async function graphStamp(q: store.Queryable, cluster: store.ClusterRecord, input: Awaited<ReturnType<typeof clusterGraphInput>>['input']): Promise<string> {
  // The composed release is the catalog version's composition of the release and plugins: named, not hashed.
  return createHash('sha256').update(JSON.stringify([await store.catalogVersion(q), cluster.releaseId, cluster.plugins, stampedInput(input)])).digest('base64url');
}

/**
 * The input without its composition, each node's `node_volumes` written once per distinct value
 * (nodes of one layout share it, sharedNodeVolumes) and named by its place in that list: written
 * per node it made the stamp of 1,000 nodes megabytes of JSON, made twice per deployment.
 */
function stampedInput(input: Awaited<ReturnType<typeof clusterGraphInput>>['input']) {
  const distinct = new Map<unknown, number>();
  const place = (volumes: unknown) => {
    if (volumes === undefined) return null;
    let i = distinct.get(volumes);
    if (i === undefined) distinct.set(volumes, (i = distinct.size));
    return i;
  };
  const nodes = input.nodes.map((n) => [n.id, n.roles, place(n.node_volumes)]);
  const previous = input.previous && { ...input.previous, nodes: input.previous.nodes.map((n) => [n.id, n.roles, place(n.node_volumes)]) };
  // The interface mapping is a Map, which JSON writes as {}: as entries, a network moved to another
  // interface meanwhile changes the stamp (it changes each node's network_scheme).
  const networks = input.cluster?.networks && { ...input.cluster.networks, nodes: [...input.cluster.networks.nodes] };
  return { ...input, composed: undefined, nodes, previous, volumes: [...distinct.keys()], cluster: input.cluster && { ...input.cluster, networks } };
}

/**
 * Builds a run's graph off the request thread, outside any transaction; checkDeployable then uses
 * it if nothing it was built from changed meanwhile. Undefined when the environment cannot give a
 * graph input: checkDeployable meets that refusal itself, in its place among the checks.
 */
export async function buildDeployableGraph(q: store.Queryable, clusterId: number, type: string, options: RunChoice = {}): Promise<BuiltGraph | undefined> {
  const cluster = await store.getCluster(q, clusterId);
  if (!cluster || cluster.status === 'deploying') return undefined;
  const { withRoles, leaveOut } = await nodesOfRun(q, clusterId, options);
  const read = await clusterGraphInput(q, cluster, type, leaveOut, withRoles).catch(() => undefined);
  if (!read) return undefined;
  const stamp = await graphStamp(q, cluster, read.input);
  try {
    return { stamp, composition: read.composition, graph: await buildDeployGraph(read.input) };
  } catch (error) {
    return { stamp, composition: read.composition, error };
  }
}

/** The graph built before the transaction, if what it was built from is what the transaction reads. */
async function builtGraph(tx: store.Queryable, cluster: store.ClusterRecord, type: string, leaveOut: ReadonlySet<number> | undefined, withRoles: store.NodeRecord[], built: BuiltGraph) {
  // The composition is not read and composed again: it is the catalog version's, and the stamp
  // compares that version (read in this transaction), the release and the plugins. Reading the
  // release again cost a deployment of 1,000 nodes 150-300 ms on a loaded machine.
  const { input, nodes, composition, disks } = await clusterGraphInput(tx, cluster, type, leaveOut, withRoles, built.composition);
  if ((await graphStamp(tx, cluster, input)) !== built.stamp) {
    throw new HttpError(409, 'deploy/changed-meanwhile', `environment '${cluster.name}' changed while its deployment graph was being built (its settings, nodes, roles, release or plugins)`, { hint: 'deploy again: the graph is built from what the environment is then' });
  }
  if (built.error || !built.graph) throw built.error;
  return { graph: built.graph, nodes, composition, disks, findings: [...composition.findings, ...built.graph.findings] };
}

/**
 * The checks every deployment passes before it is recorded, dry run or real, inside the caller's
 * transaction (the environment's row stays locked until it commits): not already deploying, nodes
 * with roles, (for a real run) no simulated nodes, core's role rules, no cycle. Returns what the
 * caller records and runs.
 */
export async function checkDeployable(tx: store.Queryable, presence: store.Presence, clusterId: number, type: string, options: RunChoice & { built?: BuiltGraph } = {}) {
  let cluster = await clusterOr404(tx, clusterId, { lock: true });
  // Its last deployment may belong to a server that died (another one sharing PostgreSQL).
  if (cluster.status === 'deploying' && (await store.failInterruptedDeployments(tx, presence.alive, presence.id))) cluster = await clusterOr404(tx, clusterId);
  if (cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is already being deployed`);
  if (await beingRemoved(tx, presence, cluster)) throw new HttpError(409, 'cluster/removing', `environment '${cluster.name}' is being removed: the deletion graph is running on its nodes`, { hint: 'wait for that run to end (hearth deployment list --env <env>)' });
  const { withRoles, unknown, offline, leaveOut } = await nodesOfRun(tx, cluster.id, options);
  if (unknown.length) throw new HttpError(400, 'deploy/unknown-nodes', `environment '${cluster.name}' has no node${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} with roles`, { nodes: unknown, hint: 'choose among the environment\'s nodes with roles (hearth env nodes <env>)' });
  // A real run does not start on a node Hearth already knows it cannot reach: it would fail there
  // in seconds and leave the others half-reconfigured. Refused by name, unless asked to leave them out.
  if (offline.length && !options.skipOffline) throw await refuseOffline(tx, cluster.name, offline);
  const { graph, nodes, composition, findings, disks } = options.built ? await builtGraph(tx, cluster, type, leaveOut, withRoles, options.built) : await clusterGraph(tx, cluster, type, leaveOut);
  if (!nodes.length) throw new HttpError(400, 'deploy/no-nodes', `environment '${cluster.name}' has no ${leaveOut ? 'reachable ' : ''}nodes with roles`, { hint: leaveOut ? 'bring its nodes back online (hearth node show <id> says why each is offline)' : 'assign roles to nodes first' });
  if (options.real) {
    const { simulated } = await simulatedNodes(tx, cluster.id);
    if (simulated.length) throw refuseSimulated(cluster.name, simulated);
  }
  const small = refuseSmallDisks(cluster.name, nodes, disks);
  if (small) throw small;
  // A real run does not start on wiring the network checks already know is wrong. (A dry run plans
  // as many simulated nodes as asked, beyond what the release's networks hold: it is not refused.)
  if (options.real) {
    const wiring = refuseNetworkErrors(cluster.name, (await deploymentNetworksOf(tx, cluster, nodes, composition)).findings);
    if (wiring) throw wiring;
  }
  // The role rules hold for the whole environment, whichever nodes this run touches.
  const checks = checkRoleAssignment(composition.composed, withRoles.map((n) => ({ id: n.id, name: n.name, roles: rolesOfNode(n) })), cluster.attributes, { models: { cluster: { name: cluster.name, status: cluster.status } } });
  // The graph finds the same two-definitions conflicts on its nodes; the checks name nodes better.
  const covered = checks.some((f) => f.code === 'task/conflict-on-node');
  const errors = [...errorsOf(checks), ...errorsOf(covered ? findings.filter((f) => f.code !== 'task/conflict-on-node') : findings)];
  if (errors.length) throw refused('deploy/checks-failed', 'the pre-deployment checks failed', errors);
  if (graph.cycle || !graph.order) throw refused('deploy/cycle', 'the deployment graph has a cycle', graph.findings, 400);
  return { cluster, graph, order: graph.order, nodes, composition, offline, disks };
}

/**
 * An environment `removing` while its deletion run is running (node-removal.ts). One whose run's
 * server died is `removing` with no run: it may be removed again, or deployed.
 */
export async function beingRemoved(tx: store.Queryable, presence: store.Presence, cluster: store.ClusterRecord): Promise<boolean> {
  if (cluster.status !== 'removing') return false;
  await store.failInterruptedDeployments(tx, presence.alive, presence.id);
  return (await tx.query(`SELECT 1 FROM deployments WHERE cluster_id = $1 AND status = 'running' LIMIT 1`, [cluster.id])).length > 0;
}

async function refuseOffline(q: store.Queryable, clusterName: string, offline: store.NodeRecord[]): Promise<HttpError> {
  const access = await real.realNodes(q, offline.map((n) => n.id));
  const nodes = offline.map((n) => ({ id: n.id, name: n.name, reach_error: access.get(n.id)?.reachError?.message ?? null }));
  const names = nodes.slice(0, 20).map((n) => `'${n.name}'${n.reach_error ? ` (${n.reach_error})` : ''}`);
  return new HttpError(409, 'deploy/nodes-offline', `environment '${clusterName}' has offline node${nodes.length === 1 ? '' : 's'} ${names.join(', ')}${nodes.length > 20 ? ` and ${nodes.length - 20} more` : ''}: a deployment would fail on ${nodes.length === 1 ? 'it' : 'them'} and leave the others half-reconfigured`, {
    nodes,
    hint: 'bring them back (hearth node show <id> says why Hearth cannot reach each), or deploy without them: --skip-offline (API skip_offline: true)',
  });
}

/** Checks, then records a deployment and starts walking it; returns its id at once. */
export async function startDeployment(db: store.Database, presence: store.Presence, clusterId: number, type: string, options: DeployOptions & { failAt?: string; only?: readonly number[]; requestedBy?: string; record?: RecordRun }): Promise<number> {
  const choice = options.only ? { only: options.only } : {};
  const built = await buildDeployableGraph(db, clusterId, type, choice);
  const { id, total, before, simulation } = await db.transaction(async (tx) => {
    const { cluster, graph, order } = await checkDeployable(tx, presence, clusterId, type, { ...choice, ...(built ? { built } : {}) });
    // A dry run changes nothing real (docs/lifecycle.md): with a real node in the environment it
    // only records its run. An environment of simulated nodes alone has nothing real to protect,
    // and the simulation is how it is deployed: there the dry run plays the lifecycle.
    const simulation = (await simulatedNodes(tx, cluster.id)).real.length === 0;
    const tasks: Array<{ node: string; taskId: string; skipped?: boolean }> = [];
    for (const v of order) {
      if (v >= graph.barrierBase) continue;
      const pair = describeVertex(graph, v);
      tasks.push(graph.skipped[v] ? { node: pair.node, taskId: pair.task, skipped: true } : { node: pair.node, taskId: pair.task });
    }
    const id = await store.createDeployment(tx, cluster.id, type, tasks, presence.id);
    if (options.requestedBy !== undefined) await store.recordRequester(tx, id, options.requestedBy);
    // Its audit entry, in this transaction: the run and its record commit together.
    await options.record?.(tx, id);
    if (simulation) await store.updateCluster(tx, cluster.id, { status: 'deploying' });
    return { id, total: tasks.length, before: cluster.status, simulation };
  });
  void walk(db, clusterId, id, total, { ...options, graphType: type, statusBefore: before, simulation }).catch(() => undefined);
  return id;
}

/**
 * Only the `default` graph deploys roles: on its success pending roles become roles and the
 * environment is operational. Any other graph (provisioning, deletion, network verification, a
 * custom one) is recorded as a run, and leaves roles and the environment's status as they were.
 */
const deploysRoles = (graphType: string) => graphType === 'default';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface WalkOptions extends DeployOptions {
  failAt?: string;
  graphType: string;
  /** The environment's status before the run, which a graph other than `default` gives back. */
  statusBefore: store.ClusterStatus;
  /** Every node is simulated: the run plays the lifecycle. Otherwise it records its run and nothing else. */
  simulation: boolean;
}

async function walk(db: store.Database, clusterId: number, deploymentId: number, total: number, options: WalkOptions): Promise<void> {
  const statusAfterFailure: store.ClusterStatus = deploysRoles(options.graphType) ? 'error' : options.statusBefore;
  const slice = Math.max(1, options.sliceSize ?? 500);
  try {
    const tasks = options.failAt ? await store.deploymentTasks(db, deploymentId) : [];
    const failIndex = options.failAt ? tasks.findIndex((t) => t.taskId === options.failAt && t.status !== 'skipped') : -1;
    for (let from = 0; from < total; from += slice) {
      await sleep(options.sliceDelayMs ?? 0);
      const to = Math.min(total, from + slice);
      if (failIndex >= from && failIndex < to) {
        await store.completeTaskRange(db, deploymentId, from, failIndex);
        const t = tasks[failIndex];
        await store.setTaskStatus(db, deploymentId, t.node, t.taskId, 'error');
        await db.transaction(async (tx) => {
          await store.finishDeployment(tx, deploymentId, 'failed', `task ${t.taskId} failed on node ${t.node}`);
          await tx.query(`UPDATE deployment_tasks SET status = 'skipped', outcome = 'not_run', message = 'not run' WHERE deployment_id = $1 AND status = 'pending'`, [deploymentId]);
          if (options.simulation) await store.updateCluster(tx, clusterId, { status: statusAfterFailure });
        });
        return;
      }
      await store.completeTaskRange(db, deploymentId, from, to);
    }
    await db.transaction(async (tx) => {
      const cluster = await clusterOr404(tx, clusterId, { lock: true });
      if (!options.simulation) {
        await store.finishDeployment(tx, deploymentId, 'succeeded');
        return;
      }
      if (!deploysRoles(options.graphType)) {
        await store.updateCluster(tx, clusterId, { status: options.statusBefore });
        await store.finishDeployment(tx, deploymentId, 'succeeded');
        return;
      }
      await store.commitPendingRoles(tx, clusterId);
      const nodes = await store.listNodes(tx, { clusterId });
      await store.updateCluster(tx, clusterId, {
        status: 'operational',
        deployed: {
          at: new Date().toISOString(),
          deploymentId,
          attributes: cluster.attributes,
          components: cluster.components,
          plugins: cluster.plugins,
          nodes: Object.fromEntries(nodes.map((n) => [String(n.id), n.roles])),
        },
      });
      await store.finishDeployment(tx, deploymentId, 'succeeded');
    });
  } catch (err) {
    await db
      .transaction(async (tx) => {
        await store.finishDeployment(tx, deploymentId, 'failed', `the orchestrator stopped: ${(err as Error).message}`);
        if (options.simulation) await store.updateCluster(tx, clusterId, { status: statusAfterFailure });
      })
      .catch(() => undefined);
  }
}
