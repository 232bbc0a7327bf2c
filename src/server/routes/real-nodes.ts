/**
 * Real nodes over SSH: Hearth's public key (to authorize on nodes), one node with its facts, and
 * refreshing them. Registering a real node is `POST /nodes` with `address` (routes/nodes.ts hands
 * it to domain/real-nodes.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { OPERATOR, PUBLIC_READ, refuseLesserRole } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';
import { whoAsked } from '../audit.js';
import { accessView, checkReachability, refreshRealNode, type NodeAccessContext } from '../domain/real-nodes.js';
import { nodeView } from './nodes.js';
import { networkDataOf } from '../domain/networks.js';
import { deployRunRoutes } from './deploy-runs.js';
import { liveOutputRoutes } from './live-output.js';
import { graphEstimateRoutes } from './graph-estimate.js';
import { deployPlanRoutes } from './deploy-plan.js';
import { inventoryRoutes } from './inventory.js';
import { answer, errors } from './answers.js';
import { NODE } from './shapes.js';

const SSH_KEY = { type: 'object', required: ['public_key', 'fingerprint', 'type'], additionalProperties: false, properties: { public_key: { type: 'string', description: 'one authorized_keys line' }, fingerprint: { type: 'string' }, type: { type: 'string' } } } as const;

const nodeIdParam = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } } as const;
export const FINGERPRINT = { type: 'string', pattern: '^SHA256:[A-Za-z0-9+/]{43}$' } as const;

/** The SSH side of the context, or a clear refusal where the server runs without one (tests of other areas). */
export function accessContext(ctx: AppContext): NodeAccessContext {
  if (!ctx.ssh) throw new HttpError(503, 'server/no-ssh-key', 'this server has no SSH key, so it cannot reach real nodes', { hint: 'install OpenSSH\'s client (ssh, ssh-keygen) and rsync on the Hearth server, then restart it: it makes its key at start' });
  return { db: ctx.db, ssh: ctx.ssh };
}

/** Node views with the real-node fields (`simulated`, address, ...); `facts` only when asked. */
export async function nodeViews(q: store.Queryable, nodes: store.NodeRecord[], withFacts = false) {
  const access = await real.realNodes(q, nodes.map((n) => n.id));
  return nodes.map((n) => {
    const a = accessView(access.get(n.id));
    if (!withFacts && 'facts' in a) {
      const { facts: _facts, ...rest } = a;
      return { ...nodeView(n), ...rest };
    }
    return { ...nodeView(n), ...a };
  });
}

export function realNodeRoutes(api: FastifyInstance, ctx: AppContext): void {
  deployRunRoutes(api, ctx);
  liveOutputRoutes(api, ctx);
  graphEstimateRoutes(api, ctx);
  deployPlanRoutes(api, ctx);
  inventoryRoutes(api, ctx);
  // Every minute (HEARTH_NODE_CHECK_SECONDS; 0 turns it off), unreachable real nodes are marked offline.
  // Hearth's SSH key may be settled after the routes are made (start-up work that finishes once the
  // server listens), so each tick looks for it rather than the registration.
  const every = Number(process.env.HEARTH_NODE_CHECK_SECONDS ?? 60) * 1000;
  if (Number.isFinite(every) && every > 0) {
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    api.addHook('onReady', async () => {
      timer = setInterval(() => {
        if (running || !ctx.ssh) return;
        running = true;
        void checkReachability(accessContext(ctx))
          .catch(() => undefined)
          .finally(() => (running = false));
      }, every);
      timer.unref();
    });
    api.addHook('onClose', async () => clearInterval(timer));
  }
  api.get('/ssh-key', { config: PUBLIC_READ, schema: { summary: 'Hearth\'s SSH public key: authorize it for the SSH user on every real node', tags: ['nodes'], response: { 200: answer('the key', SSH_KEY), ...errors(503) } } }, async () => {
    const ssh = accessContext(ctx).ssh;
    return { public_key: ssh.publicKey, fingerprint: ssh.fingerprint, type: ssh.publicKey.split(' ')[0] };
  });

  api.get<{ Params: { id: number } }>('/nodes/:id', { config: PUBLIC_READ, schema: { summary: 'One node: roles, status, how it is reached, its facts and its addresses (network_data)', tags: ['nodes'], params: nodeIdParam, response: { 200: answer('the node', NODE), ...errors(404) } } }, async (req) => {
    const [node] = await store.getNodes(ctx.db, [req.params.id]);
    if (!node) throw new HttpError(404, 'node/not-found', `there is no node ${req.params.id}`);
    return { ...(await nodeViews(ctx.db, [node], true))[0], network_data: await networkDataOf(ctx.db, node) };
  });

  api.post<{ Params: { id: number }; Body: { accept_host_key?: string } | undefined }>(
    '/nodes/:id/refresh',
    {
      config: OPERATOR,
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        summary: 'Connect to a real node and gather its facts again (operator); accept_host_key (the fingerprint shown) replaces a changed host key (admin only)',
        tags: ['nodes'],
        params: nodeIdParam,
        body: { type: 'object', additionalProperties: false, properties: { accept_host_key: FINGERPRINT } },
        bodyOptional: true,
        response: { 200: answer('the node with its facts gathered again', NODE), ...errors(403, 404, 409, 422, 503) },
      },
    },
    async (req) => {
      // Trusting a changed host key may hand every secret a deployment sends to another machine.
      if (req.body?.accept_host_key !== undefined) refuseLesserRole(req.actor, 'admin');
      await refreshRealNode(accessContext(ctx), req.params.id, req.body?.accept_host_key);
      if (req.body?.accept_host_key !== undefined) await real.recordHostKeyAcceptance(ctx.db, req.params.id, whoAsked(req.actor));
      const [node] = await store.getNodes(ctx.db, [req.params.id]);
      return (await nodeViews(ctx.db, [node], true))[0];
    },
  );
}
