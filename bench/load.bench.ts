/**
 * Load on loopback against a real `hearth serve` (embedded PGlite, or PostgreSQL when DATABASE_URL
 * is set): many clients at once read the components and the wizard state, create environments and
 * assign roles, for a fixed time. Prints throughput and p50/p99 per kind of request, counts every
 * 5xx, and checks afterwards that each accepted write is stored exactly once (none lost, none
 * doubled). Figures only; it never fails on speed. `HEARTH_LOAD_SECONDS` (default 15) and
 * `HEARTH_LOAD_CONNECTIONS` (default 32) tune it.
 */
import autocannon, { type Request } from 'autocannon';
import { startServer } from '../test/support/serve.js';

const seconds = Number(process.env.HEARTH_LOAD_SECONDS ?? 15);
const connections = Number(process.env.HEARTH_LOAD_CONNECTIONS ?? 32);
const BASE = ['hypervisor:qemu', 'network:neutron:core:ml2', 'network:neutron:ml2:vlan', 'storage:block:ceph'];

const server = await startServer({ env: process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {} });
const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(server.url + path, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, json: (await res.json()) as unknown };
};

try {
  const release = ((await call('GET', '/api/v1/releases')).json as Array<{ id: string }>)[0].id;
  const cluster = await call('POST', '/api/v1/clusters', { name: 'load-roles', release_id: release, components: BASE });
  const clusterId = (cluster.json as { id: number }).id;
  // A pool of free nodes, each handed to exactly one role-assignment request.
  const pool: number[] = [];
  for (let i = 0; i < 4; i++) pool.push(...((await call('POST', '/api/v1/nodes', { simulate: { count: 5000, prefix: `load${i}-` } })).json as { ids: number[] }).ids);

  interface Kind {
    name: string;
    latencies: number[];
    statuses: Map<number, number>;
  }
  const kinds = new Map<string, Kind>();
  const record = (name: string, status: number, ms: number) => {
    let k = kinds.get(name);
    if (!k) kinds.set(name, (k = { name, latencies: [], statuses: new Map() }));
    k.latencies.push(ms);
    k.statuses.set(status, (k.statuses.get(status) ?? 0) + 1);
  };
  let envCounter = 0;
  const createdNames: string[] = [];
  const assignedNodes: number[] = [];
  // Requests still in flight when the time is up get no response here but may be stored.
  const issuedNames = new Set<string>();
  const issuedNodes = new Set<number>();
  type Context = Record<string, unknown>;
  const timed = (name: string, extra?: (status: number, context: Context) => void) => ({
    onResponse: (status: number, _body: string, context: object) => {
      const c = context as Context;
      record(name, status, performance.now() - (c.t0 as number));
      extra?.(status, c);
    },
  });
  const stamp = (req: Request, context: object): Request => {
    (context as Context).t0 = performance.now();
    return req;
  };

  const result = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    headers: auth,
    requests: [
      { method: 'GET', path: `/api/v1/releases/${release}/components`, setupRequest: stamp, ...timed('read components') },
      { method: 'GET', path: `/api/v1/releases/${release}/components/state?select=${BASE.join(',')}`, setupRequest: stamp, ...timed('wizard state') },
      {
        method: 'POST',
        path: '/api/v1/clusters',
        setupRequest: (req: Request, ctx: object) => {
          const context = ctx as Context;
          const name = `load-env-${++envCounter}`;
          context.name = name;
          issuedNames.add(name);
          return stamp({ ...req, body: JSON.stringify({ name, release_id: release, components: BASE }) }, context);
        },
        ...timed('create environment', (status, context) => {
          if (status === 201) createdNames.push(context.name as string);
        }),
      },
      {
        method: 'POST',
        path: `/api/v1/clusters/${clusterId}/nodes`,
        setupRequest: (req: Request, ctx: object) => {
          const context = ctx as Context;
          const node = pool.pop();
          if (node === undefined) return stamp({ ...req, method: 'GET', path: `/api/v1/clusters/${clusterId}/nodes`, body: undefined }, context);
          context.node = node;
          issuedNodes.add(node);
          return stamp({ ...req, body: JSON.stringify({ assignments: [{ node_id: node, roles: ['compute'] }] }) }, context);
        },
        ...timed('assign role', (status, context) => {
          if (status === 200 && context.node !== undefined) assignedNodes.push(context.node as number);
          context.node = undefined;
        }),
      },
    ],
  });

  const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  console.log(`\n## load: ${connections} connections, ${seconds} s, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
  console.log('| request | count | per s | p50 ms | p99 ms | statuses |');
  console.log('|---|---|---|---|---|---|');
  for (const k of kinds.values()) {
    const sorted = [...k.latencies].sort((x, y) => x - y);
    const statuses = [...k.statuses].sort().map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`| ${k.name} | ${sorted.length} | ${(sorted.length / seconds).toFixed(1)} | ${pct(sorted, 0.5).toFixed(1)} | ${pct(sorted, 0.99).toFixed(1)} | ${statuses} |`);
  }
  console.log(`| all (autocannon) | ${result.requests.total} | ${result.requests.average.toFixed(1)} | ${result.latency.p50} | ${result.latency.p99} | 2xx ${result['2xx']}, 4xx ${result['4xx']}, 5xx ${result['5xx']}, errors ${result.errors}, timeouts ${result.timeouts} |`);

  // No lost or doubled writes: every 201 is one stored environment, every 200 one assigned node.
  const clusters = (await call('GET', '/api/v1/clusters')).json as Array<{ name: string }>;
  const stored = clusters.filter((c) => c.name.startsWith('load-env-')).map((c) => c.name).sort();
  const lostEnvs = createdNames.filter((n) => !stored.includes(n)).length;
  const doubledEnvs = stored.length - new Set(stored).size;
  const strayEnvs = stored.filter((n) => !issuedNames.has(n)).length;
  const inFlightEnvs = stored.length - new Set(stored).size === 0 ? stored.filter((n) => !createdNames.includes(n)).length : NaN;
  const nodes = (await call('GET', `/api/v1/clusters/${clusterId}/nodes`)).json as Array<{ id: number; pending_roles?: string[] }>;
  const withRole = new Set(nodes.filter((n) => (n.pending_roles ?? []).includes('compute')).map((n) => n.id));
  const lostRoles = assignedNodes.filter((id) => !withRole.has(id)).length;
  const strayRoles = [...withRole].filter((id) => !issuedNodes.has(id)).length;
  console.log(`\nenvironments: ${issuedNames.size} sent, ${createdNames.length} answered 201, ${stored.length} stored: ${lostEnvs} lost, ${doubledEnvs} doubled, ${strayEnvs} never sent, ${inFlightEnvs} still in flight at the end`);
  console.log(`role assignments: ${issuedNodes.size} sent, ${assignedNodes.length} answered 200, ${withRole.size} nodes hold the role: ${lostRoles} lost, ${strayRoles} never sent, ${withRole.size - assignedNodes.length} still in flight at the end`);
  console.log(`5xx responses: ${result['5xx']}`);
} finally {
  await server.stop();
}
