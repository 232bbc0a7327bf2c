/**
 * The Hearth HTTP application: error shape, limits, auth, the OpenAPI document and the routes.
 * `buildApp` wires an open database into a Fastify instance without listening, so tests can use
 * `inject` and `start.ts` can listen.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyError, type FastifyReply } from 'fastify';
import { schemaCompilers } from './schema-compilers.js';
import type { Database, Presence } from '../store/index.js';
import { conflictFrom } from '../store/index.js';
import { guardRoutes, OPEN, PUBLIC_READ, type RouteRule } from './access.js';
import { HttpError, storageFailure } from './errors.js';
import { ApiCatalog } from './openapi.js';
import { answer, errors, listOf } from './routes/answers.js';
import { hearthVersion } from '../package/build/manifest.js';
import { packageRoot } from '../package/root.js';
import { GraphAnswers } from './domain/graph-answers.js';
import { PluginFiles } from './domain/plugin-files.js';
import { pageLists } from './paging.js';
import { StartupGate } from './startup.js';
import { webAssetRoutes } from './web-assets.js';
import { httpCaching } from './http-cache.js';
import { refuseBadCharacters } from './characters.js';
import { guardHosts } from './hosts.js';
import { readiness } from './readiness.js';
import { openStackRoutes } from './routes/openstack.js';
import { Identity, type IdentityOptions } from './identity.js';
import { accountRoutes } from './routes/accounts.js';
import { auditChanges } from './audit.js';
import { auditRoutes } from './routes/audit.js';

/**
 * Nodes one environment may hold unless the operator says otherwise: a graph answer grows with the
 * nodes (about 5 KB each), and Fuel's largest clouds were about this size.
 */
export const DEFAULT_MAX_ENVIRONMENT_NODES = 1000;
import { loggerOptions, requestId, requestIdHeaders, type LogOptions } from './log.js';
import { releaseRoutes } from './routes/releases.js';
import { customRoleRoutes } from './routes/custom-roles.js';
import { pluginRoutes } from './routes/plugins.js';
import { clusterRoutes } from './routes/clusters.js';
import { nodeRoutes } from './routes/nodes.js';
import { diskRoutes } from './routes/disks.js';
import { deploymentRoutes } from './routes/deployments.js';
import { nodeRemovalRoutes } from './routes/node-removal.js';
import { templateRoutes } from './routes/templates.js';
import { realNodeRoutes } from './routes/real-nodes.js';
import { repositoryRoutes } from './routes/repositories.js';
import type { SshTransport } from '../deploy/ssh.js';
import type { DeployOptions } from './domain/runs/deploy.js';

export interface AppOptions {
  db: Database;
  /** The admin token; with `startup`, the one it settles instead. */
  adminToken?: string;
  /**
   * Start-up work still under way (start.ts listens first): requests wait for it, the probes
   * excepted (startup.ts). It settles the admin token and Hearth's SSH identity.
   */
  startup?: Promise<StartupSettled>;
  /** Require the token for reads too. */
  protectReads?: boolean;
  /**
   * GET /api/v1/releases's answer (JSON text) to give while the start-up work is under way: the one
   * the last clean stop left (store/answer-snapshot.ts says when it holds). Only while reads are
   * public, and only to a request without credentials, which the access check could refuse.
   */
  releasesBeforeStart?: string;
  /** Sessions' lifetimes, the sign-in slow-down and the clock (identity.ts). */
  identity?: IdentityOptions;
  /** The names requests may call the server by beside its own (`--allowed-hosts`; hosts.ts). */
  allowedHosts?: readonly string[];
  /** HEARTH_PUBLIC_URL: its host is always allowed (hosts.ts). */
  publicUrl?: string;
  /** JSON request bodies (bytes). */
  bodyLimit?: number;
  /** Uploaded plugin packages (bytes). */
  packageLimit?: number;
  /** The built web UI to serve at `/`, when present. */
  webDist?: string;
  version?: string;
  /** The server's log: off (tests), or a level and format (see log.ts). */
  logger?: boolean | LogOptions;
  deploy?: DeployOptions;
  /** The one folder on the server whose template files the API may read (`--templates-dir`). */
  templatesDir?: string;
  /** At most this many nodes in one environment (default 1,000). */
  maxEnvironmentNodes?: number;
  /** Where this server unpacks the packages of plugins installed from one (start.ts: `<data folder>/plugin-files`). */
  pluginFilesDir?: string;
  /** Hearth's SSH identity and transport, for real nodes (start.ts settles them). */
  ssh?: AppContext['ssh'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its access rule, as the router holds them (tests walk it). */
    routeRules: RouteRule[];
  }
}

/** What start-up work settles that the app needs (start.ts). */
export interface StartupSettled {
  adminToken: string;
  ssh?: AppContext['ssh'];
}

export interface AppContext {
  db: Database;
  presence: Presence;
  version: string;
  packageLimit: number;
  deploy: DeployOptions;
  templatesDir?: string;
  /** `publicUrl`: where nodes reach this server (plugin repositories), once it listens. */
  ssh?: { keyFile: string; publicKey: string; fingerprint: string; transport: SshTransport; publicUrl?: string };
  /** Graph answers cached per environment state (domain/graph-answers.ts). */
  graphs: GraphAnswers;
  /** At most this many nodes in one environment (`--max-environment-nodes`). */
  maxEnvironmentNodes: number;
  /** Plugins' files on this server: folders, and packages kept in the database (domain/plugin-files.ts). */
  pluginFiles: PluginFiles;
  /** Users, personal tokens and sessions (identity.ts). */
  identity: Identity;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const version = options.version ?? hearthVersion();
  const app = Fastify({
    logger: typeof options.logger === 'object' ? loggerOptions(options.logger) : (options.logger ?? false),
    genReqId: requestId,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // Ids and names are short; a huge URL is a mistake or an attack.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
    // Validators compiled lazily, answers as plain JSON (schema-compilers.ts says why).
    schemaController: { compilersFactory: schemaCompilers() },
    // Errors Fastify meets before routing (a path that is not valid percent-encoding) get the one
    // error shape too, not Fastify's own.
    frameworkErrors: (error, _request, reply) => {
      const badUrl = error.code === 'FST_ERR_BAD_URL';
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as FastifyReply).status(status).send({
        code: badUrl ? 'request/bad-url' : status === 414 ? 'request/uri-too-long' : 'request/invalid',
        message: badUrl ? 'the path is not valid percent-encoding' : error.message,
        details: { hint: badUrl ? 'escape "%" as %25 and use %XX with two hexadecimal digits' : 'the API reference is at /docs' },
      });
    },
  });
  // Response schemas document answers (OpenAPI, the clients' generated types); they are not a
  // filter: a schema-driven serializer would silently drop a field the schema lacks. Answers go
  // out as plain JSON; test/server/api-contract.test.ts holds them to their schemas.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  if (!options.startup && options.adminToken === undefined) throw new Error('buildApp needs an admin token, or start-up work that settles one');
  let adminToken = options.adminToken ?? '';
  // The presence is set when start-up is done; no request gets past the gate before.
  const ctx: AppContext = { db: options.db, presence: { id: 0, alive: async () => true }, version, packageLimit: options.packageLimit ?? 64 * 1024 * 1024, deploy: options.deploy ?? {}, graphs: new GraphAnswers(), pluginFiles: new PluginFiles(options.pluginFilesDir), identity: new Identity(options.db, options.identity), maxEnvironmentNodes: options.maxEnvironmentNodes ?? DEFAULT_MAX_ENVIRONMENT_NODES, ...(options.templatesDir ? { templatesDir: options.templatesDir } : {}), ...(options.ssh ? { ssh: options.ssh } : {}) };
  const startup = new StartupGate(
    (async () => {
      const settled = await options.startup;
      if (settled) {
        adminToken = settled.adminToken;
        if (settled.ssh) ctx.ssh = settled.ssh;
      }
      ctx.presence = await options.db.presence();
    })(),
  );
  // Every answer names its request, so a user can quote it and an operator find it in the log.
  app.addHook('onSend', async (request, reply) => {
    reply.headers(requestIdHeaders(request.id));
  });
  // Every change and every refusal of one, into the audit log (audit.ts); it reads answers before compression.
  auditChanges(app, options.db);
  // ETags, 304s and compression for every answer (http-cache.ts).
  httpCaching(app);
  // Before anything else: a name the server does not go by (DNS rebinding) learns nothing (hosts.ts).
  guardHosts(app, { ...(options.allowedHosts ? { allowed: options.allowedHosts } : {}), publicUrl: () => options.publicUrl ?? ctx.ssh?.publicUrl });
  // Before the access check, which needs the settled admin token.
  const early = options.releasesBeforeStart;
  startup.guard(
    app,
    { engine: options.db.engine },
    early === undefined || options.protectReads ? undefined : (request) => (request.method === 'GET' && request.url === '/api/v1/releases' && request.headers.authorization === undefined && request.headers.cookie === undefined ? early : undefined),
  );
  // Before the catalog's hook, so the OpenAPI document sees each route's rule.
  const routeRules = guardRoutes(app, { adminToken: () => adminToken, protectReads: options.protectReads ?? false, identity: ctx.identity });
  app.decorate('routeRules', routeRules);
  // NUL bytes and lone surrogates in params, queries and bodies: 400, for every route (characters.ts).
  refuseBadCharacters(app);
  pageLists(app);
  const catalog = new ApiCatalog({ protectReads: options.protectReads ?? false });
  app.addHook('onRoute', catalog.collect);

  app.setErrorHandler((err: FastifyError | HttpError | Error, request, reply) => {
    if (err instanceof HttpError) return reply.status(err.status).send(err.toBody());
    // A write that lost a race with another request or server (store/conflicts.ts): 409, not a bug.
    const conflict = conflictFrom(err);
    if (conflict) return reply.status(409).send({ code: conflict.code, message: conflict.message, details: { hint: conflict.hint } });
    const storage = storageFailure(err);
    if (storage) {
      request.log.error({ err }, storage.message);
      return reply.status(storage.status).send({ ...storage.toBody(), details: { ...(storage.details as object), request_id: request.id } });
    }
    const e = err as FastifyError;
    if (e.validation) {
      return reply.status(400).send({ code: 'request/invalid', message: `${e.validationContext ?? 'request'} ${e.validation[0]?.instancePath ?? ''} ${e.validation[0]?.message ?? 'is invalid'}`.replace(/\s+/g, ' ').trim(), details: { errors: e.validation } });
    }
    const byFastifyCode: Record<string, [number, string]> = {
      FST_ERR_CTP_BODY_TOO_LARGE: [413, 'request/too-large'],
      FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'request/unsupported-media-type'],
      FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'request/bad-content-length'],
      FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'request/empty-body'],
      FST_ERR_CTP_INVALID_JSON_BODY: [400, 'request/bad-json'],
    };
    const known = e.code ? byFastifyCode[e.code] : undefined;
    if (known) return reply.status(known[0]).send({ code: known[1], message: e.message });
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.status(e.statusCode).send({ code: e.statusCode === 400 && e instanceof SyntaxError ? 'request/bad-json' : `request/${e.code ?? 'invalid'}`.toLowerCase(), message: e.message });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({
      code: 'server/internal',
      message: `Hearth failed to handle this request; this is a bug, and the server log has the details under request id ${request.id}`,
      details: { request_id: request.id },
    });
  });
  const webIndex = options.webDist && existsSync(join(options.webDist, 'index.html')) ? options.webDist : undefined;
  app.setNotFoundHandler((request, reply) => {
    // The web UI routes in the browser: its deep links get its page, not a 404.
    if (webIndex && request.method === 'GET' && !request.url.startsWith('/api/') && (request.headers.accept ?? '').includes('text/html')) {
      return reply.type('text/html; charset=utf-8').send(readFileSync(join(webIndex, 'index.html')));
    }
    reply.status(404).send({ code: 'request/no-such-route', message: `no ${request.method} ${request.url.split('?')[0]} here`, details: { hint: 'the API reference is at /docs' } });
  });

  // Packages arrive as raw bytes; everything else is JSON.
  app.addContentTypeParser(['application/octet-stream', 'application/gzip', 'application/x-gzip', 'application/x-tar', 'application/x-rpm', 'application/x-redhat-package-manager'], { parseAs: 'buffer', bodyLimit: ctx.packageLimit }, (_req, body, done) => done(null, body));


  app.get('/api/v1/openapi.json', { config: OPEN, schema: { hide: true } }, async () => catalog.document(version));
  // Probes for load balancers, systemd and Kubernetes: never behind the token, never logged as noise.
  const probe = { tags: ['server'], response: { 200: answer('the process answers', { type: 'object', required: ['status'], additionalProperties: false, properties: { status: { const: 'ok' } } }) } };
  app.get('/healthz', { config: OPEN, logLevel: 'warn', schema: { summary: 'Liveness probe: the process answers (no token needed)', ...probe } }, async () => ({ status: 'ok' }));
  const ready = { type: 'object', required: ['status', 'engine', 'schema'], additionalProperties: false, properties: { status: { const: 'ready' }, engine: { type: 'string', enum: ['pglite', 'postgres'] }, schema: { type: 'integer' } } };
  app.get('/readyz', { config: OPEN, logLevel: 'warn', schema: { summary: 'Readiness probe: the database answers and its schema is current (503 when not)', tags: ['server'], response: { 200: answer('ready to serve', ready), ...errors(503) } } }, async (request, reply) => {
    const state = await readiness(options.db);
    if (state.ok) return { status: 'ready', engine: options.db.engine, schema: state.schema };
    if (state.cause) request.log.warn({ err: state.cause }, 'readiness check: the database does not answer');
    return reply.status(503).send(state.error);
  });
  // The plugin files' JSON Schemas, for editors (`# yaml-language-server: $schema=…`) and tools.
  const schemasDir = join(packageRoot(), 'schemas');
  const schemaNames = existsSync(schemasDir) ? readdirSync(schemasDir).filter((f) => /^[a-z0-9.-]+\.json$/.test(f)).sort() : [];
  const schemaList = listOf({ type: 'object', required: ['name', 'url'], additionalProperties: false, properties: { name: { type: 'string' }, url: { type: 'string' } } });
  app.get('/schemas', { config: OPEN, schema: { summary: 'The plugin files\' JSON Schemas, for editors', tags: ['server'], response: { 200: answer('the schemas served', schemaList) } } }, async () => schemaNames.map((name) => ({ name, url: `/schemas/${name}` })));
  app.get<{ Params: { file: string } }>('/schemas/:file', { config: OPEN, schema: { summary: 'One plugin file JSON Schema', tags: ['server'], params: { type: 'object', required: ['file'], properties: { file: { type: 'string', maxLength: 200 } } }, response: { 200: answer('a JSON Schema (draft-07)', { type: 'object', additionalProperties: true }, 'application/schema+json'), ...errors(404) } } }, async (req, reply) => {
    // Only the names listed at start: a request can never name another file.
    if (!schemaNames.includes(req.params.file)) throw new HttpError(404, 'schema/not-found', `there is no schema '${req.params.file}'`, { hint: 'GET /schemas lists them' });
    return reply.type('application/schema+json; charset=utf-8').send(readFileSync(join(schemasDir, req.params.file)));
  });
  app.get('/docs', { config: OPEN }, async (_req, reply) => reply.type('text/html; charset=utf-8').send(catalog.page(version)));
  const versionShape = { type: 'object', required: ['version', 'engine'], additionalProperties: false, properties: { version: { type: 'string' }, engine: { type: 'string', enum: ['pglite', 'postgres'] } } };
  app.get('/api/v1/version', { config: PUBLIC_READ, schema: { summary: 'Server version and storage engine', tags: ['server'], response: { 200: answer('Hearth\'s version and the database engine', versionShape) } } }, async () => ({ version, engine: options.db.engine }));
  // The web UI checks a token when it is entered: any answer but 401 means it is the admin token.
  app.get('/api/v1/token', { schema: { summary: 'Check the admin token (200 with it, 401 without)', tags: ['server'], response: { 200: answer('the token is the admin token', { type: 'object', required: ['admin'], additionalProperties: false, properties: { admin: { const: true } } }), ...errors(401) } } }, async () => ({ admin: true }));

  await app.register(async (api) => {
    releaseRoutes(api, ctx);
    customRoleRoutes(api, ctx);
    pluginRoutes(api, ctx);
    clusterRoutes(api, ctx);
    nodeRoutes(api, ctx);
    diskRoutes(api, ctx);
    deploymentRoutes(api, ctx);
    nodeRemovalRoutes(api, ctx);
    templateRoutes(api, ctx);
    realNodeRoutes(api, ctx);
    accountRoutes(api, ctx);
    auditRoutes(api, ctx);
  }, { prefix: '/api/v1' });
  repositoryRoutes(app, ctx);

  const page = webIndex
    ? webAssetRoutes(app, webIndex)
    : async (_req: unknown, reply: FastifyReply) =>
        reply.type('text/html; charset=utf-8').send('<!doctype html><title>Hearth</title><h1>Hearth</h1><p>The web UI is not built here. The API reference is at <a href="/docs">/docs</a>.</p>');
  // /healthcheck and version discovery at / and /api, as OpenStack services answer them.
  openStackRoutes(app, { db: options.db, startup: () => startup.status, publicUrl: () => options.publicUrl ?? ctx.ssh?.publicUrl, page });
  // Without start-up work (tests building the app directly) the app is ready when built, as before.
  if (!options.startup) await startup.ready();
  return app;
}
