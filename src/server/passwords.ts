/**
 * Password hashing (issue 29): Node's own scrypt, N = 2^15, r = 8, p = 1, a 16-byte random salt
 * and a 32-byte key (about 32 MiB and 50-100 ms a hash). The parameters are stored with each hash
 * (`scrypt$15$8$1$<salt>$<key>`), so they can be raised later without breaking stored ones.
 * scrypt runs on libuv's thread pool: a sign-in never blocks the request thread.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** Passwords are text a person types; a longer one is an attack on the hashing time. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MIN_PASSWORD_LENGTH = 8;

const derive = (password: string, salt: Buffer, logN: number, r: number, p: number, length: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 16 * 1024 * 1024 };
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, LOG_N, R, P, KEY_LENGTH);
  return `scrypt$${LOG_N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether the password gives the stored hash (compared in constant time); false for a hash it cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 22 || r > 32 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length < 16) return false;
  const key = await derive(password, salt, logN, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

/** A hash no password gives, verified against when a name does not exist so it takes as long. */
export const NOBODY_HASH = `scrypt$${LOG_N}$${R}$${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH, 1).toString('base64url')}`;

/** Why a new password is refused, in words; undefined when it will do. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `it is ${password.length} characters long; use at least ${MIN_PASSWORD_LENGTH}`;
  if (password.length > MAX_PASSWORD_LENGTH) return `it is longer than ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}
