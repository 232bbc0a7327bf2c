/**
 * /session (issue 29): the web UI signs in with a name and a password and gets an HttpOnly,
 * SameSite=Strict cookie (Secure when the server speaks TLS) and the CSRF token its changes send
 * as X-CSRF-Token. Signing out ends this session, or with ?everywhere=true every session of the user.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app.js';
import { OPEN, refuseTokenInQuery, VIEWER } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { csrfOf, digestOf, SESSION_COOKIE, sessionCookieOf } from '../identity.js';
import { signIn } from '../sign-in.js';
import { MAX_PASSWORD_LENGTH } from '../passwords.js';
import { answer, errors, noContent } from './answers.js';
import { ROLE_NAME, USER_NAME } from './account-shapes.js';

const SIGNED_IN = {
  type: 'object',
  required: ['user', 'role', 'csrf_token', 'expires_at'],
  additionalProperties: false,
  properties: { user: { type: 'string' }, role: ROLE_NAME, csrf_token: { type: 'string', description: 'send it as X-CSRF-Token with every change this session makes' }, expires_at: { type: 'string', format: 'date-time', description: 'the absolute end of the session (it also ends after a while unused)' } },
} as const;

const WHO = {
  type: 'object',
  required: ['user', 'role', 'via'],
  additionalProperties: false,
  properties: {
    user: { type: 'string', description: "the user's name; admin-token for the built-in admin" },
    role: ROLE_NAME,
    via: { type: 'string', enum: ['admin-token', 'session', 'token'] },
    token_name: { type: 'string', description: 'the personal token used, when via is token' },
    csrf_token: { type: 'string', description: 'when via is session: the CSRF token its changes send' },
  },
} as const;

/** Secure only over TLS: a browser drops a Secure cookie from plain HTTP (a server on localhost). */
function cookie(request: FastifyRequest, value: string, maxAgeS: number): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeS}${request.protocol === 'https' ? '; Secure' : ''}`;
}

const clearCookie = (request: FastifyRequest, reply: FastifyReply) => reply.header('set-cookie', cookie(request, '', 0));

export function sessionRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.post<{ Body: { name: string; password: string } }>(
    '/session',
    {
      config: OPEN,
      schema: {
        summary: 'Sign in with a name and a password: sets the session cookie, answers the CSRF token (failed sign-ins are slowed down per name and address)',
        tags: ['accounts'],
        body: { type: 'object', required: ['name', 'password'], additionalProperties: false, properties: { name: USER_NAME, password: { type: 'string', minLength: 1, maxLength: MAX_PASSWORD_LENGTH } } },
        response: { 200: answer('signed in; the cookie is set', SIGNED_IN), ...errors(400, 401, 429) },
      },
    },
    async (req, reply) => {
      // Open, so the access check did not look: a password in the URL would land in logs and history.
      refuseTokenInQuery(req);
      const s = await signIn(ctx.identity, req.body.name, req.body.password, req.ip);
      reply.header('set-cookie', cookie(req, s.secret, Math.floor(ctx.identity.sessionMaxMs / 1000)));
      return { user: s.user, role: s.role, csrf_token: s.csrfToken, expires_at: s.expiresAt.toISOString() };
    },
  );

  api.get('/session', { config: VIEWER, schema: { summary: 'Who this request is: user, role, how it signed in (and a session\'s CSRF token)', tags: ['accounts'], response: { 200: answer('who is asking', WHO), ...errors(401) } } }, async (req) => {
    const a = req.actor;
    const secret = a.via === 'session' ? sessionCookieOf(req.headers.cookie) : undefined;
    return { user: a.name ?? '', role: a.role ?? 'viewer', via: a.via, ...(a.tokenName ? { token_name: a.tokenName } : {}), ...(secret ? { csrf_token: csrfOf(secret) } : {}) };
  });

  api.delete<{ Querystring: { everywhere?: boolean } }>(
    '/session',
    {
      config: VIEWER,
      schema: {
        summary: 'Sign out: this session, or with everywhere=true every session of the user (a personal token may ask for everywhere too)',
        tags: ['accounts'],
        querystring: { type: 'object', additionalProperties: false, properties: { everywhere: { type: 'boolean', default: false } } },
        response: { 204: noContent('signed out; the cookie is cleared'), ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const a = req.actor;
      if (a.via === 'admin-token' || a.name === null) throw new HttpError(400, 'session/none', 'the admin token has no sessions to end', { hint: 'sign out with the session cookie, or with a personal token and ?everywhere=true' });
      if (req.query.everywhere) await store.deleteSessionsOf(ctx.db, a.name);
      else {
        const secret = a.via === 'session' ? sessionCookieOf(req.headers.cookie) : undefined;
        if (!secret) throw new HttpError(400, 'session/none', 'this request signed with a token, not a session', { hint: `DELETE /api/v1/session?everywhere=true ends every session of ${a.name}` });
        await store.deleteSession(ctx.db, digestOf(secret));
      }
      await ctx.identity.changed();
      clearCookie(req, reply);
      return reply.status(204).send();
    },
  );
}
