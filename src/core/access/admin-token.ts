/**
 * What an admin token must be, wherever it comes from: HEARTH_ADMIN_TOKEN, the token stored in the
 * database at a start, or an imported export (issue 24, item 17: a one-character token came in
 * through `hearth db import` and was accepted, and guessed in a few requests).
 */

export const MIN_TOKEN_LENGTH = 16;
/** Longer than any token Hearth makes or an operator should choose; longer headers are refused unread. */
export const MAX_TOKEN_LENGTH = 512;

/** Why `token` cannot be an admin token, in words; undefined when it can. */
export function adminTokenProblem(token: unknown): string | undefined {
  if (typeof token !== 'string') return `it is ${token === null ? 'null' : `a ${typeof token}`}, not text`;
  if (token.length < MIN_TOKEN_LENGTH || token.length > MAX_TOKEN_LENGTH) return `it is ${token.length} characters long, not ${MIN_TOKEN_LENGTH} to ${MAX_TOKEN_LENGTH}`;
  if (/\s/.test(token)) return 'it holds spaces or other white space';
  return undefined;
}
