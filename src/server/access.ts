/**
 * Who may call a route, decided on the route the router matched, never on the URL as sent.
 *
 * The URL as sent and the path the router matches are different strings: the router decodes
 * percent-escapes (`/%61pi/v1/nodes` is `/api/v1/nodes`) and may treat a trailing slash as
 * absent. A check on the raw URL therefore guards a path nobody has to use. Each route carries its
 * rule in its own config instead, so a route cannot exist without one, and the default is the
 * strictest: a route under `/api/` needs the admin role unless it says otherwise.
 *
 * The rule is the role the route needs (issue 29): 401 when the request proves nobody (no
 * credential, or a wrong, expired or revoked one), 403 when it proves someone whose role is too low.
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { HttpError } from './errors.js';
import { ANONYMOUS, roleAtLeast, type Actor, type Role } from './actor.js';
import type { Identity } from './identity.js';

/** 403 unless the actor holds `needed`: for routes whose need depends on the request (a field, the target). */
export function refuseLesserRole(actor: Actor, needed: Role): void {
  if (actor.role !== null && roleAtLeast(actor.role, needed)) return;
  const who = actor.via === 'token' ? `${actor.name} through the token '${actor.tokenName}'` : (actor.name ?? 'nobody');
  throw new HttpError(403, 'auth/forbidden', `this needs the ${needed} role; ${who} has ${actor.role ?? 'none'}`, { hint: needed === 'admin' ? 'ask an admin' : `ask an admin for the ${needed} role (or use a token made with it)`, needed, role: actor.role });
}

/**
 * - `viewer`, `operator`, `admin`: a signed-in user, personal token or the admin token (the
 *   built-in admin) with at least that role. `admin` is the default under `/api/`.
 * - `read`: open to anyone, unless the server protects reads (`--protect-reads`): then `viewer`.
 * - `open`: never needs a credential (the web UI's files, the API reference, signing in).
 */
export type Access = Role | 'read' | 'open';

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
/** Route options for what any signed-in user may do (their own tokens, signing out). */
export const VIEWER = { access: 'viewer' } as const satisfies { access: Access };
/** Route options for running environments: environments, nodes, settings, deploy, stop, graphs. */
export const OPERATOR = { access: 'operator' } as const satisfies { access: Access };
/** Route options for what only an admin may do (the default under /api/, named where it helps to say so). */
export const ADMIN = { access: 'admin' } as const satisfies { access: Access };

/** The role a rule needs on this server; undefined when none is (a public read, an open route). */
export const roleNeeded = (access: Access, protectReads: boolean): Role | undefined => (access === 'open' ? undefined : access === 'read' ? (protectReads ? 'viewer' : undefined) : access);
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

export function refuseTokenInQuery(request: FastifyRequest): void {
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
  /** Personal tokens and sessions (identity.ts). */
  identity: Identity;
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
    const needed = roleNeeded(access, options.protectReads);
    const found = await options.identity.resolve(request, token);
    if (needed === undefined) {
      // The read needs no credential; a wrong one is ignored, as it always was.
      if (found && 'actor' in found) request.actor = found.actor;
      request.withAdminToken = request.actor.via === 'admin-token';
      return;
    }
    if (found === undefined) {
      throw new HttpError(401, 'auth/missing-token', `this request needs ${needed === 'admin' ? 'an admin' : `a ${needed}`}: a token or a signed-in user`, {
        hint: 'send "Authorization: Bearer <token>" (the admin token hearth serve printed, or a personal one from hearth token create), or sign in (POST /api/v1/session)',
      });
    }
    if ('error' in found) throw found.error;
    request.actor = found.actor;
    request.withAdminToken = found.actor.via === 'admin-token';
    refuseLesserRole(found.actor, needed);
  });
  return rules;
}
