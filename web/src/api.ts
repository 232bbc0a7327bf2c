/**
 * The REST API, the only thing the UI talks to. One error shape: { code, message, details }.
 * Requests are typed by the OpenAPI document (src/api/schema.ts, generated from it): `call('get',
 * '/clusters/{id}', { params: { id } })` knows the answer is a Cluster.
 */
import { typedCaller } from '../../src/api/client.js';
import { csrfToken, setSession, type Role } from './session.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'hearth.token';

export function token(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(value: string | null): void {
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

/** `hearth serve` prints a URL with `#token=…`; take it once and keep it out of the address bar. */
export function adoptTokenFromUrl(): void {
  const match = /[#&?]token=([^&]+)/.exec(window.location.hash + window.location.search);
  if (match) {
    setToken(decodeURIComponent(match[1]));
    window.history.replaceState(null, '', window.location.pathname + '#/');
  }
}

/**
 * Whether `candidate` is the admin token, asked of the server with a cheap call that needs it
 * (`GET /api/v1/token`): 'ok', 'wrong', or the error when the server cannot be asked.
 */
export async function checkToken(candidate: string): Promise<'ok' | 'wrong'> {
  const response = await fetch('/api/v1/token', { headers: { accept: 'application/json', authorization: `Bearer ${candidate}` } });
  if (response.ok) return 'ok';
  if (response.status === 401 || response.status === 400) return 'wrong';
  throw new ApiError(response.status, `http-${response.status}`, `the server answered ${response.status} when the token was checked`);
}

/** A request by its path under /api/v1, for what JSON types do not cover (a package's bytes). */
export function api<T>(method: string, path: string, body?: unknown, init: { raw?: BodyInit; contentType?: string } = {}): Promise<T> {
  return send(method, `/api/v1${path}`, body, init) as Promise<T>;
}

/** A request typed by the OpenAPI document: method, path as the document writes it, and its parts. */
export const call = typedCaller((method, url, body) => send(method, url, body));

async function send(method: string, path: string, body?: unknown, init: { raw?: BodyInit; contentType?: string } = {}): Promise<unknown> {
  // A "." or ".." segment would be resolved away by fetch, sending the request to another resource.
  if (path.split('?')[0].split('/').some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) {
    throw new ApiError(0, 'client/bad-path', `refusing to send ${method} ${path}: a path segment is "." or ".."`);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const t = token();
  if (t) headers.authorization = `Bearer ${t}`;
  // A signed-in person's change proves it comes from this page (the cookie alone would not).
  const csrf = csrfToken();
  if (!t && csrf && method.toUpperCase() !== 'GET') headers['x-csrf-token'] = csrf;
  let payload: BodyInit | undefined;
  if (init.raw !== undefined) {
    payload = init.raw;
    headers['content-type'] = init.contentType ?? 'application/octet-stream';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(path, { method, headers, body: payload });
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const err = (data ?? {}) as { code?: string; message?: string; details?: unknown };
    throw new ApiError(response.status, err.code ?? `http-${response.status}`, err.message ?? response.statusText, err.details);
  }
  return data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** Messages a person can act on, from an ApiError's details (engine findings, role problems). */
export function detailMessages(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [String((error as Error)?.message ?? error)];
  const out: string[] = [];
  const walk = (d: unknown) => {
    if (!d) return;
    if (Array.isArray(d)) d.forEach(walk);
    else if (typeof d === 'object') {
      const rec = d as Record<string, unknown>;
      if (typeof rec.message === 'string') out.push(rec.message);
      else Object.values(rec).forEach(walk);
    } else if (typeof d === 'string') out.push(d);
  };
  walk(error.details);
  return out.length ? out : [];
}

/** Signs in with name and password: the server sets the session cookie and answers the CSRF token. */
export async function signIn(name: string, password: string): Promise<void> {
  const answer = (await send('POST', '/api/v1/session', { name, password })) as { user: string; role: Role; csrf_token: string };
  setSession({ ...answer, via: 'session' });
  localStorage.setItem(SIGNED_IN_KEY, '1');
}

/**
 * Set while this browser has signed in: the session cookie is HttpOnly, so the page cannot see it,
 * and asking GET /session without one answers 401, which every browser logs as an error on the
 * console of a page nobody signed in to.
 */
const SIGNED_IN_KEY = 'hearth.signed-in';

/** Signs out: the server ends the session and clears its cookie. */
export async function signOut(): Promise<void> {
  await send('DELETE', '/api/v1/session').catch(() => undefined);
  localStorage.removeItem(SIGNED_IN_KEY);
  setSession(null);
}

/** Who the page's cookie is signed in as, asked once on load (nobody: no session, or it ended). */
export async function restoreSession(): Promise<void> {
  if (!localStorage.getItem(SIGNED_IN_KEY)) return;
  const response = await fetch('/api/v1/session', { headers: { accept: 'application/json' } });
  if (!response.ok) return localStorage.removeItem(SIGNED_IN_KEY);
  const answer = (await response.json()) as { user: string; role: Role; via: string; csrf_token?: string };
  if (answer.via === 'session') setSession(answer);
}
