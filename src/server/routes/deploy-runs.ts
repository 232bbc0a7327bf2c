/**
 * Watching and stopping deployments: the deployments of every environment or one
 * (`GET /deployments`), one by its id alone (`GET /deployments/:id`, for a client that has only
 * the id, as `hearth deployment show` does), each task's status, exit status, attempts, times and
 * output (`GET /deployments/:id/tasks`, failures first), and stopping a real run
 * (`POST /clusters/:id/stop`, with the running tasks' grace period).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import { PAGED_READ } from '../paging.js';
import { HttpError } from '../errors.js';
import { outcomeOfStored } from '../../core/lifecycle/index.js';
import * as store from '../../store/index.js';
import * as runs from '../../store/task-runs.js';
import { clusterOr404 } from '../domain/environment.js';
import { registryOf, settleRealDeployments, stopRealDeployment, type OutputChunk } from '../domain/real-deploy.js';
import { clusterIdParam } from './schemas.js';
import { deploymentView } from './deployments.js';
import { answer, errors, listOf } from './answers.js';
import { DEPLOYMENT, TASK_RUN } from './shapes.js';

/** A task record with its lifecycle outcome, read from what the runner stored. */
const withOutcome = <T extends { status: string; message: string | null; exit_status: number | null }>(t: T) => ({ ...t, outcome: outcomeOfStored({ status: t.status, message: t.message, exitStatus: t.exit_status }) });

const STATUS = { type: 'string', enum: ['pending', 'running', 'ready', 'error', 'skipped'] } as const;
/** The grace period a stop gives running tasks when the request names none (the runner's own default). */
export const DEFAULT_STOP_GRACE_S = 30;

export function deployRunRoutes(api: FastifyInstance, ctx: AppContext): void {
  // A server that stops ends its runs' bookkeeping first (their tasks are let finish for a grace period).
  api.addHook('onClose', () => settleRealDeployments(registryOf(ctx)));

  api.get<{ Querystring: { cluster_id?: number } }>(
    '/deployments',
    {
      config: PAGED_READ,
      schema: {
        summary: 'Deployments (real runs and dry runs) of every environment, or of one with cluster_id, newest first',
        tags: ['deployment'],
        querystring: { type: 'object', properties: { cluster_id: { ...clusterIdParam.properties.id, description: 'only this environment\'s' } } },
        response: { 200: answer('the deployments, newest first', listOf(DEPLOYMENT)), ...errors(404) },
      },
    },
    async (req) => {
      const clusters = req.query.cluster_id !== undefined ? [await clusterOr404(ctx.db, req.query.cluster_id)] : await store.listClusters(ctx.db);
      const list = (await Promise.all(clusters.map((c) => store.deploymentsOf(ctx.db, c.id)))).flat().sort((a, b) => b.id - a.id);
      const modes = await runs.deploymentModes(ctx.db, list.map((d) => d.id));
      return list.map((d) => deploymentView(d, modes.get(d.id)));
    },
  );

  api.get<{ Params: { id: number } }>(
    '/deployments/:id',
    {
      config: PUBLIC_READ,
      schema: {
        summary: 'One deployment by its id: its environment, graph type, status, progress and message',
        tags: ['deployment'],
        params: clusterIdParam,
        response: { 200: answer('the deployment', DEPLOYMENT), ...errors(404) },
      },
    },
    async (req) => {
      const d = await store.getDeployment(ctx.db, req.params.id);
      if (!d) throw new HttpError(404, 'deployment/not-found', `there is no deployment ${req.params.id}`, { hint: 'hearth deployment list shows them' });
      return deploymentView(d, (await runs.deploymentModes(ctx.db, [d.id])).get(d.id));
    },
  );

  api.get<{ Params: { id: number }; Querystring: { node?: string; status?: string; task?: string; output?: boolean } }>(
    '/deployments/:id/tasks',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "A deployment's tasks, failures first: status, exit status, attempts, times, the reason; with output=true the last 1 MiB of each task's output",
        tags: ['deployment'],
        params: clusterIdParam,
        querystring: { type: 'object', additionalProperties: false, properties: { node: { type: 'string', maxLength: 100 }, status: STATUS, task: { type: 'string', maxLength: 200 }, output: { type: 'boolean' } } },
        response: { 200: answer('its tasks, failures first', listOf(TASK_RUN)), ...errors(404) },
      },
    },
    async (req) => {
      const d = await store.getDeployment(ctx.db, req.params.id);
      if (!d) throw new HttpError(404, 'deployment/not-found', `there is no deployment ${req.params.id}`);
      const q = req.query;
      return (await runs.taskRuns(ctx.db, d.id, { ...(q.node !== undefined ? { node: q.node } : {}), ...(q.status !== undefined ? { status: q.status } : {}), ...(q.task !== undefined ? { task: q.task } : {}), ...(q.output ? { withOutput: true } : {}) })).map(withOutcome);
    },
  );

  api.get<{ Params: { id: number } }>(
    '/deployments/:id/events',
    {
      config: PUBLIC_READ,
      schema: {
        summary:
          'A live stream (Server-Sent Events) of a deployment: `task` events as tasks start and end (the shape of GET /deployments/:id/tasks), `output` events with chunks of running tasks\' output (when this server runs it), `deployment` with progress, and `end` when it is over',
        tags: ['deployment'],
        params: clusterIdParam,
        response: {
          200: answer('Server-Sent Events: `task` (a TaskRun), `output` ({node, task_id, chunk}), `deployment` and `end` (a Deployment)', { type: 'string' }, 'text/event-stream'),
          ...errors(404),
        },
      },
    },
    async (req, reply) => {
      const first = await store.getDeployment(ctx.db, req.params.id);
      if (!first) throw new HttpError(404, 'deployment/not-found', `there is no deployment ${req.params.id}`);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-request-id': String(req.id) });
      const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      let closed = false;
      const live = registryOf(ctx).get(first.id)?.output;
      const onChunk = (c: OutputChunk) => send('output', c);
      live?.on('chunk', onChunk);
      const finish = () => {
        if (closed) return;
        closed = true;
        live?.off('chunk', onChunk);
        res.end();
      };
      req.raw.on('close', finish);
      // Reports reach the database in batches, stamped when they happened: each look goes back
      // 10 s and what was sent already is not sent again.
      const sent = new Set<string>();
      let since = new Date(0).toISOString();
      try {
        while (!closed) {
          const d = (await store.getDeployment(ctx.db, first.id))!;
          // Tasks after the status: a run's last reports are stored before it ends.
          const { tasks, until } = await runs.taskChanges(ctx.db, first.id, since);
          for (const t of tasks) {
            const key = `${t.node}\u0000${t.task_id}\u0000${t.status}\u0000${t.attempts}`;
            if (sent.has(key)) continue;
            sent.add(key);
            send('task', withOutcome(t));
          }
          since = new Date(Date.parse(until) - 10_000).toISOString();
          const mode = (await runs.deploymentModes(ctx.db, [d.id])).get(d.id);
          send('deployment', deploymentView(d, mode));
          if (d.status !== 'running') {
            send('end', deploymentView(d, mode));
            break;
          }
          await new Promise((r) => setTimeout(r, 500));
        }
      } catch (err) {
        req.log.warn({ err }, 'deployment stream ended by an error');
      }
      finish();
    },
  );

  api.post<{ Params: { id: number }; Body: { grace_s?: number } | undefined }>(
    '/clusters/:id/stop',
    {
      // A bare POST (no body) means "stop with the default grace period".
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        summary: "Stop the environment's running deployment: nothing new starts; running tasks finish, or are killed after a grace period (grace_s, default 30 s)",
        tags: ['deployment'],
        params: clusterIdParam,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { grace_s: { type: 'integer', minimum: 0, maximum: 86400, description: `seconds running tasks may take to finish before they are killed (default ${DEFAULT_STOP_GRACE_S}); the server running the deployment applies it, a stop relayed through the database to another server gets that server's default` } },
        },
        bodyOptional: true,
        response: { 202: answer('stopping: the deployment, which ends as stopped', DEPLOYMENT), ...errors(400, 404, 409) },
      },
    },
    async (req, reply) => {
      const cluster = await clusterOr404(ctx.db, req.params.id);
      const running = (await store.deploymentsOf(ctx.db, cluster.id)).find((d) => d.status === 'running');
      if (!running) throw new HttpError(409, 'deployment/not-running', `environment '${cluster.name}' has no running deployment`);
      const mode = (await runs.deploymentModes(ctx.db, [running.id])).get(running.id);
      if (mode !== 'real') throw new HttpError(409, 'deployment/dry-run', `deployment ${running.id} is a dry run: it finishes by itself in moments`);
      // Here at once; through the database for the server running it when that is another one.
      const grace = req.body?.grace_s;
      const here = stopRealDeployment(registryOf(ctx), running.id, grace === undefined ? undefined : grace * 1000);
      if (!(await runs.requestStop(ctx.db, running.id)) && !here) throw new HttpError(409, 'deployment/not-running', `deployment ${running.id} has just ended`);
      return reply.status(202).send(deploymentView(running, 'real'));
    },
  );
}
