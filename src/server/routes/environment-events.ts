/**
 * `GET /clusters/:id/events`: an environment's live stream (Server-Sent Events), so a page showing
 * the environment is current whatever changed it (domain/environment-events.ts); and
 * `GET /clusters/:id/graphs`: the graph types its composed release (release and enabled plugins)
 * has, for a face that offers to run any of them.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import * as store from '../../store/index.js';
import { lookAtEnvironment } from '../../store/environment-changes.js';
import { clusterOr404, composeCluster } from '../domain/environment.js';
import { admitStream, EventClient, followFeed, streamsOf } from '../domain/runs/deployment-events.js';
import { EnvironmentFeed } from '../domain/environment-events.js';
import { clusterIdParam } from './schemas.js';
import { requestIdHeaders } from '../log.js';
import { answer, errors, listOf } from './answers.js';
import { clusterSummary } from './clusters.js';
import { deploymentViews } from './deployments.js';
import { nodeViews } from './real-nodes.js';
import { GRAPH_TYPE_ENTRY } from './shapes.js';

export function environmentEventRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number } }>(
    '/clusters/:id/graphs',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "The graph types of the environment's release with its enabled plugins (default first): what POST /clusters/{id}/graphs/{type}/run can run",
        tags: ['deployment'],
        params: clusterIdParam,
        response: { 200: answer('its graph types', listOf(GRAPH_TYPE_ENTRY)), ...errors(404, 409) },
      },
    },
    async (req) => {
      const { composed } = await composeCluster(ctx.db, await clusterOr404(ctx.db, req.params.id));
      return Object.entries(composed.graphs)
        .map(([type, g]) => ({ type, ...(g.name ? { name: g.name } : {}), tasks: g.tasks.length }))
        .sort((a, b) => (a.type === 'default' ? -1 : b.type === 'default' ? 1 : a.type.localeCompare(b.type)));
    },
  );

  api.get<{ Params: { id: number } }>(
    '/clusters/:id/events',
    {
      config: PUBLIC_READ,
      schema: {
        summary:
          "A live stream (Server-Sent Events) of an environment: `environment` (a Cluster), `node` (a Node) and `deployment` (a Deployment) events, each object's current state first, then whenever one changes (a run started or ended anywhere, a node gone offline); a node that left the environment is sent once more as it is now; `end` when the environment is deleted",
        tags: ['clusters'],
        params: clusterIdParam,
        response: {
          200: answer('Server-Sent Events: `environment` (a Cluster), `node` (a Node; a node deleted meanwhile as {id, status: null, cluster_id: null, deleted: true}), `deployment` (a Deployment), `end` ({id, deleted, message}); a comment line every 15 s of quiet', { type: 'string' }, 'text/event-stream'),
          ...errors(404, 429),
        },
      },
    },
    async (req, reply) => {
      // Counted before anything is read, with the deployments' streams: a flood is refused at the door.
      const release = admitStream(streamsOf(ctx), req.ip);
      let id: number;
      try {
        id = (await clusterOr404(ctx.db, req.params.id)).id;
      } catch (err) {
        release();
        throw err;
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...requestIdHeaders(String(req.id)) });
      const client = new EventClient(res);
      client.whenClosed(release);
      // One look at the database per environment, however many follow it.
      followFeed(streamsOf(ctx).environments, id, client, (onIdle) =>
        new EnvironmentFeed(
          id,
          {
            look: () => lookAtEnvironment(ctx.db, id),
            environment: async () => {
              const c = await store.getCluster(ctx.db, id);
              return c && { ...clusterSummary(c), nodes: (await store.listNodes(ctx.db, { clusterId: id })).length };
            },
            nodes: async (ids) => nodeViews(ctx.db, await store.getNodes(ctx.db, ids)),
            deployments: async (ids) => deploymentViews(ctx.db, (await Promise.all(ids.map((d) => store.getDeployment(ctx.db, d)))).filter((d): d is store.DeploymentRecord => d !== undefined)),
            log: api.log,
          },
          onIdle,
        ),
      );
    },
  );
}
