/** /nodes and /clusters/{id}/nodes: register (simulated) nodes, assign roles, unassign. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkRoleAssignment } from '../../core/roles/index.js';
import { OPERATOR } from '../access.js';
import type { AppContext } from '../app.js';
import { numericMarker, PAGED_READ, pageInStore, unknownMarker } from '../paging.js';
import { HttpError, errorsOf, refused } from '../errors.js';
import * as store from '../../store/index.js';
import { recordIn, whoAsked } from '../audit.js';
import { clusterOr404, composedBeforeLock, composedUnderLock } from '../domain/environment.js';
import { droppedDeployedRoles, registerNodes } from '../domain/nodes.js';
import { registerRealNode } from '../domain/real-nodes.js';
import { accessContext, nodeViews } from './real-nodes.js';
import { NAME, clusterIdParam } from './schemas.js';
import { answer, errors, listOf, noContent } from './answers.js';
import { FINDING, NODE, NODES } from './shapes.js';
import { REMOVE_BODY, removeNodes } from './node-removal.js';
import { networkRoutes } from './networks.js';
import { environmentNetworks, syncAddresses } from '../domain/networks.js';

const REGISTERED = {
  type: 'object',
  required: ['ids'],
  additionalProperties: false,
  properties: { ids: { type: 'array', items: { type: 'integer' }, description: 'the new nodes\' ids' }, node: NODE },
} as const;
const ASSIGNED = {
  oneOf: [
    { type: 'object', required: ['nodes', 'findings'], additionalProperties: false, properties: { nodes: NODES, findings: { ...listOf(FINDING), description: 'warnings: limits are judged when the environment deploys' } } },
    { type: 'object', required: ['ok', 'findings'], additionalProperties: false, properties: { ok: { type: 'boolean', description: 'dry_run: whether the assignment would be accepted' }, findings: listOf(FINDING) } },
  ],
} as const;

export const nodeView = (n: store.NodeRecord) => ({ id: n.id, name: n.name, hardware: n.hardware, cluster_id: n.clusterId ?? null, roles: n.roles, pending_roles: n.pendingRoles, status: n.status });

const nodeIdParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
const ROLE = { type: 'string', minLength: 1, maxLength: 100 } as const;
const HARDWARE = { type: 'object', maxProperties: 50, properties: { cpus: { type: 'integer', minimum: 0, maximum: 100000 }, memory_gb: { type: 'number', minimum: 0 }, disks_gb: { type: 'array', maxItems: 64, items: { type: 'number', minimum: 0 } } } } as const;

/** Limits are about the whole environment when it deploys; while roles are being assigned one by one, too few is normal. */
const NOT_YET = new Set(['role/too-few', 'role/below-recommended']);

export function nodeRoutes(api: FastifyInstance, ctx: AppContext): void {
  networkRoutes(api, ctx);
  api.post<{ Body: { nodes?: Array<{ name: string; hardware?: store.NodeHardware }>; simulate?: { count: number; prefix?: string; hardware?: store.NodeHardware }; address?: string; name?: string; ssh_user?: string; ssh_port?: number; cluster_id?: number } }>(
    '/nodes',
    {
      config: OPERATOR,
      schema: {
        summary: 'Register a real node (`address`: Hearth connects over SSH, records its host key and gathers its facts), simulated nodes by `nodes` name, or `simulate` any number of them',
        tags: ['nodes'],
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            nodes: { type: 'array', minItems: 1, maxItems: 5000, items: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: NAME, hardware: HARDWARE } } },
            simulate: { type: 'object', required: ['count'], additionalProperties: false, properties: { count: { type: 'integer', minimum: 1, maximum: 5000 }, prefix: { type: 'string', maxLength: 50, pattern: '^[A-Za-z0-9_.-]*$' }, hardware: HARDWARE } },
            // A real node: an IP address or a DNS name (no options smuggled in: it never starts with '-').
            address: { type: 'string', minLength: 1, maxLength: 253, pattern: '^([A-Za-z0-9][A-Za-z0-9.-]*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$' },
            name: NAME,
            ssh_user: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[a-z_][a-z0-9_.-]*$' },
            ssh_port: { type: 'integer', minimum: 1, maximum: 65535 },
            cluster_id: { type: 'integer', minimum: 1, maximum: 2147483647 },
          },
        },
        response: { 201: answer('registered', REGISTERED), ...errors(400, 409, 422, 503) },
      },
    },
    async (req, reply) => {
      const b = req.body;
      if (b.address !== undefined) {
        if (b.nodes || b.simulate) throw new HttpError(400, 'request/invalid', 'a real node (address) is registered on its own, without nodes or simulate');
        const id = await registerRealNode(accessContext(ctx), { address: b.address, ...(b.name !== undefined ? { name: b.name } : {}), ...(b.ssh_user ? { ssh_user: b.ssh_user } : {}), ...(b.ssh_port ? { ssh_port: b.ssh_port } : {}), ...(b.cluster_id ? { cluster_id: b.cluster_id } : {}) });
        const nodes = await store.getNodes(ctx.db, [id]);
        return reply.status(201).send({ ids: [id], node: (await nodeViews(ctx.db, nodes, true))[0] });
      }
      const stray = (['name', 'ssh_user', 'ssh_port', 'cluster_id'] as const).filter((k) => b[k] !== undefined);
      if (stray.length) throw new HttpError(400, 'request/invalid', `${stray.join(', ')} belong${stray.length === 1 ? 's' : ''} with address (a real node)`, { hint: 'name simulated nodes with nodes: [{name}]' });
      if (!b.nodes && !b.simulate) throw new HttpError(400, 'request/invalid', 'say address (a real node), nodes or simulate');
      const list = [...(req.body.nodes ?? []).map((n) => ({ name: n.name, hardware: n.hardware ?? {} }))];
      const sim = req.body.simulate;
      // Simulated nodes are named `<prefix>-<id>`: unique, whatever the prefix (see domain/nodes.ts).
      const simulate = sim ? { count: sim.count, prefix: sim.prefix?.replace(/-+$/, '') || 'node', hardware: sim.hardware ?? { cpus: 8, memory_gb: 32, disks_gb: [500] } } : undefined;
      const ids = await ctx.db.transaction((tx) => registerNodes(tx, list, simulate));
      return reply.status(201).send({ ids });
    },
  );

  api.get<{ Querystring: { cluster_id?: number; unassigned?: boolean } }>(
    '/nodes',
    { config: PAGED_READ, schema: { summary: 'List nodes', tags: ['nodes'], querystring: { type: 'object', properties: { cluster_id: { type: 'integer', minimum: 1, maximum: 2147483647 }, unassigned: { type: 'boolean' } } }, response: { 200: answer('nodes (real ones without their facts)', NODES) } } },
    async (req) => nodeViews(ctx.db, await nodesPage(ctx.db, req, { ...(req.query.cluster_id !== undefined ? { clusterId: req.query.cluster_id } : {}), ...(req.query.unassigned ? { unassigned: true } : {}) })),
  );

  api.delete<{ Params: { id: number } }>('/nodes/:id', { config: OPERATOR, schema: { summary: 'Remove an unassigned node', tags: ['nodes'], params: nodeIdParam, response: { 204: noContent('removed'), ...errors(404, 409) } } }, async (req, reply) => {
    await ctx.db.transaction(async (tx) => {
      const [node] = await store.getNodes(tx, [req.params.id]);
      if (!node) throw new HttpError(404, 'node/not-found', `there is no node ${req.params.id}`);
      if (node.clusterId !== undefined) throw new HttpError(409, 'node/assigned', `node '${node.name}' is in an environment; unassign it first`);
      await store.deleteNodes(tx, [node.id]);
      await recordIn(tx, req, 204);
    });
    return reply.status(204).send();
  });

  api.get<{ Params: { id: number } }>('/clusters/:id/nodes', { config: PAGED_READ, schema: { summary: 'Nodes of an environment', tags: ['nodes'], params: clusterIdParam, response: { 200: answer('its nodes', NODES), ...errors(404) } } }, async (req) => {
    await clusterOr404(ctx.db, req.params.id);
    return nodeViews(ctx.db, await nodesPage(ctx.db, req, { clusterId: req.params.id }));
  });

  api.post<{ Params: { id: number }; Querystring: { dry_run?: boolean }; Body: { assignments: Array<{ node_id: number; roles: string[] }> } }>(
    '/clusters/:id/nodes',
    {
      config: OPERATOR,
      schema: {
        summary: 'Assign nodes to the environment with pending roles (role rules enforced); with dry_run=true, only say what the rules find',
        tags: ['nodes'],
        params: clusterIdParam,
        querystring: { type: 'object', properties: { dry_run: { type: 'boolean' } } },
        body: {
          type: 'object',
          required: ['assignments'],
          additionalProperties: false,
          properties: {
            assignments: {
              type: 'array',
              minItems: 1,
              maxItems: 5000,
              items: { type: 'object', required: ['node_id', 'roles'], additionalProperties: false, properties: { node_id: { type: 'integer', minimum: 1, maximum: 2147483647 }, roles: { type: 'array', maxItems: 50, items: ROLE } } },
            },
          },
        },
        response: { 200: answer('the environment\'s nodes and the rules\' warnings; with dry_run, whether it would be accepted and why', ASSIGNED), ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      const early = await composedBeforeLock(ctx.db, req.params.id);
      const outcome = await ctx.db.transaction(async (tx) => {
        // The row lock queues assignments to one environment, so a role limited to `max: 1` is never granted twice.
        const cluster = await clusterOr404(tx, req.params.id, { lock: true });
        if (cluster.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${cluster.name}' is being deployed; roles are locked until it ends`);
        const ids = [...new Set(req.body.assignments.map((a) => a.node_id))];
        if (ids.length !== req.body.assignments.length) throw new HttpError(400, 'node/listed-twice', 'a node is listed twice');
        const nodes = await store.getNodes(tx, ids);
        const missing = ids.filter((id) => !nodes.some((n) => n.id === id));
        if (missing.length) throw new HttpError(404, 'node/not-found', `there is no node ${missing.join(', ')}`);
        const elsewhere = nodes.filter((n) => n.clusterId !== undefined && n.clusterId !== cluster.id);
        if (elsewhere.length) throw new HttpError(409, 'node/in-another-cluster', `${elsewhere.map((n) => `'${n.name}'`).join(', ')} belong${elsewhere.length === 1 ? 's' : ''} to another environment`);
        const wanted = new Map(req.body.assignments.map((a) => [a.node_id, [...new Set(a.roles)]]));
        const current = await store.listNodes(tx, { clusterId: cluster.id });
        const all = [...current.filter((n) => !wanted.has(n.id)), ...nodes];
        if (all.length > ctx.maxEnvironmentNodes) {
          throw new HttpError(409, 'cluster/too-many-nodes', `environment '${cluster.name}' would hold ${all.length} nodes; this server allows ${ctx.maxEnvironmentNodes} in one environment`, {
            limit: ctx.maxEnvironmentNodes,
            hint: 'split the cloud into several environments, or start the server with a higher --max-environment-nodes',
          });
        }
        const composition = await composedUnderLock(tx, cluster, early);
        const proposal = all.map((n) => ({ id: n.id, name: n.name, roles: [...new Set([...n.roles, ...(wanted.get(n.id) ?? n.pendingRoles)])] }));
        const checks = checkRoleAssignment(composition.composed, proposal, cluster.attributes, { models: { cluster: { name: cluster.name, status: cluster.status } } });
        const blocking = [...droppedDeployedRoles(nodes, wanted), ...errorsOf(checks).filter((f) => !NOT_YET.has(f.code))];
        // The UI asks before saving, so people see conflicts and limits while they choose.
        if (req.query.dry_run) return { dryRun: true as const, ok: blocking.length === 0, findings: [...droppedDeployedRoles(nodes, wanted), ...checks.map((f) => (f.severity === 'error' && NOT_YET.has(f.code) ? { ...f, severity: 'warning' as const } : f))] };
        if (blocking.length) throw refused('node/roles-refused', 'these roles cannot be assigned', blocking, blocking.some((f) => f.code === 'node/deployed-role') ? 409 : 400);
        const pending = new Map([...wanted].map(([id, roles]) => [id, roles.filter((r) => !nodes.find((n) => n.id === id)?.roles.includes(r))]));
        await store.assignNodes(tx, cluster.id, [...pending].map(([id, pendingRoles]) => ({ id, pendingRoles })));
        // Addresses follow the roles, in this transaction: a node with roles has one on each network it
        // needs. The environment's nodes as the update left them, in listNodes' order, and the
        // composition above: read again, they held the database (and every other request) longer.
        const assigned = all.map((n) => (pending.has(n.id) ? { ...n, clusterId: cluster.id, pendingRoles: pending.get(n.id)! } : n)).sort((a, b) => a.id - b.id);
        await syncAddresses(tx, await environmentNetworks(tx, cluster, composition), assigned);
        return { assigned, findings: checks.filter((f) => f.severity !== 'error' || NOT_YET.has(f.code)) };
      });
      if ('dryRun' in outcome) return { ok: outcome.ok, findings: outcome.findings };
      // The environment's nodes as GET /clusters/{id}/nodes shows them (simulated or how they are
      // reached), as this transaction committed them: read again, each assignment read every node
      // of the environment twice, and the embedded database's thread was the load bench's bottleneck.
      return { nodes: await nodeViews(ctx.db, outcome.assigned), findings: outcome.findings };
    },
  );

  api.post<{ Params: { id: number }; Body: { node_ids: number[]; clean?: boolean } }>(
    '/clusters/:id/nodes/unassign',
    {
      config: OPERATOR,
      schema: {
        summary:
          'Take nodes out of the environment, as DELETE /clusters/{id}/nodes does (deployed nodes are cleaned by the deletion graph first and stay, removing, until it succeeded); answers the nodes still in the environment',
        tags: ['nodes'],
        params: clusterIdParam,
        body: REMOVE_BODY,
        response: { 200: answer('the nodes left in the environment (those being cleaned among them, removing)', NODES), ...errors(404, 409) },
      },
    },
    async (req, reply) => {
      const removal = await removeNodes(ctx, req.log, req.params.id, req.body.node_ids, req.body.clean ?? true, whoAsked(req.actor), req);
      // The run to follow, for clients that read headers; DELETE /clusters/{id}/nodes answers it in full.
      if (removal.deployment) reply.header('hearth-deployment', String(removal.deployment.id));
      return removal.nodes;
    },
  );
}

/** The nodes a paged list answers: only the page asked, read in the database (paging.ts). */
async function nodesPage(db: store.Queryable, req: FastifyRequest, filter: { clusterId?: number; unassigned?: boolean }): Promise<store.NodeRecord[]> {
  const page = pageInStore(req);
  if (!page) return store.listNodes(db, filter);
  const nodes = await store.pageOfNodes(db, filter, { ...(page.marker !== undefined ? { after: numericMarker(page.marker) } : {}), ...(page.limit !== undefined ? { limit: page.limit } : {}) });
  if (!nodes) throw unknownMarker(page.marker!);
  return nodes;
}
