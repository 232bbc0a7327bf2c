/**
 * `GET /clusters/:id/graphs/:type/estimate`: how long a run of the graph takes and the order its
 * tasks start in, from past real runs' durations (domain/graph-estimate.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import { graphEstimate } from '../domain/graph-estimate.js';
import { answer, errors } from './answers.js';

const SECONDS = { type: 'number', minimum: 0 } as const;
const COUNT = { type: 'integer', minimum: 0 } as const;
const BASIS = { type: 'string', enum: ['environment', 'release', 'timeout'], description: "where the duration comes from: the median of this environment's past real runs, of this release's, or the task's timeout (no past run)" } as const;

export const GRAPH_ESTIMATE = {
  type: 'object',
  required: ['graph_type', 'makespan_s', 'past_runs', 'tasks', 'order_total', 'order', 'critical_path'],
  additionalProperties: false,
  properties: {
    graph_type: { type: 'string' },
    makespan_s: { ...SECONDS, description: 'estimated seconds the run takes, played as the runner walks the graph (one task a node at a time, 50 at once)' },
    past_runs: { type: 'object', required: ['environment', 'release'], additionalProperties: false, properties: { environment: COUNT, release: COUNT }, description: 'real runs of this graph measured: of this environment, of every environment of its release' },
    tasks: { type: 'object', required: ['environment', 'release', 'timeout'], additionalProperties: false, properties: { environment: COUNT, release: COUNT, timeout: COUNT }, description: 'tasks (by id) whose duration comes from each basis' },
    order_total: COUNT,
    order: {
      type: 'array',
      description: 'the tasks in the order the runner starts them (the first 20,000)',
      items: { type: 'object', required: ['node', 'task', 'start_s', 'duration_s', 'basis'], additionalProperties: false, properties: { node: { type: 'string' }, task: { type: 'string' }, start_s: SECONDS, duration_s: SECONDS, basis: BASIS, runs: { ...COUNT, description: 'past runs its median comes from' } } },
    },
    critical_path: { type: 'array', items: { type: 'object', required: ['node', 'task'], additionalProperties: false, properties: { node: { type: 'string' }, task: { type: 'string' } } } },
  },
} as const;

export function graphEstimateRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number; type: string } }>(
    '/clusters/:id/graphs/:type/estimate',
    {
      config: PUBLIC_READ,
      schema: {
        summary: "How long a run of the graph takes and its tasks' order, from each task's median in past real runs (this environment's, else its release's), its timeout where none ran",
        tags: ['deployment'],
        params: { type: 'object', required: ['id', 'type'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 }, type: { type: 'string', minLength: 1, maxLength: 100 } } },
        response: { 200: answer('the estimate', GRAPH_ESTIMATE), ...errors(400, 404, 409, 503) },
      },
    },
    (req) => graphEstimate(ctx.db, req.params.id, req.params.type),
  );
}
