/**
 * Template capabilities as a service (Heat's "moving the logic server-side and allowing non-Python
 * clients access"): find, capabilities (summary), resolve. The client sends the files' contents,
 * as Heat's own API takes them; the answers are the CLI's `--json`. They read nothing of the
 * database, so they are public reads (the token is needed only under --protect-reads).
 *
 * Paths on the server's disk are read only under the folder the operator named with
 * `--templates-dir`, never elsewhere: otherwise anyone could learn which files exist on the server
 * and read YAML values out of them.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app.js';
import { PUBLIC_READ } from '../access.js';
import { HttpError } from '../errors.js';
import { askTemplates, type SentBody } from '../domain/template-queries.js';
import { answer, errors, listOf } from './answers.js';
import { FINDING } from './shapes.js';

const LISTS = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } as const;
const FOUND = { type: 'object', required: ['templates', 'findings'], additionalProperties: false, properties: { templates: { type: 'array', items: { type: 'string' } }, findings: listOf(FINDING) } } as const;
const CAPABILITIES = {
  type: 'object',
  required: ['tags', 'types', 'findings'],
  additionalProperties: false,
  properties: {
    tags: { ...LISTS, description: 'every capability key but resource_type: its values' },
    types: { ...LISTS, description: 'every resource type declared: the templates that declare it' },
    requires: { ...LISTS, description: 'with environments: each requires key they ask for, with its values' },
    lists: { ...LISTS, description: 'with environments: each type they map to a list of candidates' },
    findings: listOf(FINDING),
  },
} as const;
const RESOLVED = {
  type: 'object',
  required: ['resolved', 'resources', 'errors', 'findings'],
  additionalProperties: false,
  properties: {
    resolved: { type: 'object', description: 'resource type → the template chosen', additionalProperties: { type: 'string' } },
    resources: { type: 'object', description: 'per-resource overrides: resource → type → template', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } },
    errors: { type: 'array', items: { type: 'object', additionalProperties: true } },
    findings: listOf(FINDING),
  },
} as const;

const PATH = { type: 'string', minLength: 1, maxLength: 4096 } as const;
const PATHS = { type: 'array', minItems: 1, maxItems: 200, items: PATH } as const;
/** `{"<path>": "<YAML text>"}`; paths and sizes are checked in SentTemplates. */
const FILES = { type: 'object', additionalProperties: { type: 'string' } } as const;
/** With the admin token: a whole TripleO tree is ~12 MB of YAML. */
const TEMPLATE_BODY_LIMIT = 32 * 1024 * 1024;
/**
 * Without it (the routes are open to anyone): the Heat corpus's whole wallaby tree, 314 files,
 * is 1.3 MB as JSON; a client that sends more names the part of the tree the question needs.
 */
export const OPEN_TEMPLATE_BODY_LIMIT = 2 * 1024 * 1024;

const tooLargeOpen = (): HttpError =>
  new HttpError(413, 'request/too-large', `a template request without the admin token may carry at most ${OPEN_TEMPLATE_BODY_LIMIT / (1024 * 1024)} MiB`, {
    hint: 'send the part of the tree the question needs, or send the admin token (up to 32 MiB)',
  });

/**
 * The open body limit, applied before the body is read: by its declared length, and by counting
 * what arrives (a chunked body declares none).
 */
async function openBodyLimit(request: FastifyRequest, _reply: FastifyReply, payload: Readable): Promise<Readable> {
  if (request.withAdminToken) return payload;
  if (Number(request.headers['content-length']) > OPEN_TEMPLATE_BODY_LIMIT) throw tooLargeOpen();
  let seen = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > OPEN_TEMPLATE_BODY_LIMIT) done(tooLargeOpen());
      else done(null, chunk);
    },
  });
  pipeline(payload, counted, () => {});
  return counted;
}

function sentFrom(body: { files?: Record<string, string>; root?: string }): SentBody | undefined {
  return body.files ? { files: body.files, ...(body.root === undefined ? {} : { root: body.root }) } : undefined;
}

/**
 * Paths on the server's disk, each inside the operator's templates folder (after links are
 * followed); relative paths are taken from that folder.
 */
function onServerDisk(templatesDir: string | undefined, paths: readonly string[]): string[] {
  if (!templatesDir) {
    throw new HttpError(400, 'template/send-files', 'this server reads no template files of its own; send their contents', {
      hint: 'send {"files": {"<path>": "<YAML text>", …}}; an operator can offer a folder on the server with `hearth serve --templates-dir DIR`',
    });
  }
  const base = realpathSync(templatesDir);
  return paths.map((p) => {
    const wanted = resolvePath(base, p);
    let real: string;
    try {
      real = realpathSync(wanted);
    } catch {
      real = wanted; // a missing file is reported by the reader, as a finding
    }
    const inside = relative(base, real);
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      throw new HttpError(400, 'template/outside-templates-dir', `'${p}' is outside the server's templates folder`, { hint: 'name files inside the folder given to --templates-dir, or send their contents' });
    }
    return wanted;
  });
}

/** The answer's JSON text, built in the worker, sent as it is. */
const sendJson = (reply: FastifyReply, text: string): FastifyReply => reply.type('application/json; charset=utf-8').send(text);

export function templateRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.post<{ Body: { files?: Record<string, string>; root?: string; constraints?: Record<string, unknown>; paths?: string[]; requirements?: Record<string, unknown>; recursive?: boolean } }>(
    '/templates/find',
    {
      config: PUBLIC_READ,
      bodyLimit: TEMPLATE_BODY_LIMIT,
      preParsing: openBodyLimit,
      schema: {
        summary: 'Templates whose capabilities meet the constraints (send the files; or paths under --templates-dir)',
        tags: ['templates'],
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { files: FILES, root: PATH, constraints: { type: 'object', maxProperties: 100, additionalProperties: true }, paths: PATHS, requirements: { type: 'object', maxProperties: 100, additionalProperties: true }, recursive: { type: 'boolean' } },
        },
        response: { 200: answer('the templates that meet the constraints', FOUND), ...errors(400, 413, 503) },
      },
    },
    async (req, reply) => {
      const constraints = (req.body.constraints ?? req.body.requirements ?? {}) as never;
      const sent = sentFrom(req.body);
      if (sent) return sendJson(reply, await askTemplates({ op: 'find', sent, paths: [], constraints, ...(req.body.recursive === undefined ? {} : { recursive: req.body.recursive }) }));
      if (!req.body.paths) throw new HttpError(400, 'template/nothing-to-read', 'send "files" (or "paths" under the server\'s templates folder)');
      const paths = onServerDisk(ctx.templatesDir, req.body.paths);
      return sendJson(reply, await askTemplates({ op: 'find', paths, constraints, recursive: req.body.recursive ?? false, shownFrom: realpathSync(ctx.templatesDir as string) }));
    },
  );

  api.post<{ Body: { files?: Record<string, string>; root?: string; paths?: string[]; environments?: string[] } }>(
    '/templates/capabilities',
    {
      config: PUBLIC_READ,
      bodyLimit: TEMPLATE_BODY_LIMIT,
      preParsing: openBodyLimit,
      schema: {
        summary: 'The capability tags and types the templates declare (send the files; or paths under --templates-dir)',
        tags: ['templates'],
        body: { type: 'object', additionalProperties: false, properties: { files: FILES, root: PATH, paths: PATHS, environments: PATHS } },
        response: { 200: answer('the capability summary', CAPABILITIES), ...errors(400, 413, 503) },
      },
    },
    async (req, reply) => {
      const environments = req.body.environments ?? [];
      const sent = sentFrom(req.body);
      if (sent) return sendJson(reply, await askTemplates({ op: 'capabilities', sent, paths: req.body.paths ?? [], environments }));
      if (!req.body.paths && !environments.length) throw new HttpError(400, 'template/nothing-to-read', 'send "files" (or "paths" under the server\'s templates folder)');
      return sendJson(reply, await askTemplates({ op: 'capabilities', paths: onServerDisk(ctx.templatesDir, req.body.paths ?? []), environments: onServerDisk(ctx.templatesDir, environments) }));
    },
  );

  api.post<{ Body: { files?: Record<string, string>; environment?: string; environments?: string[]; root?: string } }>(
    '/templates/resolve',
    {
      config: PUBLIC_READ,
      bodyLimit: TEMPLATE_BODY_LIMIT,
      preParsing: openBodyLimit,
      schema: {
        summary: 'Resolve environment files into the chosen template per resource type (send the files; or paths under --templates-dir)',
        tags: ['templates'],
        body: { type: 'object', additionalProperties: false, properties: { files: FILES, environment: PATH, environments: PATHS, root: PATH } },
        response: { 200: answer('the template chosen per resource type', RESOLVED), ...errors(400, 413, 503) },
      },
    },
    async (req, reply) => {
      const environments = [...(req.body.environment ? [req.body.environment] : []), ...(req.body.environments ?? [])];
      if (!environments.length) throw new HttpError(400, 'template/no-environment', 'name the environment file to resolve ("environment", and any more in "environments")');
      const sent = sentFrom(req.body);
      if (sent) return sendJson(reply, await askTemplates({ op: 'resolve', sent, environments }));
      const dir = ctx.templatesDir;
      const located = onServerDisk(dir, environments);
      const root = req.body.root === undefined ? (dir as string) : onServerDisk(dir, [req.body.root])[0];
      return sendJson(reply, await askTemplates({ op: 'resolve', environments: located, root, cwd: join(dir as string) }));
    },
  );
}
