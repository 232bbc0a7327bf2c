/**
 * Signing in with a name and a password (issue 29), slowed down per name and per address in the
 * database, so every server sharing it counts the same guesses. A locked name is refused before
 * its password is checked, with the same words whether the name exists or not; an unknown name
 * costs as much scrypt time as a known one, so neither the answer nor its timing tells.
 */
import * as store from '../store/index.js';
import { addressPolicy, lockAfter } from '../core/access/sign-in.js';
import { HttpError } from './errors.js';
import { csrfOf, digestOf, newSecret, type Identity } from './identity.js';
import { NOBODY_HASH, verifyPassword } from './passwords.js';
import type { Role } from './actor.js';

export interface SignedIn {
  user: string;
  role: Role;
  /** The cookie's value (the session's secret). */
  secret: string;
  csrfToken: string;
  expiresAt: Date;
}

const nameKey = (name: string) => `name:${name}`;
const addressKey = (address: string) => `address:${address}`;

/**
 * The password of `name`, checked as a sign-in checks it (locked names and addresses refused
 * first, a wrong one counted against both): a password change asking for the current one is
 * slowed down like a sign-in, or a stolen session could guess its way to the password.
 */
export async function checkPassword(identity: Identity, name: string, password: string, address: string): Promise<store.UserRecord & { passwordHash: string }> {
  const { db, policy } = identity;
  const now = identity.now();
  const keys = [nameKey(name), addressKey(address)];
  const locked = (await store.signInFailures(db, keys)).filter((f) => f.lockedUntil && f.lockedUntil > now);
  if (locked.length) {
    const until = Math.max(...locked.map((f) => f.lockedUntil!.getTime()));
    const seconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
    throw new HttpError(429, 'auth/locked', `too many failed sign-ins for this name or from this address: try again in ${seconds} s`, { hint: 'wait, then sign in with the right password; an admin can set a new one (hearth user passwd)', retry_after_s: seconds });
  }
  const user = await store.userWithPassword(db, name);
  const right = await verifyPassword(password, user?.passwordHash ?? NOBODY_HASH);
  if (!user || !right) {
    const forgetBefore = new Date(now.getTime() - policy.forgetAfterMs);
    await store.recordSignInFailure(db, nameKey(name), now, forgetBefore, (n) => lockAfter(n, policy));
    await store.recordSignInFailure(db, addressKey(address), now, forgetBefore, (n) => lockAfter(n, addressPolicy(policy)));
    throw new HttpError(401, 'auth/sign-in-failed', 'the name or the password is wrong', { hint: 'an admin can set a new password: hearth user passwd <name>' });
  }
  if (user.disabled) throw new HttpError(401, 'auth/user-disabled', `the user '${name}' is disabled`, { hint: 'an admin can enable the account again' });
  await store.clearSignInFailures(db, nameKey(name));
  return user;
}

export async function signIn(identity: Identity, name: string, password: string, address: string): Promise<SignedIn> {
  const { db } = identity;
  const user = await checkPassword(identity, name, password, address);
  const now = identity.now();
  const secret = newSecret();
  const expiresAt = new Date(now.getTime() + identity.sessionMaxMs);
  await store.insertSession(db, { idHash: digestOf(secret), user: name, createdAt: now, expiresAt });
  // Sessions long over are dropped now and then; signing in is rare enough to carry it.
  await store.deleteStaleSessions(db, now, new Date(now.getTime() - identity.sessionIdleMs));
  await identity.changed();
  return { user: name, role: user.role, secret, csrfToken: csrfOf(secret), expiresAt };
}
