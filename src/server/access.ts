/**
 * Who may call a route, decided on the route the router matched, never on the URL as sent.
 *
 * The URL as sent and the path the router matches are different strings: the router decodes
 * percent-escapes (`/%61pi/v1/nodes` is `/api/v1/nodes`) and may treat a trailing slash as
 * absent. A check on the raw URL therefore guards a path nobody has to use. Each route carries its
 * rule in its own config instead, so a route cannot exist without one, and the default is the
 * strictest: a route under `/api/` needs the admin token unless it is marked a public read.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { checkAuth, isAdminToken } from './auth.js';
import { HttpError } from './errors.js';
import { ADMIN_TOKEN_ACTOR, ANONYMOUS, type Actor } from './actor.js';

/**
 * - `admin`: the admin token, always (every change, and the default under `/api/`).
 * - `read`: open to anyone, unless the server protects reads (`--protect-reads`).
 * - `open`: never needs the token (the web UI's files, the API reference, the OpenAPI document).
 */
export type Access = 'admin' | 'read' | 'open';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    /** The request carried the admin token, checked (open routes allow a token holder larger bodies). */
    withAdminToken: boolean;
  }
}

/** Route options for a read anyone may make (the token is still needed under `--protect-reads`). */
export const PUBLIC_READ = { access: 'read' } as const satisfies { access: Access };
/** Route options for what never needs the token. */
export const OPEN = { access: 'open' } as const satisfies { access: Access };

/** The rule a route gets when it names none: the token for the API, open for pages and files. */
export const defaultAccess = (url: string): Access => (url.startsWith('/api/') ? 'admin' : 'open');

/**
 * Names under which clients put tokens into query strings. A token there lands in proxy logs,
 * browser history and Referer headers, so such a request is refused rather than honoured.
 */
export const TOKEN_QUERY_NAMES = new Set(['token', 'access_token', 'admin_token', 'auth', 'authorization', 'bearer', 'api_key', 'apikey', 'key', 'jwt', 'session', 'secret', 'password', 'passwd', 'credentials']);

/**
 * Whether a query parameter's name, spelled any way a client or a proxy might, names a secret: each
 * percent-escape decoded (up to three layers: `%2574oken` is `token`), case folded, a bracket
 * suffix dropped (`token[]`, `token[x]`), `-` and `.` read as `_`, an `x_` prefix dropped
 * (`X-Auth-Token`); then one of the names above, or any name ending in `_token`, `_key`,
 * `_secret` or `_password` (`auth_token`, `private_token`, `api_key`). The refusal below and the
 * log's masking (log.ts) both ask this, so a spelling refused is a spelling masked.
 */
export function isTokenQueryName(name: string): boolean {
  let n = name;
  for (let i = 0; i < 3 && n.includes('%'); i++) {
    try {
      n = decodeURIComponent(n);
    } catch {
      break;
    }
  }
  n = n.replace(/\+/g, ' ').toLowerCase().trim();
  const bracket = n.indexOf('[');
  if (bracket >= 0) n = n.slice(0, bracket);
  n = n.replace(/[-.\s]+/g, '_').replace(/^x_/, '');
  return TOKEN_QUERY_NAMES.has(n) || /_(token|key|secret|password)$/.test(n);
}

function refuseTokenInQuery(request: FastifyRequest): void {
  const query = request.query;
  if (!query || typeof query !== 'object') return;
  const named = Object.keys(query).find(isTokenQueryName);
  if (named !== undefined) {
    throw new HttpError(400, 'auth/token-in-query', `a token may not be sent in the query string ('${named.slice(0, 100)}')`, {
      hint: 'send it as the header "Authorization: Bearer <token>"; a token in a URL ends up in logs and browser history',
    });
  }
}

export interface AccessOptions {
  /** The token, or where to read it when asked (a server settles it after it starts listening). */
  adminToken: string | (() => string);
  /** Require the token for public reads too. */
  protectReads: boolean;
}

/** Every route's access rule, in the order they were added: Fastify's route table, for tests. */
export interface RouteRule {
  method: string;
  url: string;
  access: Access;
}

/**
 * Gives every route its rule as it is added (so routes registered later, by any plugin, are
 * covered) and checks it on every request the router matched. A request that matched no route
 * goes on to the not-found handler, which answers 404 and runs nothing else.
 */
export function guardRoutes(app: FastifyInstance, options: AccessOptions): RouteRule[] {
  const rules: RouteRule[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const access = route.config?.access ?? defaultAccess(route.url);
    route.config = { ...(route.config ?? {}), access };
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) rules.push({ method, url: route.url, access });
  });
  app.decorateRequest('withAdminToken', false);
  // A frozen object may not be a decorator's default (Fastify shares it): null, set first thing below.
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRequest', async (request) => {
    request.actor = ANONYMOUS;
    if (request.is404) return;
    // A route without a rule cannot come from onRoute above; should one appear, it is refused.
    const access = request.routeOptions.config.access ?? 'admin';
    if (access === 'open') return;
    refuseTokenInQuery(request);
    const token = typeof options.adminToken === 'function' ? options.adminToken() : options.adminToken;
    if (access === 'read' && !options.protectReads) {
      // The read needs no token; a wrong one is ignored, as it always was.
      request.withAdminToken = request.headers.authorization !== undefined && isAdminToken(request, token);
      if (request.withAdminToken) request.actor = ADMIN_TOKEN_ACTOR;
      return;
    }
    checkAuth(request, token);
    request.withAdminToken = true;
    request.actor = ADMIN_TOKEN_ACTOR;
  });
  return rules;
}
