/** GET /audit: the audit log (issue 29), newest first, paged and filtered; for admins. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { HttpError } from '../errors.js';
import { numericMarker, PAGE_PARAMETERS, readPaged } from '../paging.js';
import { OBJECT_KINDS } from '../audit.js';
import * as store from '../../store/index.js';
import { answer, errors, listOf } from './answers.js';

const AUDIT_ENTRY = {
  type: 'object',
  required: ['id', 'at', 'actor', 'via', 'address', 'method', 'route', 'object', 'status', 'outcome'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer', description: 'the entry (the marker of the next page)' },
    at: { type: 'string', format: 'date-time' },
    actor: { type: ['string', 'null'], description: "the user's name, 'admin-token' for the admin token, null when nobody was proved (or the name a sign-in asked for)" },
    via: { type: 'string', enum: ['admin-token', 'session', 'token', 'none'] },
    token_name: { type: 'string', description: "the personal token's name, when via is token" },
    address: { type: ['string', 'null'] },
    method: { type: 'string' },
    route: { type: 'string', description: 'the route as declared, e.g. /api/v1/clusters/:id/deploy' },
    object: { type: ['string', 'null'], description: "what it acted on: kind/id (environment/3, node/12, plugin/…, release/…, user/…, token/…, deployment/…), or the kind alone" },
    status: { type: 'integer', description: 'the HTTP status answered' },
    outcome: { type: 'string', enum: ['done', 'refused', 'failed'] },
    code: { type: 'string', description: "a refusal's or failure's error code" },
    deployment_id: { type: 'integer', description: 'the run the request started or acted on' },
  },
} as const;

export const auditView = (e: store.AuditRecord) => ({
  id: e.id,
  at: e.at.toISOString(),
  actor: e.actor,
  via: e.via,
  ...(e.tokenName !== undefined ? { token_name: e.tokenName } : {}),
  address: e.address,
  method: e.method,
  route: e.route,
  object: e.object ? (e.object.id !== undefined ? `${e.object.kind}/${e.object.id}` : e.object.kind) : null,
  status: e.status,
  outcome: e.outcome,
  ...(e.code !== undefined ? { code: e.code } : {}),
  ...(e.deploymentId !== undefined ? { deployment_id: e.deploymentId } : {}),
});

function objectFilter(object: string): { kind: string; id?: string } {
  const slash = object.indexOf('/');
  const kind = slash < 0 ? object : object.slice(0, slash);
  if (!OBJECT_KINDS.includes(kind)) throw new HttpError(400, 'audit/bad-object', `'${kind}' is not a kind of object the audit log knows`, { field: 'object', hint: `use kind or kind/id, a kind being one of ${OBJECT_KINDS.join(', ')} (e.g. environment/3)` });
  return slash < 0 ? { kind } : { kind, id: object.slice(slash + 1) };
}

function sinceFilter(since: string): Date {
  const relative = /^(\d{1,6})([smhd])$/.exec(since);
  const at = relative ? new Date(Date.now() - Number(relative[1]) * { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 }[relative[2] as 's' | 'm' | 'h' | 'd']) : new Date(since);
  if (Number.isNaN(at.getTime())) throw new HttpError(400, 'audit/bad-since', `since '${since.slice(0, 100)}' is neither a time nor a duration`, { field: 'since', hint: 'give an ISO 8601 time (2026-11-28T06:00:00Z) or a duration back from now (90s, 30m, 12h, 7d)' });
  return at;
}

export function auditRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get<{ Querystring: { actor?: string; object?: string; since?: string; limit?: number; marker?: string } }>(
    '/audit',
    {
      config: { access: 'admin', paged: true },
      schema: {
        summary: 'The audit log: every change asked of the API and every refusal of one, newest first (without limit, the newest 1,000)',
        tags: ['accounts'],
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            actor: { type: 'string', maxLength: 200, description: "a user's name, or admin-token" },
            object: { type: 'string', maxLength: 300, description: 'kind (environment) or kind/id (environment/3)' },
            since: { type: 'string', maxLength: 64, description: 'an ISO 8601 time, or a duration back from now (30m, 12h, 7d)' },
            ...PAGE_PARAMETERS,
          },
        },
        response: { 200: answer('the entries, newest first', listOf(AUDIT_ENTRY)), ...errors(400, 401, 403) },
      },
    },
    async (req) => {
      const { actor, object, since } = req.query;
      const filter: store.AuditFilter = { ...(actor !== undefined ? { actor } : {}), ...(object !== undefined ? { object: objectFilter(object) } : {}), ...(since !== undefined ? { since: sinceFilter(since) } : {}) };
      // This server's entries still on their way are written first: a client finds its own actions.
      await api.audit.flush();
      return (await readPaged(req, numericMarker, (page) => store.pageOfAudit(ctx.db, filter, page))).map(auditView);
    },
  );
}
