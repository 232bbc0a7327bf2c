/** Client actions for real nodes and Hearth's SSH key (loaded lazily by src/cli/commands/client.ts). */
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import type { Schemas } from '../../api/client.js';
import { print, table } from './table.js';
import { chosenFormat, showOutput, type OutputOptions } from '../output.js';

const usage = (message: string) => new ClientError(message, EXIT_USAGE);

const gb = (bytes: number | null | undefined) => (typeof bytes === 'number' ? `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB` : '-');

/** A node in words: how it is reached, its facts, its last SSH error. */
export function describeNode(n: Schemas['Node']): string {
  const lines = [`${n.name} (node ${n.id}), ${n.simulated ? 'simulated' : `${n.ssh_user}@${n.address}:${n.ssh_port}`}, ${n.status}`];
  lines.push(`environment: ${n.cluster_id ?? '-'}; roles: ${n.roles.join(', ') || '-'}; pending: ${n.pending_roles.join(', ') || '-'}`);
  if (!n.simulated) lines.push(`host key: ${n.host_key_fingerprint ?? '-'}${n.host_key_accepted_by ? ` (changed key accepted by ${n.host_key_accepted_by} at ${n.host_key_accepted_at ?? '?'})` : ''}`);
  if (n.reach_error) lines.push(`last SSH error (${n.reach_error.at}): ${n.reach_error.code}: ${n.reach_error.message}`);
  if (n.network_data?.length) {
    lines.push('', 'addresses:');
    lines.push(table(['network', 'address', 'vlan', 'interface', 'gateway'], n.network_data.map((d) => [d.name, d.ip ?? '-', d.vlan === null ? 'untagged' : String(d.vlan), d.dev ?? '-', d.gateway ?? '-'])).trimEnd());
  }
  const f = n.facts;
  if (f) {
    lines.push(`facts (${n.facts_at}): ${f.hostname}, ${f.os?.pretty_name ?? f.os?.id ?? 'unknown OS'}, ${f.cpus ?? '?'} CPUs, ${gb(f.memory_bytes)} memory`, '', 'disks:');
    lines.push(table(['disk', 'size', 'type', 'model', 'rotational'], f.disks.map((d) => [d.name, gb(d.size_bytes), d.type, d.model, d.rotational === null ? '-' : d.rotational ? 'yes' : 'no'])).trimEnd());
    lines.push('interfaces:');
    lines.push(table(['interface', 'MAC', 'state', 'addresses', 'speed'], f.interfaces.map((i) => [i.name, i.mac, i.state, i.addresses, i.speed_mbps ? `${i.speed_mbps} Mb/s` : '-'])).trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

async function clusterRef(c: Client, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const found = (await c.call('get', '/clusters')).find((x) => x.name === ref);
  if (!found) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, EXIT_FINDINGS);
  return found.id;
}

export const nodeAddReal = (address: string, o: ServerOptions & { name: string[]; sshUser?: string; sshPort?: string; env?: string; count?: string }) =>
  run(o, async (c) => {
    if (o.count !== undefined) throw usage('node add <address> registers one real node; --count makes simulated ones (leave out the address)');
    if (o.name.length > 1) throw usage('a real node has one --name');
    const port = o.sshPort === undefined ? undefined : Number(o.sshPort);
    if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) throw usage('--ssh-port must be a port number from 1 to 65535');
    const body = { address, ...(o.name[0] ? { name: o.name[0] } : {}), ...(o.sshUser ? { ssh_user: o.sshUser } : {}), ...(port ? { ssh_port: port } : {}), ...(o.env ? { cluster_id: await clusterRef(c, o.env) } : {}) };
    const res = await c.call('post', '/nodes', { body });
    // A real node's registration answers the node itself.
    const node = res.node!;
    print(o.json, res, () => `added node ${node.id} (${node.name}) at ${node.address}, host key ${node.host_key_fingerprint}\n\n${describeNode(node)}`);
  });

/**
 * Simulated nodes (--count, --name), put in an environment with --env (issue 28: --env was
 * ignored). The environment is found before anything is registered, and nodes it refuses are
 * removed again, so a refusal leaves no stray nodes behind.
 */
export const nodeAddSimulated = (o: ServerOptions & { count?: string; name: string[]; env?: string; sshUser?: string; sshPort?: string }) =>
  run(o, async (c) => {
    const count = o.count === undefined ? undefined : Number(o.count);
    if (count !== undefined && !(Number.isInteger(count) && count >= 1 && count <= 5000)) throw usage('--count must be a whole number from 1 to 5000');
    if (count === undefined && !o.name.length) throw usage('node add needs --count N (simulated nodes) or --name <name> (repeatable)');
    if (o.sshUser !== undefined || o.sshPort !== undefined) throw usage('--ssh-user and --ssh-port are for a real node: give its address');
    const env = o.env === undefined ? undefined : await clusterRef(c, o.env);
    if (env !== undefined) await c.call('get', '/clusters/{id}', { params: { id: env } });
    const body = { ...(o.name.length ? { nodes: o.name.map((name) => ({ name })) } : {}), ...(count ? { simulate: { count } } : {}) };
    const res = await c.call('post', '/nodes', { body });
    if (env !== undefined) {
      try {
        await c.call('post', '/clusters/{id}/nodes', { params: { id: env }, query: {}, body: { assignments: res.ids.map((id) => ({ node_id: id, roles: [] })) } });
      } catch (e) {
        for (const id of res.ids) await c.call('delete', '/nodes/{id}', { params: { id } }).catch(() => undefined);
        throw e;
      }
    }
    const ids = res.ids.length > 10 ? `${res.ids[0]}..${res.ids[res.ids.length - 1]}` : res.ids.join(', ');
    print(o.json, res, () => `added ${res.ids.length} node(s): ${ids}${env !== undefined ? ` to environment ${o.env}` : ''}\n`);
  });

export const nodeShow = (id: string, o: ServerOptions & OutputOptions) =>
  run(o, async (c) => {
    chosenFormat(o);
    if (!/^\d+$/.test(id)) throw usage('node show needs a node id (hearth node list shows them)');
    const n = await c.call('get', '/nodes/{id}', { params: { id: Number(id) } });
    process.stdout.write(await showOutput(o, n, () => describeNode(n)));
  });

export const nodeRefresh = (id: string, o: ServerOptions & { acceptHostKey?: string }) =>
  run(o, async (c) => {
    if (!/^\d+$/.test(id)) throw usage('node refresh needs a node id (hearth node list shows them)');
    if (o.acceptHostKey !== undefined && !/^SHA256:[A-Za-z0-9+/]{43}$/.test(o.acceptHostKey)) throw usage('--accept-host-key takes the fingerprint Hearth showed, SHA256:…');
    const n = await c.call('post', '/nodes/{id}/refresh', { params: { id: Number(id) }, body: o.acceptHostKey ? { accept_host_key: o.acceptHostKey } : {} });
    print(o.json, n, () => describeNode(n));
  });

export const sshKey = (o: ServerOptions) =>
  run(o, async (c) => {
    const k = await c.call('get', '/ssh-key');
    print(o.json, k, () => `${k.public_key}\n`);
    if (!o.json) process.stderr.write(`# ${k.fingerprint}: add the line above to ~/.ssh/authorized_keys of the SSH user on every node\n`);
  });
