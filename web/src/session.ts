/**
 * Who the UI acts as (issue 29): a person signed in with name and password (an HttpOnly session
 * cookie the page cannot read, and the CSRF token every change sends as X-CSRF-Token), or the
 * admin token of the token bar, which acts as the built-in admin. The page asks the server once on
 * load (GET /session), so a reload keeps the session without keeping anything secret itself.
 */
import { useSyncExternalStore } from 'react';

export type Role = 'viewer' | 'operator' | 'admin';
export interface Who {
  user: string;
  role: Role;
  via: string;
}

let who: Who | null = null;
let csrf: string | null = null;
const listeners = new Set<() => void>();

export function setSession(next: { user: string; role: Role; via?: string; csrf_token?: string } | null): void {
  who = next ? { user: next.user, role: next.role, via: next.via ?? 'session' } : null;
  csrf = next?.csrf_token ?? null;
  for (const l of listeners) l();
}

/** The CSRF token a cookie-authenticated change sends (none without a session). */
export const csrfToken = (): string | null => (who?.via === 'session' ? csrf : null);

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
};

export function useWho(): Who | null {
  return useSyncExternalStore(subscribe, () => who);
}

/** Whether a role may use what needs `needed`. */
export const atLeast = (role: Role | undefined, needed: Role): boolean => role !== undefined && ['viewer', 'operator', 'admin'].indexOf(role) >= ['viewer', 'operator', 'admin'].indexOf(needed);
