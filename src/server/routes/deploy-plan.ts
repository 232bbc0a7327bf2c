/**
 * `GET /clusters/:id/deploy/plan?graph_type=&resume=`: what a deployment will run before it runs,
 * per node, each task with whether it runs and why (domain/runs/deploy-plan.ts, core's planDeployment).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import { deployPlan } from '../domain/runs/deploy-plan.js';
import { answer, errors } from './answers.js';
import { clusterIdParam } from './schemas.js';
import { DEPLOY_PLAN } from './shapes.js';

export function deployPlanRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Params: { id: number }; Querystring: { graph_type?: string; resume?: boolean } }>(
    '/clusters/:id/deploy/plan',
    {
      config: PUBLIC_READ,
      schema: {
        summary: 'What a deployment would run, before it runs: per node, each task of the graph, whether it runs and why (no condition, a lifecycle condition with the data that changed since the last deployment, a false condition, a marker, a task that succeeded in the run being resumed)',
        tags: ['deployment'],
        params: clusterIdParam,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            graph_type: { type: 'string', minLength: 1, maxLength: 100, default: 'default', description: 'the graph a deployment would run (default: default)' },
            resume: { type: 'boolean', description: "plan a resume (POST …/deploy {resume: true}): tasks that succeeded in the environment's last unfinished real run of this graph do not run" },
          },
        },
        response: { 200: answer('the plan', DEPLOY_PLAN), ...errors(400, 404, 409, 503) },
      },
    },
    (req) => deployPlan(ctx.db, req.params.id, req.query.graph_type ?? 'default', { resume: req.query.resume === true }),
  );
}
