/**
 * Registering real nodes and refreshing their facts. Hearth connects first and stores after: a node
 * that cannot be reached is refused with the SSH error in words, and nothing is kept. The host key
 * seen at registration is recorded; later a different key is refused until the operator accepts
 * that very key (by its fingerprint), as they would after reinstalling the host.
 */
import { gatherFacts, type NodeFacts } from '../../deploy/facts.js';
import { SshTransport, fingerprint } from '../../deploy/ssh.js';
import type { DeployTarget } from '../../deploy/transport.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';
import { HttpError } from '../errors.js';
import { clusterOr404 } from './environment.js';

export interface NodeAccessContext {
  db: store.Database;
  ssh: { keyFile: string; publicKey: string; fingerprint: string; transport: SshTransport; publicUrl?: string };
}

export interface NewRealNode {
  address: string;
  name?: string;
  ssh_user?: string;
  ssh_port?: number;
  cluster_id?: number;
}

/** The `hardware` summary every node has, from facts. */
export function hardwareOf(facts: NodeFacts): store.NodeHardware {
  return {
    ...(facts.cpus !== null ? { cpus: facts.cpus } : {}),
    ...(facts.memory_bytes !== null ? { memory_gb: Math.round((facts.memory_bytes / 1024 ** 3) * 10) / 10 } : {}),
    disks_gb: facts.disks.map((d) => Math.round((d.size_bytes / 1024 ** 3) * 10) / 10),
  };
}

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/** `doing` is what was refused: registering a new node, or refreshing a known one. */
function unreachable(address: string, error: { code: string; message: string }, doing = 'register'): HttpError {
  const hint =
    error.code === 'ssh/auth-failed'
      ? 'put the key from `hearth ssh-key` (GET /api/v1/ssh-key) in that user\'s ~/.ssh/authorized_keys'
      : error.code === 'ssh/unreachable'
        ? 'check the address and port, and that sshd runs there and this server can reach it'
        : 'try `ssh` to the node from the Hearth server with the same user and port';
  return new HttpError(422, 'node/unreachable', `cannot ${doing} ${address}: ${error.message}`, { ssh_error: error.code, hint });
}

export async function registerRealNode(ctx: NodeAccessContext, input: NewRealNode): Promise<number> {
  const target: DeployTarget = { id: 'new', name: input.name ?? input.address, address: input.address, port: input.ssh_port ?? 22, user: input.ssh_user ?? 'root' };
  const existing = await real.nodeAtAddress(ctx.db, target.address, target.port);
  if (existing) throw new HttpError(409, 'node/address-taken', `${target.address}:${target.port} is node ${existing.id} ('${existing.name}') already`, { node_id: existing.id, hint: '`hearth node refresh` gathers its facts again' });
  if (input.cluster_id !== undefined) await clusterOr404(ctx.db, input.cluster_id);
  const gathered = await gatherFacts(ctx.ssh.transport, target);
  if (!gathered.ok) throw unreachable(target.address, gathered);
  const hostKey = ctx.ssh.transport.seenHostKey(target);
  if (!hostKey) throw new HttpError(422, 'node/no-host-key', `${target.address} answered but its host key could not be read`);
  const name = input.name ?? (HOST_NAME.test(gathered.facts.hostname) ? gathered.facts.hostname : `node-${target.address.replace(/[^A-Za-z0-9]/g, '-')}`);
  return ctx.db.transaction(async (tx) => {
    if (input.cluster_id !== undefined) {
      const cluster = await clusterOr404(tx, input.cluster_id, { lock: true });
      if (cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is being deployed`);
    }
    const taken = await tx.query<{ id: number }>('SELECT id FROM nodes WHERE name = $1', [name]);
    if (taken.length) {
      throw new HttpError(409, 'node/name-taken', `a node named '${name}' exists already`, { names: [name], hint: input.name ? 'choose another name' : `the host calls itself '${name}'; give this one another name with --name (name in the API)` });
    }
    if (await real.nodeAtAddress(tx, target.address, target.port)) throw new HttpError(409, 'node/address-taken', `${target.address}:${target.port} was registered meanwhile`);
    return real.insertRealNode(tx, { name, address: target.address, sshUser: target.user, sshPort: target.port, hostKey, facts: gathered.facts, hardware: hardwareOf(gathered.facts), ...(input.cluster_id !== undefined ? { clusterId: input.cluster_id } : {}) });
  });
}

export const targetOf = (n: real.NodeAccess): DeployTarget => ({ id: String(n.id), name: n.name, address: n.address, port: n.sshPort, user: n.sshUser, ...(n.hostKey ? { hostKey: n.hostKey } : {}) });

/** Gather a node's facts again; `acceptHostKey` (a fingerprint) replaces a changed host key. */
export async function refreshRealNode(ctx: NodeAccessContext, id: number, acceptHostKey?: string): Promise<void> {
  const [node] = await store.getNodes(ctx.db, [id]);
  if (!node) throw new HttpError(404, 'node/not-found', `there is no node ${id}`);
  const access = (await real.realNodes(ctx.db, [id])).get(id);
  if (!access) throw new HttpError(409, 'node/simulated', `node '${node.name}' is simulated: there is nothing to connect to`, { hint: 'register the real host with `hearth node add <address>`' });
  let target = targetOf(access);
  let gathered = await gatherFacts(ctx.ssh.transport, target);
  if (!gathered.ok && gathered.code === 'ssh/host-key-changed') {
    // Look at the key the node presents now, without trusting it for anything but the comparison.
    const probe = { ...target, hostKey: undefined };
    await ctx.ssh.transport.exec(probe, 'true', { timeoutMs: 20_000 });
    const presented = ctx.ssh.transport.seenHostKey(probe);
    const recorded = fingerprint(access.hostKey ?? '');
    const now = presented ? fingerprint(presented) : undefined;
    if (!presented || acceptHostKey !== now) {
      await real.recordReachError(ctx.db, id, { code: 'ssh/host-key-changed', message: gathered.message, ...(now ? { host_key: now } : {}) }, false);
      throw new HttpError(409, 'node/host-key-changed', `node '${node.name}' (${access.address}) presents a host key other than the one recorded: ${recorded} then, ${now ?? 'unreadable'} now`, {
        recorded_fingerprint: recorded,
        presented_fingerprint: now ?? null,
        hint: acceptHostKey && acceptHostKey !== now ? `the fingerprint accepted (${acceptHostKey}) is not the one presented` : `if the host was reinstalled, accept its new key: hearth node refresh ${id} --accept-host-key ${now}`,
      });
    }
    target = { ...target, hostKey: presented };
    gathered = await gatherFacts(ctx.ssh.transport, target);
  }
  if (!gathered.ok) {
    await real.recordReachError(ctx.db, id, gathered, gathered.code === 'ssh/unreachable');
    throw unreachable(access.address, gathered, `refresh node '${node.name}' at`);
  }
  await real.updateFacts(ctx.db, id, gathered.facts, hardwareOf(gathered.facts), target.hostKey!);
}

/** Real-node fields of the node view: simulated or how it is reached, its facts, its last SSH error. */
export function accessView(r: real.RealNodeRecord | undefined) {
  if (!r) return { simulated: true };
  return {
    simulated: false,
    address: r.address,
    ssh_user: r.sshUser,
    ssh_port: r.sshPort,
    host_key_fingerprint: r.hostKey ? fingerprint(r.hostKey) : null,
    facts: r.facts ?? null,
    facts_at: r.factsAt ?? null,
    reach_error: r.reachError ?? null,
    host_key_accepted_by: r.hostKeyAcceptedBy ?? null,
    host_key_accepted_at: r.hostKeyAcceptedAt ?? null,
  };
}

/**
 * The periodic reachability check: every real node not being deployed is asked `true`; one that
 * cannot be reached is marked `offline` with the SSH error, one that answers again gets its status
 * back. A changed host key is recorded but does not make a node offline. Ten nodes at a time.
 */
export async function checkReachability(ctx: NodeAccessContext): Promise<void> {
  const nodes = (await real.allRealNodes(ctx.db)).filter((n) => n.hostKey);
  const statuses = new Map((await store.getNodes(ctx.db, nodes.map((n) => n.id))).map((n) => [n.id, n]));
  let next = 0;
  const worker = async () => {
    while (next < nodes.length) {
      const n = nodes[next++];
      const node = statuses.get(n.id);
      if (!node || node.status === 'deploying') continue;
      const r = await ctx.ssh.transport.exec(targetOf(n), 'true', { timeoutMs: 20_000 });
      if (r.transportError) await real.recordReachError(ctx.db, n.id, r.transportError, r.transportError.code === 'ssh/unreachable');
      else if (node.status === 'offline' || n.reachError) await real.markReachable(ctx.db, n.id);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
}
