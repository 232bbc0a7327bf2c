/**
 * Who a request is (issue 29): the admin token, a personal token (`Authorization: Bearer` or
 * OpenStack's `X-Auth-Token`), or a web UI session cookie, whose changes must also carry the
 * session's CSRF token and come from this server's own origin.
 *
 * Cost: the admin token is a digest comparison. A personal token or session is one indexed lookup
 * by its SHA-256, whose answer is then kept in memory until a user, token or session changes:
 * - PGlite has one process writing to it (its folder is locked): the answers are dropped whenever
 *   this process changes one (`changed`).
 * - PostgreSQL may have several servers. Every change announces itself (`changed`, in the change's
 *   own transaction where it has one) on the database's change feed, and every server drops its
 *   answers when it hears it. A cached answer is used only once the feed has caught up with every
 *   change committed before the request arrived (one round trip on the feed's connection, shared by
 *   all the requests waiting for it), so a token revoked through one server is refused by every
 *   other at once; while the feed's connection is down, every request reads the database.
 * Last use is written at most once a minute per token or session, never once per request.
  */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import * as store from '../store/index.js';
import { ADMIN_TOKEN_ACTOR, roleAtLeast, type Actor, type Role } from './actor.js';
import { tokensEqual } from './auth.js';
import { HttpError } from './errors.js';
import { MAX_TOKEN_LENGTH } from '../core/access/admin-token.js';
import { DEFAULT_SIGN_IN_POLICY, type SignInPolicy } from '../core/access/sign-in.js';

export const SESSION_COOKIE = 'hearth_session';
/** Personal tokens look like this, so a leaked one is recognisable (and secret scanners can match it). */
export const PERSONAL_TOKEN_PREFIX = 'hearth_pt_';

export interface IdentityOptions {
  /** The clock (ms since the epoch); tests move it instead of waiting. */
  now?: () => number;
  /** A session ends after this long without a request (default 8 hours). */
  sessionIdleMs?: number;
  /** A session ends this long after signing in, however used (default 7 days). */
  sessionMaxMs?: number;
  signIn?: Partial<SignInPolicy>;
}

/** Last use is written at most this often per token or session. */
const TOUCH_EVERY_MS = 60_000;
/** Entries the in-memory cache keeps before starting over. */
const CACHE_LIMIT = 10_000;

export const digestOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('base64url');
export const newSecret = (): string => randomBytes(32).toString('base64url');
/** The CSRF token of a session: derived from the cookie's secret, so it is never stored and a database reader cannot make it. */
export const csrfOf = (sessionSecret: string): string => createHash('sha256').update(`hearth-csrf\0${sessionSecret}`, 'utf8').digest('base64url');

const lesser = (a: Role, b: Role): Role => (roleAtLeast(a, b) ? b : a);

export type Resolution = { actor: Actor; sessionSecret?: string } | { error: HttpError } | undefined;

interface Cache {
  tokens: Map<string, store.TokenHolder | undefined>;
  sessions: Map<string, store.SessionHolder | undefined>;
  /** Counts the clearings, so an answer read before one is not kept after it. */
  generation: number;
}

function clear(cache: Cache): void {
  cache.tokens.clear();
  cache.sessions.clear();
  cache.generation++;
}
/** One cache per database object, so two apps over one database (tests) agree. */
const caches = new WeakMap<store.Database, Cache>();
const TOPIC = store.CREDENTIALS_TOPIC;

const unauthorized = (code: string, message: string, hint?: string) => new HttpError(401, code, message, hint ? { hint } : undefined);

export class Identity {
  readonly policy: SignInPolicy;
  readonly sessionIdleMs: number;
  readonly sessionMaxMs: number;
  private readonly clock: () => number;
  private readonly cache: Cache;
  /** Last writes of last use this process made, by digest. */
  private readonly touched = new Map<string, number>();

  constructor(
    readonly db: store.Database,
    options: IdentityOptions = {},
  ) {
    this.clock = options.now ?? Date.now;
    this.sessionIdleMs = options.sessionIdleMs ?? 8 * 60 * 60_000;
    this.sessionMaxMs = options.sessionMaxMs ?? 7 * 24 * 60 * 60_000;
    this.policy = { ...DEFAULT_SIGN_IN_POLICY, ...(options.signIn ?? {}) };
    let cache = caches.get(db);
    if (!cache) {
      caches.set(db, (cache = { tokens: new Map(), sessions: new Map(), generation: 0 }));
      const it = cache;
      db.changes?.subscribe(TOPIC, () => clear(it));
    }
    this.cache = cache;
  }

  now(): Date {
    return new Date(this.clock());
  }

  /**
   * Call after any change to users, tokens or sessions, with the change's transaction where it has
   * one (on PostgreSQL the announcement then commits with the change, or not at all); awaited
   * before answering, so every server refuses a revoked token once the revocation is answered.
   */
  async changed(q: store.Queryable = this.db): Promise<void> {
    clear(this.cache);
    await this.db.changes?.announce(q, TOPIC);
  }

  /** Drops what this process cached; call after the transaction that called `changed(tx)` committed (an answer read meanwhile may be the old one). */
  forget(): void {
    clear(this.cache);
  }

  /**
   * The request's credentials, checked: an actor, a refusal (401 for a credential that is wrong,
   * expired, revoked or whose user is disabled; 403 for a session's change without its CSRF token
   * or from another origin), or undefined when it carries none.
   */
  async resolve(request: FastifyRequest, adminToken: string): Promise<Resolution> {
    const header = request.headers.authorization;
    const openStack = request.headers['x-auth-token'];
    if (header !== undefined && header !== '') {
      if (header.length > MAX_TOKEN_LENGTH + 7) return { error: unauthorized('auth/bad-token', 'the token is wrong') };
      const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
      if (!match) return { error: unauthorized('auth/bad-scheme', 'the Authorization header must be "Bearer <token>"') };
      return this.byToken(match[1]!, adminToken);
    }
    if (typeof openStack === 'string' && openStack !== '') {
      if (openStack.length > MAX_TOKEN_LENGTH || /\s/.test(openStack.trim())) return { error: unauthorized('auth/bad-token', 'the token is wrong') };
      return this.byToken(openStack.trim(), adminToken);
    }
    const secret = sessionCookieOf(request.headers.cookie);
    if (secret !== undefined) return this.bySession(request, secret);
    return undefined;
  }

  private async byToken(token: string, adminToken: string): Promise<Resolution> {
    if (tokensEqual(token, adminToken)) return { actor: ADMIN_TOKEN_ACTOR };
    const wrong = { error: unauthorized('auth/bad-token', 'the token is wrong: it is neither the admin token nor a personal token', 'a personal token is shown once, by hearth token create; hearth token list shows yours') };
    if (!token.startsWith(PERSONAL_TOKEN_PREFIX)) return wrong;
    const hash = digestOf(token);
    const holder = await this.cached(this.cache.tokens, hash, () => store.tokenByHash(this.db, hash));
    if (!holder) return wrong;
    const now = this.clock();
    if (holder.revoked) return { error: unauthorized('auth/token-revoked', `the token '${holder.name}' of ${holder.owner} was revoked`, 'create another with hearth token create') };
    if (holder.expiresAt && holder.expiresAt.getTime() <= now) return { error: unauthorized('auth/token-expired', `the token '${holder.name}' of ${holder.owner} expired at ${holder.expiresAt.toISOString()}`, 'create another with hearth token create') };
    if (holder.ownerDisabled) return { error: unauthorized('auth/user-disabled', `the user '${holder.owner}' is disabled`, 'an admin can enable the account again') };
    this.touch(hash, holder.lastUsedAt, now, () => store.touchToken(this.db, hash, new Date(now)));
    return { actor: { via: 'token', name: holder.owner, role: lesser(holder.role, holder.ownerRole), tokenName: holder.name } };
  }

  private async bySession(request: FastifyRequest, secret: string): Promise<Resolution> {
    const hash = digestOf(secret);
    let session = await this.cached(this.cache.sessions, hash, () => store.sessionByHash(this.db, hash));
    const now = this.clock();
    const over = 'sign in again';
    // Its last use as this process knows it: its own write of it may still be on the way.
    const lastSeen = (s: store.SessionHolder) => Math.max(s.lastSeenAt.getTime(), this.touched.get(hash) ?? 0);
    if (session && lastSeen(session) + this.sessionIdleMs <= now) {
      // Another server may have seen it since this one cached it (its last-use writes are not announced).
      this.cache.sessions.delete(hash);
      session = await store.sessionByHash(this.db, hash);
    }
    if (!session) return { error: unauthorized('auth/session-expired', 'the session has ended (signed out, expired, or unknown)', over) };
    if (session.expiresAt.getTime() <= now || lastSeen(session) + this.sessionIdleMs <= now) return { error: unauthorized('auth/session-expired', 'the session has expired', over) };
    if (session.disabled) return { error: unauthorized('auth/user-disabled', `the user '${session.user}' is disabled`, 'an admin can enable the account again') };
    if (!['GET', 'HEAD', 'OPTIONS'].includes(request.method)) {
      const refusal = crossOrigin(request) ?? csrfRefusal(request, secret);
      if (refusal) return { error: refusal };
    }
    this.touch(hash, session.lastSeenAt, now, () => store.touchSession(this.db, hash, new Date(now)), (at) => (session.lastSeenAt = at));
    return { actor: { via: 'session', name: session.user, role: session.role }, sessionSecret: secret };
  }

  private async cached<T>(map: Map<string, T | undefined>, key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    // PostgreSQL: trust the cache only once every change committed before now has been heard.
    const trusted = this.db.changes ? await this.db.changes.caughtUp() : true;
    if (trusted && map.has(key)) return map.get(key);
    const generation = this.cache.generation;
    const value = await load();
    if (trusted && generation === this.cache.generation) {
      if (map.size >= CACHE_LIMIT) map.clear();
      map.set(key, value);
    }
    return value;
  }

  /** Writes last use when the stored one is a minute old, without making the request wait for it. */
  private touch(hash: string, stored: Date | null, now: number, write: () => Promise<void>, remember?: (at: Date) => void): void {
    const last = Math.max(stored?.getTime() ?? 0, this.touched.get(hash) ?? 0);
    if (now - last < TOUCH_EVERY_MS) return;
    if (this.touched.size >= CACHE_LIMIT) this.touched.clear();
    this.touched.set(hash, now);
    remember?.(new Date(now));
    write().catch(() => undefined);
  }
}

/** The session cookie's value, from a Cookie header (several cookies, any order). */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** A browser's change from a page of another origin (the Origin or Sec-Fetch-Site header says so). */
function crossOrigin(request: FastifyRequest): HttpError | undefined {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  let foreign = site === 'cross-site' || site === 'same-site';
  if (typeof origin === 'string' && origin !== '') {
    try {
      foreign ||= origin === 'null' || new URL(origin).host !== request.headers.host;
    } catch {
      foreign = true;
    }
  }
  return foreign ? new HttpError(403, 'auth/cross-origin', 'a change signed by a session cookie must come from this server\'s own pages', { hint: 'scripts send a token (Authorization: Bearer) rather than a cookie' }) : undefined;
}

function csrfRefusal(request: FastifyRequest, secret: string): HttpError | undefined {
  const given = request.headers['x-csrf-token'];
  const expected = Buffer.from(csrfOf(secret));
  const ok = typeof given === 'string' && given.length === expected.length && timingSafeEqual(Buffer.from(given), expected);
  return ok ? undefined : new HttpError(403, 'auth/csrf', 'a change signed by a session cookie needs the session\'s CSRF token in the X-CSRF-Token header', { hint: 'POST /api/v1/session answered it as csrf_token (GET /api/v1/session answers it again)' });
}
