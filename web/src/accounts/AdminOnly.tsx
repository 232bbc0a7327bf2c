import { ApiError, token } from '../api.js';
import { useWho } from '../session.js';
import { Problems } from '../components/Problems.js';

/** Whether the page acts as an admin: the admin token, or a signed-in admin (navigation shows admin pages only then). */
export function useIsAdmin(): boolean {
  const who = useWho();
  return token() !== null || who?.role === 'admin';
}

/** The API's refusal of an admin page, said plainly: a role too low (403), or nobody signed in (401). */
export function Refused({ error, what }: { error: unknown; what: string }) {
  const title = error instanceof ApiError && error.status === 403 ? `${what} is for admins` : error instanceof ApiError && error.status === 401 ? `Sign in to see ${what.toLowerCase()}` : `Cannot read ${what.toLowerCase()}`;
  // The refusal's message names the role needed and held; its other details are for programs.
  const hint = error instanceof ApiError && error.details && typeof error.details === 'object' ? (error.details as { hint?: unknown }).hint : undefined;
  const shown = error instanceof ApiError ? new ApiError(error.status, error.code, error.message, typeof hint === 'string' ? { hint } : undefined) : error;
  return <Problems error={shown} title={title} />;
}
