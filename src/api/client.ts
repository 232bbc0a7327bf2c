/**
 * Typed calls to the REST API, for its two clients (the web UI and the CLI): a request is named by
 * the method and the path as the OpenAPI document writes it (`'get', '/clusters/{id}'`), and its
 * parameters, query, body and answer take their types from schema.ts, which is generated from that
 * document. Each client brings its own transport (token, errors, fetch); this part only builds the
 * URL and carries the types.
 */
import type { components, paths } from './schema.js';

export type Schemas = components['schemas'];
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The API's paths, without the `/api/v1` prefix. */
export type ApiPath = keyof paths extends infer K ? (K extends `/api/v1${infer Rest}` ? Rest : never) : never;

type OperationOf<P extends ApiPath, M extends Method> = paths[`/api/v1${P}`][M];

/** The paths that answer a method. */
export type PathsFor<M extends Method> = { [P in ApiPath]: OperationOf<P, M> extends { responses: unknown } ? P : never }[ApiPath];

type Success = 200 | 201 | 202 | 204;
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** What a successful answer holds (`undefined` for 204). */
export type AnswerOf<P extends ApiPath, M extends Method> = OperationOf<P, M> extends { responses: infer R } ? { [S in keyof R & Success]: JsonBody<R[S]> }[keyof R & Success] : never;

type PathParams<O> = O extends { parameters: { path: infer X } } ? X : undefined;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [never | undefined] ? never : NonNullable<Q>) : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The parts of one request: path parameters when the path has some, the query and body it accepts. */
export type RequestOf<P extends ApiPath, M extends Method> = (PathParams<OperationOf<P, M>> extends undefined ? { params?: undefined } : { params: PathParams<OperationOf<P, M>> }) &
  ([QueryOf<OperationOf<P, M>>] extends [never] ? { query?: undefined } : { query?: QueryOf<OperationOf<P, M>> }) &
  ([BodyOf<OperationOf<P, M>>] extends [never] ? { body?: undefined } : { body?: BodyOf<OperationOf<P, M>> });

/** The arguments after the path: optional when nothing is required. */
export type RequestArgs<P extends ApiPath, M extends Method> = PathParams<OperationOf<P, M>> extends undefined ? [request?: RequestOf<P, M>] : [request: RequestOf<P, M>];

export class ApiPathError extends Error {}

/**
 * `/api/v1<path>` with each `{name}` filled from `params`, each value encoded as one segment (a
 * plugin version like `0/../../clusters/2` must never name another resource), and the query.
 */
export function apiUrl(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
  const filled = path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new ApiPathError(`no value for {${name}} in ${path}`);
    const text = String(value);
    // Encoded, "." and ".." stay as they are, and fetch would resolve them to another resource.
    if (text === '.' || text === '..') throw new ApiPathError(`refusing to send ${path} with {${name}} = "${text}"`);
    return encodeURIComponent(text);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) search.set(key, Array.isArray(value) ? value.join(',') : String(value));
  const qs = search.toString();
  return `/api/v1${filled}${qs ? `?${qs}` : ''}`;
}

/** How a client sends one request: the method, the full URL path and the JSON body, if any. */
export type Transport = (method: Uppercase<Method>, url: string, body?: unknown) => Promise<unknown>;

/** A typed caller over a client's transport: `call('get', '/clusters/{id}', { params: { id } })`. */
export function typedCaller(send: Transport) {
  return function call<M extends Method, P extends PathsFor<M>>(method: M, path: P, ...[request]: RequestArgs<P, M>): Promise<AnswerOf<P, M>> {
    const r = (request ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    return send(method.toUpperCase() as Uppercase<M>, apiUrl(path, r.params, r.query), r.body) as Promise<AnswerOf<P, M>>;
  };
}
