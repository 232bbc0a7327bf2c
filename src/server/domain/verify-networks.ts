/**
 * `POST /clusters/{id}/network_configuration/verify` (issue 27): the probe on every real node of
 * the environment at once (deploy/verify-networks.ts), core's answer (core/networks/verify.ts).
 * History: a verification is recorded as a run of its own graph type, `verify_networks` (not the
 * release's `network_verification` graph, whose Fuel tasks it does not run), one task per node
 * holding that node's probe output, so it is listed, kept and stopped like any run
 * (`POST /deployments/{id}/stop` through any server: the lease tick hears it).
 * Networks: the release's networks (`networks_metadata`, Neutron's, else nova-network's) with
 * their VLAN and gateway, plus the admin network (untagged, the node's SSH address), all on the
 * interface holding the node's SSH address, until the environment's own network configuration
 * and interface mapping are read here instead.
 */
import { analyseVerification, probePlan, type VerificationResult, type VerifyMember, type VerifyNetwork } from '../../core/networks/verify.js';
import { runProbes } from '../../deploy/verify-networks.js';
import type { NodeFacts } from '../../deploy/index.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';
import * as runs from '../../store/task-runs.js';
import type { AppContext } from '../app.js';
import { HttpError } from '../errors.js';
import { targetOf } from './real-nodes.js';
import { clusterOr404, composeCluster } from './environment.js';

export const VERIFY_GRAPH_TYPE = 'verify_networks';
const TASK = 'verify_networks';

export interface VerificationAnswer extends VerificationResult {
  deployment_id: number;
  nodes: Array<{ uid: string; name: string; answered: boolean; failure: string | null }>;
}

/** The release's networks as verification sees them. */
export function releaseNetworks(networksMetadata: Record<string, unknown>): VerifyNetwork[] {
  const flavour = (networksMetadata.neutron ?? networksMetadata.nova_network) as { networks?: unknown } | undefined;
  const list = Array.isArray(flavour?.networks) ? (flavour.networks as Array<Record<string, unknown>>) : [];
  return list
    .filter((n) => typeof n.name === 'string')
    .map((n) => ({
      name: n.name as string,
      vlan: typeof n.vlan_start === 'number' && n.vlan_start >= 1 && n.vlan_start <= 4094 ? n.vlan_start : null,
      gateway: n.use_gateway === true && typeof n.gateway === 'string' ? n.gateway : null,
    }));
}

/** The interface holding the node's SSH address (its facts), else its first one but loopback. */
export function sshInterface(facts: unknown, address: string): string | null {
  const interfaces = (facts as Partial<NodeFacts> | undefined)?.interfaces ?? [];
  const holding = interfaces.find((i) => i.addresses?.some((a) => a.split('/')[0] === address));
  return holding?.name ?? interfaces.find((i) => i.name !== 'lo')?.name ?? null;
}

export async function verifyNetworks(ctx: AppContext, clusterId: number, options: { budgetS?: number } = {}): Promise<VerificationAnswer> {
  const { db } = ctx;
  if (!ctx.ssh) throw new HttpError(503, 'server/no-ssh-key', 'this server has no SSH key, so it cannot reach real nodes', { hint: "install OpenSSH's client (ssh, ssh-keygen) and rsync on the Hearth server, then restart it" });
  const cluster = await clusterOr404(db, clusterId);
  const composition = await composeCluster(db, cluster);
  const nodes = await store.listNodes(db, { clusterId });
  const access = await real.realNodes(db, nodes.map((n) => n.id));
  const reachable = nodes.filter((n) => access.has(n.id));
  if (reachable.length < 2) throw new HttpError(409, 'verify/too-few-nodes', `environment '${cluster.name}' has ${reachable.length} real node${reachable.length === 1 ? '' : 's'}: verifying networks needs two at least`, { hint: 'add real nodes (hearth node add) to the environment first' });
  const networks: VerifyNetwork[] = [{ name: 'fuelweb_admin', vlan: null, gateway: null }, ...releaseNetworks(composition.composed.networks_metadata ?? {})];
  const members: VerifyMember[] = [];
  for (const n of reachable) {
    const a = access.get(n.id)!;
    const iface = sshInterface(a.facts, a.address);
    if (!iface) throw new HttpError(409, 'verify/no-facts', `node '${n.name}' has no interfaces in its facts`, { hint: `read its facts again (hearth node refresh ${n.id}), then verify` });
    for (const net of networks) members.push({ node: String(n.id), name: n.name, network: net.name, interface: iface, ip: net.name === 'fuelweb_admin' ? a.address : null });
  }
  const plan = { networks, members };
  const inputs = probePlan(plan);
  const id = await runs.createRealDeployment(db, clusterId, VERIFY_GRAPH_TYPE, inputs.map((i) => ({ node: i.node, taskId: TASK, type: 'net_probe' })), ctx.presence.id);
  const startedAt = new Date().toISOString();
  await runs.applyTaskUpdates(db, id, inputs.map((_, position) => ({ position, status: 'running', startedAt })));
  // A stop asked through any server reaches this one on the lease's tick.
  const stop = new AbortController();
  const tick = setInterval(() => {
    runs.renewLease(db, id, ctx.presence.id).then((l) => (!l.held || l.stopRequested) && stop.abort(), () => undefined);
  }, 2000);
  let probes: Awaited<ReturnType<typeof runProbes>>;
  try {
    probes = await runProbes(ctx.ssh.transport, inputs.map((input) => ({ target: targetOf(access.get(Number(input.node))!), input })), { ...(options.budgetS ? { budgetS: options.budgetS, sendS: Math.max(2, options.budgetS - 2) } : {}), signal: stop.signal });
  } finally {
    clearInterval(tick);
  }
  const result = analyseVerification(plan, probes.map((p) => p.report));
  const finishedAt = new Date().toISOString();
  await runs.applyTaskUpdates(db, id, probes.map((p, position) => ({ position, status: stop.signal.aborted ? 'stopped' : p.report.answered ? 'ready' : 'error', output: p.output, finishedAt, ...(p.report.failure ? { message: p.report.failure } : {}) })));
  const errors = result.findings.filter((f) => f.severity === 'error');
  const message = stop.signal.aborted ? 'stopped by the operator' : errors.length ? `${errors.length} problem${errors.length === 1 ? '' : 's'}: ${errors.slice(0, 3).map((f) => f.message).join('; ')}` : 'every network passes between every node';
  await runs.endRealDeployment(db, id, stop.signal.aborted ? 'stopped' : result.status === 'passed' ? 'succeeded' : 'failed', message);
  return {
    deployment_id: id,
    ...result,
    nodes: probes.map((p) => ({ uid: p.report.node, name: reachable.find((n) => String(n.id) === p.report.node)!.name, answered: p.report.answered, failure: p.report.failure ?? null })),
  };
}
