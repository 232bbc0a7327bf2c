/**
 * `POST /clusters/{id}/network_configuration/verify` (issue 27): the probe on every real node of
 * the environment at once (deploy/verify-networks.ts), core's answer (core/networks/verify.ts).
 * History: a verification is recorded as a run of its own graph type, `verify_networks` (not the
 * release's `network_verification` graph, whose Fuel tasks it does not run), one task per node
 * holding that node's probe output, so it is listed, kept and stopped like any run
 * (`POST /deployments/{id}/stop` through any server: the lease tick hears it).
 * Networks: the environment's own configuration (GET/PUT network_configuration), each network on
 * the interface the node's mapping puts it (GET/PUT /nodes/{id}/interfaces), probed from the node's
 * own address there (core/networks/verify-plan.ts).
 * One run at a time per environment: a verification is refused while a deployment, a removal or
 * another verification runs there (their traffic and changes would be mistaken for broken links).
 */
import { verifyPlanOf } from '../../core/networks/verify-plan.js';
import { analyseVerification, probePlan, type VerificationResult } from '../../core/networks/verify.js';
import { runProbes } from '../../deploy/verify-networks.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';
import * as runs from '../../store/task-runs.js';
import type { AppContext } from '../app.js';
import { HttpError } from '../errors.js';
import { targetOf } from './real-nodes.js';
import { clusterOr404 } from './environment.js';
import { environmentNetworks } from './networks.js';
import { nodeWirings } from './node-interfaces.js';

export const VERIFY_GRAPH_TYPE = 'verify_networks';
const TASK = 'verify_networks';

export interface VerificationAnswer extends VerificationResult {
  deployment_id: number;
  nodes: Array<{ uid: string; name: string; answered: boolean; failure: string | null }>;
}

export async function verifyNetworks(ctx: AppContext, clusterId: number, options: { budgetS?: number } = {}): Promise<VerificationAnswer> {
  const { db } = ctx;
  const cluster = await clusterOr404(db, clusterId);
  const nodes = await store.listNodes(db, { clusterId });
  const access = await real.realNodes(db, nodes.map((n) => n.id));
  const reachable = nodes.filter((n) => access.has(n.id));
  if (reachable.length < 2) {
    const simulated = nodes.length - reachable.length;
    throw new HttpError(409, 'verify/too-few-nodes', `environment '${cluster.name}' has ${reachable.length} real node${reachable.length === 1 ? '' : 's'}${simulated ? ` (and ${simulated} simulated, which have no wires to verify)` : ''}: verifying networks needs two at least`, {
      hint: `add real nodes to the environment first (hearth node add <address> --env ${cluster.name}, or hearth node assign ${cluster.name} --node <id>=<roles>), then verify`,
    });
  }
  if (!ctx.ssh) throw new HttpError(503, 'server/no-ssh-key', 'this server has no SSH key, so it cannot reach real nodes', { hint: "install OpenSSH's client (ssh, ssh-keygen) and rsync on the Hearth server, then restart it" });
  const env = await environmentNetworks(db, cluster);
  const wirings = await nodeWirings(db, env.config, reachable);
  const held = await store.nodeAddresses(db, { nodeIds: reachable.map((n) => n.id) });
  for (const w of wirings.values()) {
    if (w.facts.length === 0) throw new HttpError(409, 'verify/no-facts', `node '${w.node.name}' has no interfaces in its facts`, { hint: `read its facts again (hearth node refresh ${w.node.id}), then verify` });
  }
  const plan = verifyPlanOf(
    env.config,
    reachable.map((n) => {
      const w = wirings.get(n.id)!;
      return {
        id: String(n.id),
        name: n.name,
        roles: [...new Set([...n.roles, ...n.pendingRoles])],
        interfaces: w.interfaces,
        adminAddress: w.adminAddress ?? access.get(n.id)!.address,
        addresses: Object.fromEntries(held.filter((a) => a.nodeId === n.id).map((a) => [a.network, a.ip])),
      };
    }),
    env.roles,
  );
  const inputs = probePlan(plan);
  const id = await db.transaction(async (tx) => {
    const locked = await clusterOr404(tx, clusterId, { lock: true });
    // A run whose server died is not running any more (another server sharing PostgreSQL).
    await store.failInterruptedDeployments(tx, ctx.presence.alive, ctx.presence.id);
    const [running] = await tx.query<{ id: number; graph_type: string }>(`SELECT id, graph_type FROM deployments WHERE cluster_id = $1 AND status = 'running' ORDER BY id LIMIT 1`, [locked.id]);
    if (running) {
      const what = running.graph_type === VERIFY_GRAPH_TYPE ? 'a verification of its networks' : `its '${running.graph_type}' graph`;
      throw new HttpError(409, running.graph_type === VERIFY_GRAPH_TYPE ? 'verify/running' : 'cluster/deploying', `environment '${locked.name}' is running ${what} (deployment ${running.id}): verifying now would mistake that run's traffic and changes for broken links`, {
        hint: `verify when it has ended (hearth deployment show ${running.id}), or stop it (hearth env stop ${locked.name})`,
      });
    }
    return runs.createRealDeployment(tx, clusterId, VERIFY_GRAPH_TYPE, inputs.map((i) => ({ node: i.node, taskId: TASK, type: 'net_probe' })), ctx.presence.id);
  });
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
  } catch (e) {
    // Not left running in the history: the run ends failed, saying why.
    await runs.endRealDeployment(db, id, 'failed', `the verification failed: ${(e as Error).message}`).catch(() => undefined);
    throw e;
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
