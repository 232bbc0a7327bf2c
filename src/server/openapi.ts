/**
 * The OpenAPI 3 document, generated from the routes' own JSON schemas (the same ones Fastify
 * validates with), and a small readable reference page at /docs built from it.
 */
import type { RouteOptions } from 'fastify';
import { roleNeeded, type Access } from './access.js';
import { PAGE_PARAMETERS } from './paging.js';
import { COMPONENTS } from './routes/shapes.js';

interface Operation {
  method: string;
  path: string;
  schema: Record<string, any>;
  /** Who may call it (the route's access rule, see access.ts). */
  access: Access;
  /** A list paged by `limit` and `marker` (paging.ts). */
  paged: boolean;
}

/**
 * A stable operationId from the method and path: `GET /api/v1/clusters/:id/graphs/:type` is
 * `getClustersByIdGraphsByType`. Client generators name their functions after it.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\/?/, '')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith(':') || segment.startsWith('{') ? ['by', segment.replace(/[:{}]/g, '')] : segment.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0].toUpperCase() + w.slice(1))].join('');
}

function uniqueId(taken: Set<string>, id: string): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}${n}`;
  taken.add(candidate);
  return candidate;
}

/** The document's path for a router pattern: `:id` is `{id}`, a trailing `*` is `{path}`. */
export const documentPath = (pattern: string): string => pattern.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{path}');

const componentNames = new Map<object, string>(Object.entries(COMPONENTS).map(([name, schema]) => [schema, name]));

/** A copy of a schema with every shared shape in it (by identity) replaced by a reference to its component. */
function withRefs(schema: unknown, self?: object): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withRefs(item));
  if (schema === null || typeof schema !== 'object') return schema;
  const name = schema !== self ? componentNames.get(schema) : undefined;
  if (name) return { $ref: `#/components/schemas/${name}` };
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withRefs(value)]));
}

/**
 * One documented answer. Routes write `{description, content: {<media type>: {schema}}}` (see
 * routes/answers.ts), `{description, type: 'null'}` for no body, or a bare JSON schema.
 */
function responseOf(status: string, entry: Record<string, any>): Record<string, unknown> {
  const description = entry.description ?? (status.startsWith('2') ? 'success' : 'error');
  if (entry.content) {
    return { description, content: Object.fromEntries(Object.entries(entry.content as Record<string, { schema: unknown }>).map(([media, { schema }]) => [media, { schema: withRefs(schema) }])) };
  }
  if (entry.type === 'null') return { description };
  return { description, content: { 'application/json': { schema: withRefs(entry) } } };
}

/** An answer in a few words for the /docs page: `Cluster`, `list of Node`, `no body`, or its media type. */
function shapeOf(entry: Record<string, any>): string {
  if (entry.type === 'null') return 'no body';
  const [media, content] = Object.entries((entry.content ?? { 'application/json': { schema: entry } }) as Record<string, { schema?: any }>)[0] ?? [];
  const schema = content?.schema;
  const name = schema && componentNames.get(schema);
  if (name) return name;
  const items = schema?.type === 'array' && componentNames.get(schema.items);
  return items ? `list of ${items}` : (media ?? 'JSON');
}

export class ApiCatalog {
  private readonly operations: Operation[] = [];

  /** `protectReads`: the server runs with `--protect-reads`, so its public reads need the token too. */
  constructor(private readonly options: { protectReads?: boolean } = {}) {}

  /**
   * Whether this server asks the route for the token: the same decision access.ts makes on each
   * request (admin always, read under --protect-reads, open never), so the document cannot promise
   * a client more or less than the server does.
   */
  private needsToken(op: Operation): boolean {
    return roleNeeded(op.access, this.options.protectReads === true) !== undefined;
  }

  /** Fastify `onRoute` hook: remember every route with a schema (the API, probes, schemas, repositories). */
  collect = (route: RouteOptions): void => {
    if (!route.schema || (route.schema as Record<string, unknown>).hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      this.operations.push({ method: method.toLowerCase(), path: route.url, schema: route.schema as Record<string, any>, access: route.config?.access ?? 'admin', paged: route.config?.paged === true });
    }
  };

  document(version: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    const ids = new Set<string>();
    for (const op of this.operations) {
      const path = documentPath(op.path);
      const parameters: unknown[] = [];
      for (const [where, key] of [['path', 'params'], ['query', 'querystring']] as const) {
        const props = op.schema[key]?.properties ?? {};
        const required: string[] = op.schema[key]?.required ?? [];
        for (const [name, schema] of Object.entries(props)) {
          parameters.push({ name, in: where, required: where === 'path' || required.includes(name), schema });
        }
      }
      if (op.path.endsWith('*')) parameters.push({ name: 'path', in: 'path', required: true, schema: { type: 'string' }, description: 'a path inside the folder' });
      if (op.paged) for (const [name, schema] of Object.entries(PAGE_PARAMETERS)) parameters.push({ name, in: 'query', required: false, schema });
      const responses: Record<string, unknown> = {};
      for (const [status, entry] of Object.entries(op.schema.response ?? {})) responses[status] = responseOf(status, entry as Record<string, any>);
      // Any error: the one error shape (the statuses a route names are the ones worth knowing).
      responses.default = { description: 'an error: {code, message, details}', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
      const operation: Record<string, unknown> = {
        operationId: uniqueId(ids, (op.schema.operationId as string | undefined) ?? operationIdOf(op.method, op.path)),
        summary: op.schema.summary,
        description: op.schema.description,
        tags: op.schema.tags,
        parameters,
        responses,
        // As this server decides it (an empty list: no token needed); x-hearth-access names the rule.
        security: this.needsToken(op) ? [{ adminToken: [] }] : [],
        'x-hearth-access': op.access,
        // The role the route needs on this server (issue 29); absent when it needs none.
        ...(roleNeeded(op.access, this.options.protectReads === true) ? { 'x-hearth-role': roleNeeded(op.access, this.options.protectReads === true) } : {}),
      };
      if (op.schema.body) operation.requestBody = { required: op.schema.bodyOptional !== true, content: { 'application/json': { schema: withRefs(op.schema.body) } } };
      if (op.schema.consumes) operation.requestBody = { required: true, content: Object.fromEntries((op.schema.consumes as string[]).map((c) => [c, { schema: { type: 'string', format: 'binary' } }])) };
      (paths[path] ??= {})[op.method] = operation;
    }
    return {
      // 3.1: its schemas are JSON Schema, so the routes' own (nullable as ["string", "null"]) are valid as they are.
      openapi: '3.1.0',
      info: { title: 'Hearth API', version, description: 'Releases, plugins, environments, nodes and deployments. Errors are always {code, message, details}.' },
      servers: [{ url: '/' }],
      components: {
        schemas: Object.fromEntries(Object.entries(COMPONENTS).map(([name, schema]) => [name, withRefs(schema, schema)])),
        securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'the admin token printed by hearth serve (or HEARTH_ADMIN_TOKEN), or a personal token (hearth token create; also accepted as X-Auth-Token), or a web UI session cookie with X-CSRF-Token on changes; x-hearth-role names the role a route needs' } },
      },
      paths,
    };
  }

  /** A reference page people can read without tooling. */
  page(version: string): string {
    const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
    const byTag = new Map<string, Operation[]>();
    for (const op of this.operations) {
      const tag = (op.schema.tags as string[] | undefined)?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), op]);
    }
    const sections = [...byTag].map(([tag, ops]) => {
      const rows = ops
        .map((op) => {
          const body = op.schema.body ? `<details><summary>body</summary><pre>${esc(JSON.stringify(op.schema.body, null, 2))}</pre></details>` : '';
          const answers = Object.entries(op.schema.response ?? {})
            .filter(([status]) => /^[23]/.test(status))
            .map(([status, entry]) => `${status} ${shapeOf(entry as Record<string, any>)}`);
          return `<tr><td><code>${op.method.toUpperCase()}</code></td><td><code>${esc(documentPath(op.path))}</code></td><td>${esc(op.schema.summary)}${this.needsToken(op) ? ' <em>(admin token)</em>' : ''}${body}</td><td>${esc(answers.join('; '))}</td></tr>`;
        })
        .join('\n');
      return `<h2>${esc(tag)}</h2><table><thead><tr><th>method</th><th>path</th><th>what</th><th>answers</th></tr></thead><tbody>${rows}</tbody></table>`;
    });
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hearth API ${esc(version)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}pre{background:#f6f6f6;padding:.5rem;overflow:auto}</style></head>
<body><h1>Hearth API ${esc(version)}</h1><p>Base path <code>/api/v1</code>. The machine-readable reference is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>. Requests that change state need <code>Authorization: Bearer &lt;admin token&gt;</code>. Every error is <code>{"code", "message", "details"}</code>.</p>
${sections.join('\n')}</body></html>`;
  }
}

// The documentation keywords routes carry beside their validation schemas.
declare module 'fastify' {
  interface FastifySchema {
    summary?: string;
    description?: string;
    tags?: string[];
    hide?: boolean;
    consumes?: string[];
    /** The body may be left out (a bare POST); its schema still says what it may hold. */
    bodyOptional?: boolean;
  }
}
