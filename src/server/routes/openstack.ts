/**
 * What OpenStack's tools and operators expect of a service, beside Hearth's own probes:
 * - `/healthcheck`, oslo.middleware's path: `200 OK` (text) when the server would answer `/readyz`
 *   with 200, `503` with the reason otherwise, so a load balancer set up for Keystone or Nova
 *   checks Hearth the same way.
 * - Version discovery as OpenStack services answer it (keystoneauth's discovery reads it): at `/api`
 *   always, at `/` for a client asking JSON; a browser asking `/` still gets the web UI.
 * The request id (`X-OpenStack-Request-ID` beside `x-request-id`) is in log.ts and app.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OPEN } from '../access.js';
import type { Database } from '../../store/index.js';
import type { StartupState } from '../startup.js';
import { readiness } from '../readiness.js';
import { answer } from './answers.js';

/** The API versions this server speaks: one so far. */
const VERSIONS = [{ id: 'v1', status: 'CURRENT', path: '/api/v1/' }] as const;

const versionsShape = {
  type: 'object',
  required: ['versions'],
  additionalProperties: false,
  properties: {
    versions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'status', 'links'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', description: 'the version, as in the path (v1)' },
          status: { type: 'string', enum: ['CURRENT', 'SUPPORTED', 'DEPRECATED'], description: 'as OpenStack services say it' },
          links: {
            type: 'array',
            items: { type: 'object', required: ['rel', 'href'], additionalProperties: false, properties: { rel: { type: 'string' }, href: { type: 'string', description: 'absolute: HEARTH_PUBLIC_URL\'s origin when set, else the request\'s own' } } },
          },
        },
      },
    },
  },
} as const;

export interface OpenStackOptions {
  db: Database;
  /** The start-up gate's state: nothing asks a database still opening. */
  startup: () => StartupState;
  /** HEARTH_PUBLIC_URL: behind a proxy, the origin clients reach (links are built on it). */
  publicUrl?: () => string | undefined;
  /** What `/` answers a browser (the web UI's page). */
  page: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** Whether the client asked for JSON rather than a page: keystoneauth and curl -H 'Accept: application/json' do, browsers do not. */
export function asksJson(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  return types.includes('application/json') && !types.includes('text/html');
}

export function openStackRoutes(app: FastifyInstance, options: OpenStackOptions): void {
  app.get(
    '/healthcheck',
    {
      config: OPEN,
      logLevel: 'warn',
      schema: {
        summary: 'Health check as oslo.middleware answers it: 200 "OK" when ready to serve, 503 with the reason when not (no token needed)',
        tags: ['server'],
        response: { 200: answer('ready to serve', { type: 'string', const: 'OK' }, 'text/plain'), 503: answer('not ready: the reason, in words', { type: 'string' }, 'text/plain') },
      },
    },
    async (_request, reply) => {
      const state = options.startup();
      const text = (status: 200 | 503, body: string) => reply.status(status).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(body);
      if (state.state === 'starting') return text(503, 'starting: opening the database and bringing its schema up to date');
      if (state.state === 'failed') return text(503, `the server could not start: ${state.reason}`);
      const ready = await readiness(options.db);
      return ready.ok ? text(200, 'OK') : text(503, ready.error.message);
    },
  );

  const versions = (request: FastifyRequest) => {
    const origin = (options.publicUrl?.() ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
    return { versions: VERSIONS.map((v) => ({ id: v.id, status: v.status, links: [{ rel: 'self', href: `${origin}${v.path}` }] })) };
  };
  const schema = (what: string, page: boolean) => ({
    summary: what,
    tags: ['server'],
    response: {
      200: {
        description: page ? 'JSON asked (Accept: application/json): the API versions; otherwise the web UI' : 'the API versions',
        content: { 'application/json': { schema: versionsShape }, ...(page ? { 'text/html': { schema: { type: 'string' } } } : {}) },
      },
    },
  });
  app.get('/api', { config: OPEN, schema: schema('Version discovery, as OpenStack services answer it: the API versions this server speaks', false) }, async (request) => versions(request));
  app.get('/', { config: OPEN, schema: schema('The web UI; with Accept: application/json, version discovery as at /api', true) }, async (request, reply) => {
    // A cache between must keep the page and the JSON apart.
    reply.header('vary', 'Accept');
    return asksJson(request.headers.accept) ? versions(request) : options.page(request, reply);
  });
}
