/**
 * What proves who a request is (issue 29), stored by digest only: personal API tokens and web UI
 * sessions, and the failed sign-ins that slow a guesser down. Times come from the caller (the
 * server's clock, which tests replace), never from the database's now(), so one clock decides.
 */
import type { Queryable } from './database.js';
import type { UserRole } from './users.js';

/** The change feed's topic of users, tokens and sessions: a server drops its cached answers about them when it hears it (server/identity.ts). */
export const CREDENTIALS_TOPIC = 'credentials';

const at = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

export interface TokenRecord {
  owner: string;
  name: string;
  role: UserRole;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

/** A token as a request presents it: with its owner's role and state at this moment. */
export interface TokenHolder extends TokenRecord {
  revoked: boolean;
  ownerRole: UserRole;
  ownerDisabled: boolean;
}

interface TokenRow {
  owner: string;
  name: string;
  role: UserRole;
  created_at: Date | string;
  expires_at: Date | string | null;
  last_used_at: Date | string | null;
  revoked_at?: Date | string | null;
  owner_role?: UserRole;
  owner_disabled?: boolean;
}

const token = (r: TokenRow): TokenRecord => ({ owner: r.owner, name: r.name, role: r.role, createdAt: new Date(r.created_at), expiresAt: at(r.expires_at), lastUsedAt: at(r.last_used_at) });

export async function insertToken(q: Queryable, t: { owner: string; name: string; hash: string; role: UserRole; createdAt: Date; expiresAt: Date | null }): Promise<TokenRecord> {
  const [row] = await q.query<TokenRow>(
    `INSERT INTO api_tokens (owner, name, token_hash, role, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING owner, name, role, created_at, expires_at, last_used_at`,
    [t.owner, t.name, t.hash, t.role, t.createdAt.toISOString(), t.expiresAt?.toISOString() ?? null],
  );
  return token(row!);
}

/** Tokens not revoked, of one owner or (undefined) of everyone. */
export async function listTokens(q: Queryable, owner?: string): Promise<TokenRecord[]> {
  const rows = await q.query<TokenRow>(
    `SELECT owner, name, role, created_at, expires_at, last_used_at FROM api_tokens WHERE revoked_at IS NULL AND ($1::text IS NULL OR owner = $1) ORDER BY owner, name`,
    [owner ?? null],
  );
  return rows.map(token);
}

/** Revokes one owner's token by name (or, without an owner, every live token of that name); the owners revoked. */
export async function revokeToken(q: Queryable, name: string, owner: string | undefined, when: Date): Promise<string[]> {
  const rows = await q.query<{ owner: string }>(
    `UPDATE api_tokens SET revoked_at = $3 WHERE name = $1 AND ($2::text IS NULL OR owner = $2) AND revoked_at IS NULL RETURNING owner`,
    [name, owner ?? null, when.toISOString()],
  );
  return rows.map((r) => r.owner);
}

export async function tokenByHash(q: Queryable, hash: string): Promise<TokenHolder | undefined> {
  const [row] = await q.query<TokenRow>(
    `SELECT t.owner, t.name, t.role, t.created_at, t.expires_at, t.last_used_at, t.revoked_at, u.role AS owner_role, u.disabled AS owner_disabled
     FROM api_tokens t JOIN users u ON u.name = t.owner WHERE t.token_hash = $1`,
    [hash],
  );
  if (!row) return undefined;
  return { ...token(row), revoked: row.revoked_at !== null && row.revoked_at !== undefined, ownerRole: row.owner_role!, ownerDisabled: row.owner_disabled ?? false };
}

export async function touchToken(q: Queryable, hash: string, when: Date): Promise<void> {
  await q.query('UPDATE api_tokens SET last_used_at = $2 WHERE token_hash = $1', [hash, when.toISOString()]);
}

export interface SessionHolder {
  user: string;
  role: UserRole;
  disabled: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export async function insertSession(q: Queryable, s: { idHash: string; user: string; createdAt: Date; expiresAt: Date }): Promise<void> {
  await q.query('INSERT INTO sessions (id_hash, user_name, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $3, $4)', [s.idHash, s.user, s.createdAt.toISOString(), s.expiresAt.toISOString()]);
}

export async function sessionByHash(q: Queryable, idHash: string): Promise<SessionHolder | undefined> {
  const [row] = await q.query<{ user_name: string; role: UserRole; disabled: boolean; created_at: Date | string; last_seen_at: Date | string; expires_at: Date | string }>(
    'SELECT s.user_name, u.role, u.disabled, s.created_at, s.last_seen_at, s.expires_at FROM sessions s JOIN users u ON u.name = s.user_name WHERE s.id_hash = $1',
    [idHash],
  );
  return row ? { user: row.user_name, role: row.role, disabled: row.disabled, createdAt: new Date(row.created_at), lastSeenAt: new Date(row.last_seen_at), expiresAt: new Date(row.expires_at) } : undefined;
}

export async function touchSession(q: Queryable, idHash: string, when: Date): Promise<void> {
  await q.query('UPDATE sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, when.toISOString()]);
}

export async function deleteSession(q: Queryable, idHash: string): Promise<void> {
  await q.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
}

/** Signs a user out everywhere; how many sessions ended. */
/** Every session of `user`, but the one whose digest is `except` (a password changed through it). */
export async function deleteSessionsOf(q: Queryable, user: string, except?: string): Promise<number> {
  if (except !== undefined) return (await q.query('DELETE FROM sessions WHERE user_name = $1 AND id_hash <> $2 RETURNING id_hash', [user, except])).length;
  return (await q.query('DELETE FROM sessions WHERE user_name = $1 RETURNING id_hash', [user])).length;
}

/** Sessions past their absolute expiry or idle too long, dropped now and then. */
export async function deleteStaleSessions(q: Queryable, now: Date, idleSince: Date): Promise<void> {
  await q.query('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now.toISOString(), idleSince.toISOString()]);
}

export interface SignInFailures {
  key: string;
  failures: number;
  lockedUntil: Date | null;
}

export async function signInFailures(q: Queryable, keys: readonly string[]): Promise<SignInFailures[]> {
  const rows = await q.query<{ key: string; failures: number; locked_until: Date | string | null }>('SELECT key, failures, locked_until FROM sign_in_failures WHERE key = ANY($1::text[])', [keys]);
  return rows.map((r) => ({ key: r.key, failures: Number(r.failures), lockedUntil: at(r.locked_until) }));
}

/**
 * Counts one more failure for the key (starting again from one when the last was before
 * `forgetBefore`) and returns the count; `lockFor` turns the count into how long to lock (ms).
 */
export async function recordSignInFailure(q: Queryable, key: string, when: Date, forgetBefore: Date, lockFor: (failures: number) => number): Promise<number> {
  const [row] = await q.query<{ failures: number }>(
    `INSERT INTO sign_in_failures (key, failures, last_failure_at) VALUES ($1, 1, $2)
     ON CONFLICT (key) DO UPDATE SET failures = CASE WHEN sign_in_failures.last_failure_at < $3 THEN 1 ELSE sign_in_failures.failures + 1 END, last_failure_at = $2
     RETURNING failures`,
    [key, when.toISOString(), forgetBefore.toISOString()],
  );
  const failures = Number(row?.failures ?? 1);
  const ms = lockFor(failures);
  await q.query('UPDATE sign_in_failures SET locked_until = $2 WHERE key = $1', [key, ms > 0 ? new Date(when.getTime() + ms).toISOString() : null]);
  return failures;
}

export async function clearSignInFailures(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM sign_in_failures WHERE key = $1', [key]);
}
