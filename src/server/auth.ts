/**
 * Admin token checks: `Authorization: Bearer <token>`, on the routes whose rule asks for it
 * (access.ts decides which). Tokens are compared as SHA-256 digests
 * with timingSafeEqual, so neither the content nor the length of the stored token leaks through
 * response times.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

// One token rule (core/access/admin-token.ts); re-exported for the callers that read it here.
import { MAX_TOKEN_LENGTH } from '../core/access/admin-token.js';
export { MAX_TOKEN_LENGTH };

export const generateToken = (): string => `hearth_${randomBytes(24).toString('base64url')}`;

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function checkAuth(request: FastifyRequest, adminToken: string): void {
  const header = request.headers.authorization;
  if (header === undefined || header === '') {
    throw new HttpError(401, 'auth/missing-token', 'this request needs the admin token', { hint: 'send "Authorization: Bearer <token>"; hearth serve printed the token (or set HEARTH_ADMIN_TOKEN)' });
  }
  if (header.length > MAX_TOKEN_LENGTH + 7) throw new HttpError(401, 'auth/bad-token', 'the admin token is wrong');
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new HttpError(401, 'auth/bad-scheme', 'the Authorization header must be "Bearer <token>"');
  if (!tokensEqual(match[1], adminToken)) throw new HttpError(401, 'auth/bad-token', 'the admin token is wrong');
}

/** Whether the request carries the admin token, for routes open without it. */
export function isAdminToken(request: FastifyRequest, adminToken: string): boolean {
  try {
    checkAuth(request, adminToken);
    return true;
  } catch {
    return false;
  }
}
