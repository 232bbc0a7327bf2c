/**
 * Who made a request, as the access check settled it (issue 29): the one thing the audit log, the
 * "who asked" of a deployment and the role checks all read. access.ts sets it on every request a
 * route matched, before the handler runs; a request nobody signed stays `anonymous`.
 */

/** What a person may do, in order: each role may do everything the ones before it may. */
export type Role = 'viewer' | 'operator' | 'admin';
export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];

/** Whether `held` is at least `needed`. */
export const roleAtLeast = (held: Role, needed: Role): boolean => ROLES.indexOf(held) >= ROLES.indexOf(needed);

export interface Actor {
  /** How the request proved who it is. */
  via: 'admin-token' | 'session' | 'token' | 'none';
  /** The user's name; `admin-token` for the built-in admin; null when nobody signed. */
  name: string | null;
  /** The role the request acts with (a personal token's may be less than its owner's). */
  role: Role | null;
  /** The personal token's name, when `via` is `token`. */
  tokenName?: string;
}

export const ANONYMOUS: Actor = Object.freeze({ via: 'none', name: null, role: null });
export const ADMIN_TOKEN_ACTOR: Actor = Object.freeze({ via: 'admin-token', name: 'admin-token', role: 'admin' });

declare module 'fastify' {
  interface FastifyRequest {
    /** Who made this request (see Actor); ANONYMOUS until the access check says otherwise. */
    actor: Actor;
  }
}
