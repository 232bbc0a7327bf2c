/**
 * Moving an environment to a newer version of its release (issue 28 item 15; `PUT /clusters/{id}
 * {release_id}`, `hearth env upgrade`). Core plans what is carried over and what no longer fits
 * (core/release/upgrade.ts); this file adds what needs stored facts (saved disk layouts, the saved
 * network configuration and interface mappings), refuses with the whole list unless told to leave
 * the unfit things behind, and writes the move in the caller's transaction: all of it or nothing.
 */
import { checkLayout } from '../../core/disks/index.js';
import { defaultNetworkConfiguration, ADMIN_NETWORK } from '../../core/networks/index.js';
import { composeRelease, planUpgrade, pluginCompatibility, type Composition, type Unfit } from '../../core/release/index.js';
import { compareReleaseVersions, parseReleaseVersion } from '../../core/versions/index.js';
import * as store from '../../store/index.js';
import { HttpError, errorsOf, refused } from '../errors.js';
import { withCustomRoles } from './custom-roles.js';
import { diskStates } from './disks.js';
import { clusterOr404, composeCluster, storedRelease } from './environment.js';
import { segmentationOf } from './networks.js';
import { contributionOf } from './plugins.js';

export interface UpgradeResult {
  cluster: store.ClusterRecord;
  from: string;
  /** What was left behind (empty when everything fitted). */
  dropped: Unfit[];
}

const nodeList = (nodes: ReadonlyArray<{ name: string }>) => `${nodes.slice(0, 5).map((n) => n.name).join(', ')}${nodes.length > 5 ? ` and ${nodes.length - 5} more` : ''}`;

/** One line per unfit thing, for the refusal's message and the CLI. */
export const unfitText = (u: Unfit): string => `${u.kind.replace('_', ' ')} ${u.name}: ${u.reason}${u.nodes?.length ? ` (nodes ${nodeList(u.nodes)})` : ''}`;

/** Refusals before anything is planned: the same release, another release line, an older version, a running deployment. */
function refuseMove(cluster: store.ClusterRecord, from: store.ReleaseRecord, to: store.ReleaseRecord): void {
  if (cluster.status === 'deploying' || cluster.status === 'removing') {
    throw new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is ${cluster.status}; its release cannot change until that ends`);
  }
  if (from.release.name !== to.release.name) {
    throw new HttpError(400, 'cluster/other-release', `release '${to.id}' is ${to.release.name}, not a version of '${from.release.name}', the release of environment '${cluster.name}'`, { hint: 'an environment moves only to another version of its own release; create a new environment for another release' });
  }
  if ((from.release.operating_system ?? '') !== (to.release.operating_system ?? '')) {
    throw new HttpError(400, 'cluster/other-operating-system', `release '${to.id}' runs on ${to.release.operating_system}, not ${from.release.operating_system}: its nodes would need to be provisioned again`, { hint: 'create a new environment for it' });
  }
  const a = parseReleaseVersion(from.release.version, 'fuel');
  const b = parseReleaseVersion(to.release.version, 'fuel');
  if (a && b && (compareReleaseVersions(b, a) ?? 0) < 0) {
    throw new HttpError(400, 'cluster/release-older', `release '${to.id}' (version ${to.release.version}) is older than '${from.id}' (${from.release.version}): an environment is not moved back`, { hint: 'choose a newer version of the release' });
  }
}

/** Saved disk layouts that the new volumes and roles no longer allow (the defaults would). */
async function unfitDiskLayouts(q: store.Queryable, nodes: readonly store.NodeRecord[], target: Composition): Promise<Unfit[]> {
  const saved = await store.savedDiskLayouts(q, nodes.map((n) => n.id));
  const withLayouts = nodes.filter((n) => saved.has(n.id));
  if (!withLayouts.length) return [];
  const states = await diskStates(q, withLayouts, target.composed);
  const out: Unfit[] = [];
  for (const node of withLayouts) {
    const state = states.get(node.id)!;
    const byDefault = new Set(checkLayout(state.defaults, state.input).filter((p) => p.severity === 'error').map((p) => p.message));
    const problems = state.problems.filter((p) => p.severity === 'error' && !byDefault.has(p.message));
    if (problems.length) out.push({ kind: 'disk_layout', name: node.name, reason: `the saved disk layout no longer fits the release's volumes: ${problems.map((p) => p.message).join('; ')}`, nodes: [{ id: node.id, name: node.name }] });
  }
  return out;
}

/** Networks the saved configuration and the interface mappings name that the new release does not have. */
async function unfitNetworks(q: store.Queryable, cluster: store.ClusterRecord, nodes: readonly store.NodeRecord[], target: Composition, components: string[]): Promise<{ unfit: Unfit[]; gone: Set<string> }> {
  const known = new Set([ADMIN_NETWORK, ...defaultNetworkConfiguration(target.composed, { segmentationType: segmentationOf(components) }).networks.map((n) => n.name)]);
  const gone = new Map<string, Array<{ id: number; name: string }>>();
  const saved = await store.networkConfiguration(q, cluster.id);
  for (const n of saved?.networks ?? []) if (!known.has(n.name)) gone.set(n.name, []);
  const mappings = await store.nodeInterfaces(q, nodes.map((n) => n.id));
  for (const node of nodes) {
    for (const i of mappings.get(node.id) ?? []) {
      for (const a of i.assigned_networks) if (!known.has(a.name)) gone.set(a.name, [...(gone.get(a.name) ?? []), { id: node.id, name: node.name }]);
    }
  }
  const unfit = [...gone].sort(([a], [b]) => a.localeCompare(b)).map(([name, holders]): Unfit => ({ kind: 'network', name, reason: `the release has no network '${name}'${holders.length ? '; node interfaces carry it' : '; the saved network configuration has it'}`, ...(holders.length ? { nodes: holders } : {}) }));
  return { unfit, gone: new Set(gone.keys()) };
}

/**
 * What of environment `cluster` fits release `to` (composed with its plugins that still fit it):
 * the plan core makes, and the saved disk layouts and networks that no longer fit. For an upgrade,
 * and for a release folder synced in place (`checkSyncedRelease`).
 */
async function fitOnRelease(tx: store.Queryable, cluster: store.ClusterRecord, to: store.ReleaseRecord, hasCurrent: boolean) {
  // Plugins: those the new release accepts are kept at their version.
  const contributions = [];
  const unfitPlugins: Array<{ id: string; reason: string }> = [];
  for (const id of Object.values(cluster.plugins).sort()) {
    const record = await store.getPlugin(tx, id);
    if (!record) throw new HttpError(409, 'plugin/missing', `the environment enables plugin ${id}, which is not installed`);
    const { contribution } = contributionOf(record);
    const fit = pluginCompatibility(contribution, to.release);
    if (fit.applies) contributions.push(contribution);
    else unfitPlugins.push({ id, reason: `not compatible with ${to.id}: ${fit.reason}` });
  }
  // The environment's own roles (issue 28 item 12) go with it.
  const target = composeRelease(withCustomRoles(to.release, await store.customRoles(tx, { clusterId: cluster.id })), contributions);
  if (errorsOf(target.findings).length) throw refused('cluster/upgrade-conflict', `release '${to.id}' cannot be composed with the environment's plugins`, target.findings, 409);

  const current = hasCurrent ? await composeCluster(tx, cluster) : undefined;
  const componentPlugins: Record<string, string> = {};
  for (const c of current?.composed.components ?? []) if (c.plugin) componentPlugins[c.name] = c.plugin.name;
  const nodes = await store.listNodes(tx, { clusterId: cluster.id });
  const currentDefaults = current?.composed.attributes_metadata.editable;
  const plan = planUpgrade({ environment: cluster, target, unfitPlugins, componentPlugins, nodes, ...(currentDefaults && typeof currentDefaults === 'object' ? { currentDefaults: currentDefaults as Record<string, unknown> } : {}) });
  const changedRoles = new Map(plan.nodes.map((n) => [n.id, n]));
  const after = nodes.map((n) => (changedRoles.has(n.id) ? { ...n, ...changedRoles.get(n.id)! } : n));
  const disks = await unfitDiskLayouts(tx, after, target);
  const networks = await unfitNetworks(tx, cluster, nodes, target, plan.components);
  const unfit = [...plan.unfit, ...disks, ...networks.unfit];
  return { plan, disks, networks, unfit, nodes };
}

/** Move the environment to release `releaseId`; in the caller's transaction. */
export async function upgradeEnvironment(tx: store.Queryable, clusterId: number, releaseId: string, dropUnfit: boolean): Promise<UpgradeResult> {
  const cluster = await clusterOr404(tx, clusterId, { lock: true });
  if (cluster.releaseId === releaseId) return { cluster, from: releaseId, dropped: [] };
  const from = await storedRelease(tx, cluster.releaseId);
  const to = await storedRelease(tx, releaseId);
  if (!to) throw new HttpError(400, 'cluster/unknown-release', `there is no release '${releaseId}'`, { hint: 'list releases with GET /api/v1/releases' });
  if (from) refuseMove(cluster, from, to);

  const { plan, disks, networks, unfit, nodes } = await fitOnRelease(tx, cluster, to, from !== undefined);
  if (unfit.length && !dropUnfit) {
    throw new HttpError(409, 'cluster/upgrade-unfit', `environment '${cluster.name}' cannot move to release '${to.id}' as it is: ${unfit.length} thing${unfit.length === 1 ? '' : 's'} no longer fit${unfit.length === 1 ? 's' : ''}: ${unfit.slice(0, 3).map(unfitText).join('; ')}${unfit.length > 3 ? '; …' : ''}`, {
      unfit,
      hint: 'change the environment so they fit, or leave them behind with drop_unfit: true (hearth env upgrade --drop-unfit); nothing was changed',
    });
  }

  // The move, all in this transaction.
  const deployed = cluster.deployed ? { ...cluster.deployed, releaseId: cluster.deployed.releaseId ?? cluster.releaseId } : undefined;
  await store.moveClusterToRelease(tx, cluster.id, { releaseId: to.id, components: plan.components, attributes: plan.attributes, ...(deployed ? { deployed } : {}) });
  await store.setClusterPlugins(tx, cluster.id, plan.plugins);
  for (const n of plan.nodes) await store.setNodeRoles(tx, n.id, n.roles, n.pendingRoles);
  await store.forgetDiskLayouts(tx, disks.flatMap((u) => u.nodes?.map((n) => n.id) ?? []));
  if (networks.gone.size) await dropNetworks(tx, cluster.id, nodes, networks.gone);
  return { cluster: await clusterOr404(tx, cluster.id), from: cluster.releaseId, dropped: unfit };
}

/** Networks the new release lacks leave the saved configuration, the interface mappings and the address plan. */
async function dropNetworks(tx: store.Queryable, clusterId: number, nodes: readonly store.NodeRecord[], gone: ReadonlySet<string>): Promise<void> {
  const saved = await store.networkConfiguration(tx, clusterId);
  if (saved) await store.saveNetworkConfiguration(tx, clusterId, { ...saved, networks: saved.networks.filter((n) => !gone.has(n.name)) });
  const mappings = await store.nodeInterfaces(tx, nodes.map((n) => n.id));
  for (const [nodeId, interfaces] of mappings) {
    if (!interfaces.some((i) => i.assigned_networks.some((a) => gone.has(a.name)))) continue;
    await store.saveNodeInterfaces(tx, nodeId, clusterId, interfaces.map((i) => ({ ...i, assigned_networks: i.assigned_networks.filter((a) => !gone.has(a.name)) })));
  }
  await store.forgetNetworkAddresses(tx, clusterId, [...gone]);
}

/**
 * A release folder synced in place (same version) must still fit every environment on it: the
 * roles its nodes hold, its components, plugins, disk layouts and networks, and setting values the
 * changed definitions refuse. Refused, naming each environment and what no longer fits, so the
 * sync's transaction changes nothing. A setting the release no longer defines is not counted: its
 * stored value is simply no longer read (an upgrade lists it, as there the operator chooses).
 */
export async function checkSyncedRelease(tx: store.Queryable, release: store.ReleaseRecord): Promise<void> {
  const problems: Array<{ id: number; name: string; unfit: Unfit[] }> = [];
  for (const user of await store.clustersUsingRelease(tx, release.id)) {
    const cluster = await clusterOr404(tx, user.id, { lock: true });
    const { unfit } = await fitOnRelease(tx, cluster, release, false);
    const real = unfit.filter((u) => !(u.kind === 'setting' && /^the release has no (such setting|settings section)/.test(u.reason)));
    if (real.length) problems.push({ id: cluster.id, name: cluster.name, unfit: real });
  }
  if (!problems.length) return;
  const lines = problems.flatMap((p) => p.unfit.map((u) => `'${p.name}': ${unfitText(u)}`));
  throw new HttpError(409, 'release/unfit-environments', `the folder's release '${release.id}' no longer fits environments on it: ${lines.slice(0, 3).join('; ')}${lines.length > 3 ? '; …' : ''}`, {
    environments: problems,
    hint: 'change those environments first (e.g. unassign the role), or register the edited folder as a new version and move them with hearth env upgrade --drop-unfit; nothing was changed',
  });
}
