/** Graphs and deployments of an environment. */
import type { FastifyInstance } from 'fastify';
import { graphToDot, graphToJson, graphToMermaid } from '../../core/graph/format.js';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { clusterOr404 } from '../domain/environment.js';
import { clusterGraph, startDeployment } from '../domain/deploy.js';
import { clusterIdParam } from './schemas.js';

const GRAPH_TYPE = { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' } as const;

function deploymentView(d: store.DeploymentRecord) {
  return { id: d.id, cluster_id: d.clusterId, graph_type: d.graphType, status: d.status, total: d.total, done: d.done, progress: d.total ? Math.round((d.done / d.total) * 100) : 100, message: d.message ?? null, started_at: d.startedAt, finished_at: d.finishedAt ?? null };
}

export function deploymentRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number; type: string }; Querystring: { format?: 'json' | 'dot' | 'mermaid' } }>(
    '/clusters/:id/graphs/:type',
    {
      config: PUBLIC_READ,
      schema: {
        summary: 'The per-node deployment graph (json, dot or mermaid)',
        tags: ['deployment'],
        params: { type: 'object', required: ['id', 'type'], properties: { id: clusterIdParam.properties.id, type: GRAPH_TYPE } },
        querystring: { type: 'object', properties: { format: { type: 'string', enum: ['json', 'dot', 'mermaid'] } } },
      },
    },
    async (req, reply) => {
      const cluster = await clusterOr404(ctx.db, req.params.id);
      const { graph, findings } = await clusterGraph(ctx.db, cluster, req.params.type);
      const format = req.query.format ?? 'json';
      if (format === 'dot') return reply.type('text/vnd.graphviz; charset=utf-8').send(graphToDot(graph));
      if (format === 'mermaid') return reply.type('text/plain; charset=utf-8').send(graphToMermaid(graph));
      return { ...graphToJson(graph), critical_path: graph.criticalPath, makespan_s: graph.makespan, cycle: graph.cycle ?? null, findings };
    },
  );

  api.post<{ Params: { id: number }; Body: { graph_type?: string; simulate_failure?: { task: string } } | undefined }>(
    '/clusters/:id/deploy',
    {
      // A bare POST (no body) means "deploy the default graph".
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        summary: 'Run the pre-deployment checks and start a (simulated) deployment; answers 202 with the deployment to watch',
        tags: ['deployment'],
        params: clusterIdParam,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { graph_type: GRAPH_TYPE, simulate_failure: { type: 'object', required: ['task'], additionalProperties: false, properties: { task: { type: 'string', maxLength: 200 } } } },
        },
      },
    },
    async (req, reply) => {
      const id = await startDeployment(ctx.db, ctx.presence, req.params.id, req.body?.graph_type ?? 'default', { ...ctx.deploy, ...(req.body?.simulate_failure ? { failAt: req.body.simulate_failure.task } : {}) });
      return reply.status(202).send(deploymentView((await store.getDeployment(ctx.db, id)) as store.DeploymentRecord));
    },
  );

  api.get<{ Params: { id: number } }>('/clusters/:id/deployments', { config: PUBLIC_READ, schema: { summary: 'Deployments of an environment, newest first', tags: ['deployment'], params: clusterIdParam } }, async (req) => {
    await clusterOr404(ctx.db, req.params.id);
    return (await store.deploymentsOf(ctx.db, req.params.id)).map(deploymentView);
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
      },
    },
    async (req) => {
      const d = await store.getDeployment(ctx.db, req.params.deployment);
      if (!d || d.clusterId !== req.params.id) throw new HttpError(404, 'deployment/not-found', `environment ${req.params.id} has no deployment ${req.params.deployment}`);
      return { ...deploymentView(d), ...(req.query.tasks ? { tasks: await store.deploymentTasks(ctx.db, d.id) } : {}) };
    },
  );
}
