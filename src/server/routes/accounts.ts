/**
 * /users and /tokens (issue 29): admins manage users; everyone signed in manages their own personal
 * tokens (an admin anyone's). A token is shown once and kept as a digest; it acts with its own
 * role, never more than its owner's. Sign-in is in session.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { ADMIN, refuseLesserRole, VIEWER } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { conflictsAsErrors } from '../../store/conflicts.js';
import { roleAtLeast, type Actor, type Role } from '../actor.js';
import { recordIn } from '../audit.js';
import { digestOf, newSecret, PERSONAL_TOKEN_PREFIX } from '../identity.js';
import { hashPassword, MAX_PASSWORD_LENGTH, passwordProblem } from '../passwords.js';
import { answer, errors, listOf, noContent } from './answers.js';
import { NEW_TOKEN, ROLE_NAME, TOKEN, TOKEN_NAME, USER, USER_NAME } from './account-shapes.js';
import { sessionRoutes } from './session.js';
import { checkPassword } from '../sign-in.js';
import { sessionCookieOf } from '../identity.js';

const nameParam = { type: 'object', required: ['name'], properties: { name: USER_NAME } } as const;
const PASSWORD = { type: 'string', minLength: 1, maxLength: MAX_PASSWORD_LENGTH } as const;
/** The longest a token may live: ten years (a longer one is a typo, or should have no expiry). */
const MAX_EXPIRES_IN_S = 10 * 365 * 24 * 3600;

const userAnswer = (u: store.UserRecord) => ({ name: u.name, role: u.role, disabled: u.disabled, created_at: u.createdAt.toISOString() });
const tokenAnswer = (t: store.TokenRecord) => ({ name: t.name, user: t.owner, role: t.role, created_at: t.createdAt.toISOString(), expires_at: t.expiresAt?.toISOString() ?? null, last_used_at: t.lastUsedAt?.toISOString() ?? null });

async function checkedPasswordHash(password: string): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new HttpError(400, 'user/bad-password', `the password will not do: ${problem}`, { field: 'password' });
  return hashPassword(password);
}

/** Whose tokens a request means: its own, or (an admin only) the user it names. */
function ownerFor(actor: Actor, named: string | undefined): string | undefined {
  if (named !== undefined && named !== actor.name) refuseLesserRole(actor, 'admin');
  return named ?? (actor.via === 'admin-token' ? undefined : (actor.name ?? undefined));
}

export function accountRoutes(api: FastifyInstance, ctx: AppContext): void {
  sessionRoutes(api, ctx);
  const tags = ['accounts'];

  api.get('/users', { config: ADMIN, schema: { summary: 'List users', tags, response: { 200: answer('every user', listOf(USER)), ...errors(401, 403) } } }, async () => (await store.listUsers(ctx.db)).map(userAnswer));

  api.post<{ Body: { name: string; role: Role; password: string } }>(
    '/users',
    {
      config: ADMIN,
      schema: { summary: 'Create a user', tags, body: { type: 'object', required: ['name', 'role', 'password'], additionalProperties: false, properties: { name: USER_NAME, role: ROLE_NAME, password: PASSWORD } }, response: { 201: answer('the user', USER), ...errors(400, 401, 403, 409) } },
    },
    async (req, reply) => {
      if (req.body.name === 'admin-token') throw new HttpError(400, 'user/reserved-name', "'admin-token' names the built-in admin; choose another name", { field: 'name' });
      const passwordHash = await checkedPasswordHash(req.body.password);
      const user = await conflictsAsErrors(() =>
        ctx.db.transaction(async (tx) => {
          const made = await store.insertUser(tx, { name: req.body.name, role: req.body.role, passwordHash });
          await ctx.identity.changed(tx);
          await recordIn(tx, req, 201, { id: made.name });
          return made;
        }),
      );
      ctx.identity.forget();
      return reply.status(201).send(userAnswer(user));
    },
  );

  api.patch<{ Params: { name: string }; Body: { role?: Role; disabled?: boolean; password?: string } }>(
    '/users/:name',
    {
      config: ADMIN,
      schema: {
        summary: "Change a user's role, disable or enable them, or set their password (a disabled user or a new password ends their sessions)",
        tags,
        params: nameParam,
        body: { type: 'object', minProperties: 1, additionalProperties: false, properties: { role: ROLE_NAME, disabled: { type: 'boolean' }, password: PASSWORD } },
        response: { 200: answer('the user', USER), ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const passwordHash = req.body.password === undefined ? undefined : await checkedPasswordHash(req.body.password);
      const user = await ctx.db.transaction(async (tx) => {
        const changed = await store.updateUser(tx, req.params.name, { ...(req.body.role ? { role: req.body.role } : {}), ...(req.body.disabled !== undefined ? { disabled: req.body.disabled } : {}), ...(passwordHash ? { passwordHash } : {}) });
        if (!changed) throw new HttpError(404, 'user/not-found', `there is no user '${req.params.name}'`, { hint: 'GET /api/v1/users lists them' });
        if (passwordHash || req.body.disabled) await store.deleteSessionsOf(tx, changed.name);
        await ctx.identity.changed(tx);
        await recordIn(tx, req, 200);
        return changed;
      });
      ctx.identity.forget();
      return userAnswer(user);
    },
  );

  // Anyone signed in as a user changes their own password with the current one (an admin sets
  // anyone's with PATCH /users/{name}). Their other sessions end; the one asking stays.
  api.put<{ Body: { current_password: string; password: string } }>(
    '/session/password',
    {
      config: VIEWER,
      schema: {
        summary: 'Change your own password, giving the current one (a wrong one counts as a failed sign-in); your other sessions end',
        tags,
        body: { type: 'object', required: ['current_password', 'password'], additionalProperties: false, properties: { current_password: PASSWORD, password: PASSWORD } },
        response: { 204: noContent('changed'), ...errors(400, 401, 429) },
      },
    },
    async (req, reply) => {
      const me = req.actor;
      if (me.via === 'admin-token' || me.name === null) throw new HttpError(400, 'user/no-password', 'the admin token is nobody: it has no password to change', { hint: 'sign in as a user, or set a user\'s password with PATCH /api/v1/users/{name}' });
      await checkPassword(ctx.identity, me.name, req.body.current_password, req.ip).catch((err: unknown) => {
        // Counted as a failed sign-in, answered in this route's words: a 401 would read as "your credential is bad", a 403 as "your role may not".
        if (err instanceof HttpError && err.code === 'auth/sign-in-failed') throw new HttpError(400, 'user/wrong-password', 'the current password is wrong; nothing was changed', { field: 'current_password' });
        throw err;
      });
      const passwordHash = await checkedPasswordHash(req.body.password);
      const keep = me.via === 'session' ? sessionCookieOf(req.headers.cookie) : undefined;
      await ctx.db.transaction(async (tx) => {
        await store.updateUser(tx, me.name!, { passwordHash });
        await store.deleteSessionsOf(tx, me.name!, keep === undefined ? undefined : digestOf(keep));
        await ctx.identity.changed(tx);
        await recordIn(tx, req, 204, { id: me.name! });
      });
      ctx.identity.forget();
      return reply.status(204).send();
    },
  );

  api.delete<{ Params: { name: string } }>(
    '/users/:name',
    { config: ADMIN, schema: { summary: 'Delete a user, with their tokens and sessions', tags, params: nameParam, response: { 204: noContent('deleted'), ...errors(401, 403, 404) } } },
    async (req, reply) => {
      await ctx.db.transaction(async (tx) => {
        if (!(await store.deleteUser(tx, req.params.name))) throw new HttpError(404, 'user/not-found', `there is no user '${req.params.name}'`, { hint: 'GET /api/v1/users lists them' });
        await ctx.identity.changed(tx);
        await recordIn(tx, req, 204);
      });
      ctx.identity.forget();
      return reply.status(204).send();
    },
  );

  api.post<{ Body: { name: string; role?: Role; expires_in?: number; user?: string } }>(
    '/tokens',
    {
      config: VIEWER,
      schema: {
        summary: 'Create a personal API token (answered this once); its role defaults to, and may not exceed, its owner\'s',
        tags,
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: TOKEN_NAME, role: ROLE_NAME, expires_in: { type: 'integer', minimum: 60, maximum: MAX_EXPIRES_IN_S, description: 'seconds until it stops working (none: it lasts until revoked)' }, user: { ...USER_NAME, description: 'an admin may make a token for another user (the admin token must name one)' } },
        },
        response: { 201: answer('the token, with its secret shown this once', NEW_TOKEN), ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const owner = ownerFor(req.actor, req.body.user);
      if (owner === undefined) throw new HttpError(400, 'token/needs-owner', 'the admin token belongs to nobody: name the user the token is for', { field: 'user', hint: 'add "user": "<name>", or sign in as a user' });
      const user = await store.getUser(ctx.db, owner);
      if (!user) throw new HttpError(404, 'user/not-found', `there is no user '${owner}'`, { hint: 'GET /api/v1/users lists them' });
      // Never more than the owner, nor than the credential asking (a viewer token cannot mint an admin one).
      const ceiling: Role = req.actor.via === 'token' && req.actor.name === owner && req.actor.role && !roleAtLeast(req.actor.role, user.role) ? req.actor.role : user.role;
      const role = req.body.role ?? ceiling;
      if (!roleAtLeast(ceiling, role)) throw new HttpError(400, 'token/role-above-owner', `a token may not have more than ${ceiling}, the most ${req.actor.name === owner ? 'you have' : `${owner} has`}`, { field: 'role', hint: `ask for ${ceiling} or less` });
      const secret = `${PERSONAL_TOKEN_PREFIX}${newSecret()}`;
      const now = ctx.identity.now();
      const expiresAt = req.body.expires_in === undefined ? null : new Date(now.getTime() + req.body.expires_in * 1000);
      const token = await conflictsAsErrors(() =>
        ctx.db.transaction(async (tx) => {
          const made = await store.insertToken(tx, { owner, name: req.body.name, hash: digestOf(secret), role, createdAt: now, expiresAt });
          await ctx.identity.changed(tx);
          await recordIn(tx, req, 201, { id: made.name });
          return made;
        }),
      );
      ctx.identity.forget();
      return reply.status(201).send({ ...tokenAnswer(token), token: secret });
    },
  );

  const userQuery = { type: 'object', additionalProperties: false, properties: { user: USER_NAME } } as const;
  api.get<{ Querystring: { user?: string } }>(
    '/tokens',
    { config: VIEWER, schema: { summary: 'Your personal tokens (an admin: everyone\'s, or one user\'s with ?user=): name, role, expiry, last use; never the token', tags, querystring: userQuery, response: { 200: answer('the tokens not revoked', listOf(TOKEN)), ...errors(401, 403) } } },
    async (req) => {
      const everyone = req.query.user === undefined && req.actor.role === 'admin';
      return (await store.listTokens(ctx.db, everyone ? undefined : ownerFor(req.actor, req.query.user))).map(tokenAnswer);
    },
  );

  api.delete<{ Params: { name: string }; Querystring: { user?: string } }>(
    '/tokens/:name',
    { config: VIEWER, schema: { summary: 'Revoke one of your tokens by name (an admin: another user\'s with ?user=); refused at once by every server', tags, params: { type: 'object', required: ['name'], properties: { name: TOKEN_NAME } }, querystring: userQuery, response: { 204: noContent('revoked'), ...errors(400, 401, 403, 404) } } },
    async (req, reply) => {
      const owner = ownerFor(req.actor, req.query.user);
      if (owner === undefined) {
        const named = (await store.listTokens(ctx.db)).filter((t) => t.name === req.params.name);
        if (named.length > 1) throw new HttpError(400, 'token/ambiguous', `${named.length} users have a token named '${req.params.name}': ${named.map((t) => t.owner).join(', ')}`, { hint: 'name the owner with ?user=' });
      }
      await ctx.db.transaction(async (tx) => {
        const revoked = await store.revokeToken(tx, req.params.name, owner, ctx.identity.now());
        if (!revoked.length) throw new HttpError(404, 'token/not-found', `there is no token '${req.params.name}'${owner ? ` of ${owner}` : ''}`, { hint: 'GET /api/v1/tokens lists them' });
        await ctx.identity.changed(tx);
        await recordIn(tx, req, 204);
      });
      ctx.identity.forget();
      return reply.status(204).send();
    },
  );
}
