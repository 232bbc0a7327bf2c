/**
 * Watching and stopping deployments: the deployments of every environment or one
 * (`GET /deployments`), one by its id alone (`GET /deployments/:id`, for a client that has only
 * the id, as `hearth deployment show` does), each task's status, exit status, attempts, times and
 * output (`GET /deployments/:id/tasks`, failures first), and stopping a real run
 * (`POST /clusters/:id/stop`, with the running tasks' grace period).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { OPERATOR, PUBLIC_READ } from '../access.js';
import { numericMarker, PAGED_READ, readPaged } from '../paging.js';
import { HttpError } from '../errors.js';
import { outcomeOfStored, TASK_OUTCOMES } from '../../core/lifecycle/index.js';
import * as store from '../../store/index.js';
import { whoAsked } from '../audit.js';
import * as runs from '../../store/task-runs.js';
import { clusterOr404 } from '../domain/environment.js';
import { registryOf, settleRealDeployments, stopRealDeployment } from '../domain/runs/real-deploy.js';
import { admitStream, EventClient, followDeployment, streamsOf } from '../domain/runs/deployment-events.js';
import { clusterIdParam } from './schemas.js';
import { deploymentViewOf, deploymentViews } from './deployments.js';
import { requestIdHeaders } from '../log.js';
import { answer, errors, listOf } from './answers.js';
import { DEPLOYMENT, TASK_RUN } from './shapes.js';
import { environmentEventRoutes } from './environment-events.js';
import { verifyNetworksRoutes } from './verify-networks.js';

/** A task record with its lifecycle outcome, read from what the runner stored. */
const withOutcome = <T extends { status: string; message: string | null; exit_status: number | null }>(t: T) => ({ ...t, outcome: outcomeOfStored({ status: t.status, message: t.message, exitStatus: t.exit_status }) });

const STATUS = { type: 'string', enum: ['pending', 'running', 'ready', 'error', 'skipped'] } as const;
/** The grace period a stop gives running tasks when the request names none (the runner's own default). */
export const DEFAULT_STOP_GRACE_S = 30;

export function deployRunRoutes(api: FastifyInstance, ctx: AppContext): void {
  // A server that stops ends its runs' bookkeeping first (their tasks are let finish for a grace period).
  api.addHook('onClose', () => settleRealDeployments(registryOf(ctx), ctx.deploy.shutdownGraceMs));
  environmentEventRoutes(api, ctx);
  // Verify networks is a run too (graph type verify_networks, in the same history).
  verifyNetworksRoutes(api, ctx);

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
      if (req.query.cluster_id !== undefined) await clusterOr404(ctx.db, req.query.cluster_id);
      const filter = req.query.cluster_id !== undefined ? { clusterId: req.query.cluster_id } : {};
      return deploymentViews(ctx.db, await readPaged(req, numericMarker, (page) => store.pageOfDeployments(ctx.db, filter, page)));
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
      return deploymentViewOf(ctx.db, d);
    },
  );

  api.get<{ Params: { id: number }; Querystring: { node?: string; status?: string; outcome?: string; task?: string; output?: boolean } }>(
    '/deployments/:id/tasks',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "A deployment's tasks, failures first: status, exit status, attempts, times, the reason; with output=true the last 1 MiB of each task's output",
        tags: ['deployment'],
        params: clusterIdParam,
        querystring: { type: 'object', additionalProperties: false, properties: { node: { type: 'string', maxLength: 100 }, status: STATUS, outcome: { type: 'string', enum: [...TASK_OUTCOMES], description: "only the tasks with this outcome (the lifecycle's words the CLI and the UI show: failed, timed_out, killed, ...)" }, task: { type: 'string', maxLength: 200 }, output: { type: 'boolean' } } },
        response: { 200: answer('its tasks, failures first', listOf(TASK_RUN)), ...errors(404) },
      },
    },
    async (req) => {
      const d = await store.getDeployment(ctx.db, req.params.id);
      if (!d) throw new HttpError(404, 'deployment/not-found', `there is no deployment ${req.params.id}`);
      const q = req.query;
      const tasks = (await runs.taskRuns(ctx.db, d.id, { ...(q.node !== undefined ? { node: q.node } : {}), ...(q.status !== undefined ? { status: q.status } : {}), ...(q.task !== undefined ? { task: q.task } : {}), ...(q.output ? { withOutput: true } : {}) })).map(withOutcome);
      // The outcome is read from the stored status and reason, so it is filtered here, not in SQL.
      return q.outcome === undefined ? tasks : tasks.filter((t) => t.outcome === q.outcome);
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
          ...errors(404, 429),
        },
      },
    },
    async (req, reply) => {
      // Counted before anything is read: a flood of streams is refused at the door.
      const release = admitStream(streamsOf(ctx), req.ip);
      let first: store.DeploymentRecord | undefined;
      try {
        first = await store.getDeployment(ctx.db, req.params.id);
      } catch (err) {
        release();
        throw err;
      }
      if (!first) {
        release();
        throw new HttpError(404, 'deployment/not-found', `there is no deployment ${req.params.id}`);
      }
      const id = first.id;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...requestIdHeaders(String(req.id)) });
      const client = new EventClient(res);
      client.whenClosed(release);
      // One poll of the database per deployment, however many follow it (domain/runs/deployment-events.ts).
      followDeployment<runs.TaskRunView>(streamsOf(ctx), id, client, () => ({
        poll: async (since) => {
          const d = (await store.getDeployment(ctx.db, id))!;
          const { tasks, until } = await runs.taskChanges(ctx.db, id, since);
          const view = await deploymentViewOf(ctx.db, d);
          return { tasks, until, deployment: view, running: d.status === 'running' };
        },
        taskView: withOutcome,
        output: () => registryOf(ctx).get(id)?.output,
        log: api.log,
      }));
    },
  );

  api.post<{ Params: { id: number }; Body: { grace_s?: number } | undefined }>(
    '/clusters/:id/stop',
    {
      config: OPERATOR,
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
          properties: { grace_s: { type: 'integer', minimum: 0, maximum: 86400, description: `seconds running tasks may take to finish before they are killed (default ${DEFAULT_STOP_GRACE_S}); the server running the deployment applies it, also when the stop reaches it through the database from another server` } },
        },
        bodyOptional: true,
        response: { 202: answer('stopping: the deployment, which ends as stopped', DEPLOYMENT), ...errors(400, 404, 409) },
      },
    },
    async (req, reply) => {
      const cluster = await clusterOr404(ctx.db, req.params.id);
      const runningNow = (await store.deploymentsOf(ctx.db, cluster.id)).filter((d) => d.status === 'running');
      if (!runningNow.length) throw new HttpError(409, 'deployment/not-running', `environment '${cluster.name}' has no running deployment`);
      // A dry run beside a real one does not hide the real one from a stop.
      const modes = await runs.deploymentModes(ctx.db, runningNow.map((d) => d.id));
      const running = runningNow.find((d) => modes.get(d.id) === 'real') ?? runningNow[0];
      if (modes.get(running.id) !== 'real') throw new HttpError(409, 'deployment/dry-run', `deployment ${running.id} is a dry run: it finishes by itself in moments`);
      // Who asked, kept with the run, from which address.
      await store.recordStop(ctx.db, running.id, `${req.actor.via === 'admin-token' ? 'admin token' : whoAsked(req.actor)} from ${req.ip}`);
      // Here at once; through the database for the server running it when that is another one.
      const grace = req.body?.grace_s;
      const here = stopRealDeployment(registryOf(ctx), running.id, grace === undefined ? undefined : grace * 1000);
      if (!(await runs.requestStop(ctx.db, running.id, grace)) && !here) throw new HttpError(409, 'deployment/not-running', `deployment ${running.id} has just ended`);
      return reply.status(202).send(await deploymentViewOf(ctx.db, (await store.getDeployment(ctx.db, running.id)) ?? running));
    },
  );
}
