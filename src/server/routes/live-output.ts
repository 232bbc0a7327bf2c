/**
 * A running task's output so far (`GET /deployments/:id/live-output?node=&task=`): what the
 * server running the deployment kept of it (domain/runs/live-output.ts), so a page opened while the
 * task runs shows all of it and then follows the live stream's `output` events, whose `offset`
 * says where each chunk goes. A task that ended has its output in `GET /deployments/:id/tasks`.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { liveOutputOf } from '../domain/runs/live-output.js';
import { registryOf } from '../domain/runs/real-deploy.js';
import { clusterIdParam } from './schemas.js';
import { answer, errors } from './answers.js';

export const LIVE_OUTPUT = {
  type: 'object',
  required: ['node', 'task_id', 'live', 'output', 'end'],
  additionalProperties: false,
  properties: {
    node: { type: 'string' },
    task_id: { type: 'string' },
    live: { type: 'boolean', description: 'true when this server runs the deployment now; false when it ended or runs on another server (then `output` is null: read GET /deployments/{id}/tasks?output=true once the task ends)' },
    output: { type: ['string', 'null'], description: "the task's last 1 MiB of output so far (stdout and stderr interleaved, ANSI escapes as printed); null when none is kept" },
    end: { type: 'integer', minimum: 0, description: 'characters the task has printed in all: `output` ends there, and the live stream\'s next `output` chunk for this task has this `offset`' },
  },
} as const;

export function liveOutputRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number }; Querystring: { node: string; task: string } }>(
    '/deployments/:id/live-output',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "A running task's output so far (the last 1 MiB), kept by the server running the deployment; then follow GET /deployments/{id}/events",
        tags: ['deployment'],
        params: clusterIdParam,
        querystring: { type: 'object', additionalProperties: false, required: ['node', 'task'], properties: { node: { type: 'string', minLength: 1, maxLength: 100 }, task: { type: 'string', minLength: 1, maxLength: 200 } } },
        response: { 200: answer("the task's output so far", LIVE_OUTPUT), ...errors(404) },
      },
    },
    async (req) => {
      const d = await store.getDeployment(ctx.db, req.params.id);
      if (!d) throw new HttpError(404, 'deployment/not-found', `there is no deployment ${req.params.id}`);
      const { node, task } = req.query;
      const live = liveOutputOf(registryOf(ctx).get(d.id)?.output);
      const tail = live?.read(node, task);
      return { node, task_id: task, live: live !== undefined, output: tail?.output ?? null, end: tail?.end ?? 0 };
    },
  );
}
