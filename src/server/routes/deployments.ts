/** Graphs and deployments of an environment. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { OPERATOR, PUBLIC_READ } from '../access.js';
import { numericMarker, PAGED_READ, readPaged } from '../paging.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { clusterOr404 } from '../domain/environment.js';
import { refuseSimulated, simulatedNodes, startDeployment, type RecordRun } from '../domain/runs/deploy.js';
import { registryOf, startRealDeployment } from '../domain/runs/real-deploy.js';
import { accessContext } from './real-nodes.js';
import { runRecorder, whoAsked } from '../audit.js';
import type { Removal } from '../domain/runs/removal-end.js';
import { VERIFY_GRAPH_TYPE } from '../domain/verify-networks.js';
import * as runs from '../../store/task-runs.js';
import { clusterIdParam } from './schemas.js';
import { answer, errors, listOf } from './answers.js';
import { DEPLOYMENT, DEPLOYMENT_GRAPH } from './shapes.js';
import { emptyCounts, type RunCounts } from '../../core/lifecycle/index.js';

const GRAPH_TYPE = { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' } as const;

/**
 * A run as the API shows it: with its `counts` (the lifecycle's outcomes), `done` is the tasks that
 * succeeded and `progress` their share; skipped, failed or never-run work is not done.
 */
function deploymentView(d: store.DeploymentRecord, mode: 'dry-run' | 'real' = 'dry-run', counts: RunCounts = emptyCounts()) {
  const done = counts.succeeded;
  return {
    id: d.id,
    mode,
    dry_run: mode === 'dry-run',
    cluster_id: d.clusterId,
    graph_type: d.graphType,
    status: d.status,
    total: d.total,
    done,
    progress: d.total ? Math.round((done / d.total) * 100) : 100,
    counts,
    message: d.message ?? null,
    started_at: d.startedAt,
    finished_at: d.finishedAt ?? null,
    requested_by: d.requestedBy ?? null,
    ...(d.stoppedBy ? { stopped_by: d.stoppedBy, stopped_at: d.stoppedAt ?? null } : {}),
    ...(d.skippedNodes ? { skipped_nodes: d.skippedNodes } : {}),
  };
}

/** Runs as the API shows them, each with its mode and counts (two queries for the lot). */
export async function deploymentViews(q: store.Queryable, list: store.DeploymentRecord[]) {
  const ids = list.map((d) => d.id);
  const [modes, counts] = await Promise.all([runs.deploymentModes(q, ids), store.runCounts(q, ids)]);
  return list.map((d) => deploymentView(d, modes.get(d.id), counts.get(d.id)));
}

export async function deploymentViewOf(q: store.Queryable, d: store.DeploymentRecord) {
  return (await deploymentViews(q, [d]))[0];
}

/** What starting a run takes: POST /clusters/{id}/deploy's body, and POST …/graphs/{type}/run's. */
interface RunBody {
  simulate_failure?: { task: string };
  dry_run?: boolean;
  max_parallel?: number;
  resume?: boolean;
  skip_offline?: boolean;
  nodes?: number[];
}

/**
 * Starts a run of one graph: real on real nodes over SSH, or the dry run (the default when every
 * node is simulated). Both routes start runs here, so a graph run and a deployment meet the same
 * checks and answer the same shape.
 */
export async function startRun(ctx: AppContext, log: FastifyBaseLogger, clusterId: number, graphType: string, body: RunBody, extra: { removal?: Removal; requestedBy?: string; record?: RecordRun } = {}) {
  let dryRun = body.dry_run ?? (body.simulate_failure ? true : body.resume ? false : undefined);
  if (body.resume && dryRun) throw new HttpError(400, 'request/invalid', 'resume belongs to a real deployment');
  // A verification is re-run, not resumed: its answer holds for the moment it ran, all nodes at once.
  if (body.resume && graphType === VERIFY_GRAPH_TYPE) throw new HttpError(409, 'deploy/not-resumable', `a '${VERIFY_GRAPH_TYPE}' run is not resumed: a verification checks every node at once, at one moment`, { hint: 'verify again (hearth env verify-networks <env>, or POST /clusters/{id}/network_configuration/verify)' });
  if (body.simulate_failure && dryRun === false) throw new HttpError(400, 'request/invalid', 'simulate_failure belongs to a dry run');
  if (dryRun === undefined) {
    // No choice made: real when every node is real, the simulation when every node is simulated.
    const { real, simulated } = await simulatedNodes(ctx.db, clusterId);
    if (real.length && simulated.length) throw refuseSimulated((await clusterOr404(ctx.db, clusterId)).name, simulated);
    dryRun = real.length === 0;
  }
  let id: number;
  if (!dryRun) {
    // A resumed removal runs the deletion graph on the nodes it was removing, never on the others.
    if (body.resume && !body.nodes && !extra.removal) {
      const removal = await runs.removalToResume(ctx.db, clusterId, graphType);
      if (removal) body = { ...body, nodes: removal.nodes };
    }
    const ssh = accessContext(ctx).ssh;
    id = await startRealDeployment(ctx.db, ctx.presence, clusterId, graphType, {
      transport: ssh.transport,
      registry: registryOf(ctx),
      files: ctx.pluginFiles,
      log,
      ...(ssh.publicUrl ? { publicUrl: ssh.publicUrl } : {}),
      ...(body.max_parallel ? { maxParallel: body.max_parallel } : {}),
      ...(body.resume ? { resume: true } : {}),
      ...(body.skip_offline ? { skipOffline: true } : {}),
      ...(body.nodes ? { only: body.nodes } : {}),
      ...(extra.removal ? { removal: extra.removal } : {}),
      ...(extra.requestedBy !== undefined ? { requestedBy: extra.requestedBy } : {}),
      ...(extra.record ? { record: extra.record } : {}),
    });
  } else id = await startDeployment(ctx.db, ctx.presence, clusterId, graphType, { ...ctx.deploy, ...(body.simulate_failure ? { failAt: body.simulate_failure.task } : {}), ...(body.nodes ? { only: body.nodes } : {}), ...(extra.requestedBy !== undefined ? { requestedBy: extra.requestedBy } : {}), ...(extra.record ? { record: extra.record } : {}) });
  return deploymentViewOf(ctx.db, (await store.getDeployment(ctx.db, id)) as store.DeploymentRecord);
}

export function deploymentRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number; type: string }; Querystring: { format?: 'json' | 'dot' | 'mermaid'; limit?: number; marker?: string; node?: string } }>(
    '/clusters/:id/graphs/:type',
    {
      config: PUBLIC_READ,
      schema: {
        summary: 'The per-node deployment graph (json, dot or mermaid)',
        tags: ['deployment'],
        params: { type: 'object', required: ['id', 'type'], properties: { id: clusterIdParam.properties.id, type: GRAPH_TYPE } },
        querystring: {
          type: 'object',
          properties: {
            format: { type: 'string', enum: ['json', 'dot', 'mermaid'] },
            // Pages of nodes, as OpenStack lists page: at most `limit`, after the node `marker`; `node` picks nodes by id.
            limit: { type: 'integer', minimum: 1, maximum: 10000 },
            marker: { type: 'string', maxLength: 200 },
            node: { type: 'string', maxLength: 10000, description: 'node ids, comma-separated' },
          },
        },
        response: {
          200: {
            description: 'the graph in the format asked for; its ETag names the environment\'s state',
            content: { 'application/json': { schema: DEPLOYMENT_GRAPH }, 'text/vnd.graphviz': { schema: { type: 'string' } }, 'text/plain': { schema: { type: 'string', description: 'Mermaid' } } },
          },
          304: { description: 'unchanged since the ETag sent in If-None-Match', type: 'null' },
          ...errors(404, 503),
        },
      },
    },
    async (req, reply) => {
      const cluster = await clusterOr404(ctx.db, req.params.id);
      const { limit, marker, node } = req.query;
      const page = { ...(limit !== undefined ? { limit } : {}), ...(marker !== undefined ? { marker } : {}), ...(node !== undefined ? { nodes: node.split(',').map((n) => n.trim()).filter(Boolean) } : {}) };
      const answer = await ctx.graphs.answer(ctx.db, cluster, req.params.type, req.query.format ?? 'json', page);
      reply.header('etag', answer.etag);
      if (req.headers['if-none-match'] === answer.etag) return reply.status(304).send();
      return reply.type(answer.contentType).send(answer.body);
    },
  );

  api.post<{ Params: { id: number }; Body: (RunBody & { graph_type?: string }) | undefined }>(
    '/clusters/:id/deploy',
    {
      config: OPERATOR,
      // A bare POST (no body) means "deploy the default graph".
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        summary:
          'Run the pre-deployment checks and start a deployment; answers 202 with the deployment to watch. Real on real nodes over SSH; dry_run: true simulates (the default when every node is simulated); simulated nodes in a real run are refused by name',
        tags: ['deployment'],
        params: clusterIdParam,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            graph_type: GRAPH_TYPE,
            simulate_failure: { type: 'object', required: ['task'], additionalProperties: false, properties: { task: { type: 'string', maxLength: 200 } } },
            dry_run: { type: 'boolean' },
            max_parallel: { type: 'integer', minimum: 1, maximum: 1000 },
            resume: { type: 'boolean' },
            skip_offline: { type: 'boolean', description: 'leave offline nodes out of a real run (listed in its skipped_nodes) instead of refusing with 409 deploy/nodes-offline' },
          },
        },
        bodyOptional: true,
        response: { 202: answer('started: the deployment to watch (GET /deployments/{id}/tasks, /events)', DEPLOYMENT), ...errors(400, 404, 409, 503) },
      },
    },
    async (req, reply) => reply.status(202).send(await startRun(ctx, req.log, req.params.id, req.body?.graph_type ?? 'default', req.body ?? {}, { requestedBy: whoAsked(req.actor), record: runRecorder(req) })),
  );

  api.post<{ Params: { id: number; type: string }; Body: RunBody | undefined }>(
    '/clusters/:id/graphs/:type/run',
    {
      config: OPERATOR,
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        summary:
          'Run any graph of the environment (provisioning, deletion, network_verification, custom ones, or default) on all its nodes with roles or on the nodes chosen; answers 202 with the run like POST /clusters/{id}/deploy. Only the default graph deploys roles',
        tags: ['deployment'],
        params: { type: 'object', required: ['id', 'type'], properties: { id: clusterIdParam.properties.id, type: GRAPH_TYPE } },
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            nodes: { type: 'array', minItems: 1, maxItems: 10000, uniqueItems: true, items: { type: 'integer', minimum: 1 }, description: 'node ids to run on (default: every node of the environment with roles)' },
            dry_run: { type: 'boolean' },
            max_parallel: { type: 'integer', minimum: 1, maximum: 1000 },
            resume: { type: 'boolean' },
            skip_offline: { type: 'boolean', description: 'leave offline nodes out of a real run instead of refusing with 409 deploy/nodes-offline' },
          },
        },
        bodyOptional: true,
        response: { 202: answer('started: the run to watch (GET /deployments/{id}, /deployments/{id}/events)', DEPLOYMENT), ...errors(400, 404, 409, 503) },
      },
    },
    async (req, reply) => reply.status(202).send(await startRun(ctx, req.log, req.params.id, req.params.type, req.body ?? {}, { requestedBy: whoAsked(req.actor), record: runRecorder(req) })),
  );

  api.get<{ Params: { id: number } }>('/clusters/:id/deployments', { config: PAGED_READ, schema: { summary: 'Deployments of an environment, newest first', tags: ['deployment'], params: clusterIdParam, response: { 200: answer('its deployments', listOf(DEPLOYMENT)), ...errors(404) } } }, async (req) => {
    await clusterOr404(ctx.db, req.params.id);
    return deploymentViews(ctx.db, await readPaged(req, numericMarker, (page) => store.pageOfDeployments(ctx.db, { clusterId: req.params.id }, page)));
  });

  api.get<{ Params: { id: number; deployment: number }; Querystring: { tasks?: boolean } }>(
    '/clusters/:id/deployments/:deployment',
    {
      config: PUBLIC_READ,
      schema: {
        summary: 'One deployment: progress, and with tasks=true the status of every (node, task)',
        tags: ['deployment'],
        params: { type: 'object', required: ['id', 'deployment'], properties: { id: clusterIdParam.properties.id, deployment: clusterIdParam.properties.id } },
        querystring: { type: 'object', properties: { tasks: { type: 'boolean' } } },
        response: { 200: answer('the deployment (with tasks=true, its tasks)', DEPLOYMENT), ...errors(404) },
      },
    },
    async (req) => {
      const d = await store.getDeployment(ctx.db, req.params.deployment);
      if (!d || d.clusterId !== req.params.id) throw new HttpError(404, 'deployment/not-found', `environment ${req.params.id} has no deployment ${req.params.deployment}`);
      // Each task says `task_id`, as GET /deployments/{id}/tasks does; `taskId` stays for clients written before.
      const tasks = req.query.tasks ? (await store.deploymentTasks(ctx.db, d.id)).map((t) => ({ ...t, task_id: t.taskId })) : undefined;
      return { ...(await deploymentViewOf(ctx.db, d)), ...(tasks ? { tasks } : {}) };
    },
  );
}
