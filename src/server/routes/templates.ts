/**
 * Template capabilities over template trees on the server's disk: find, capabilities (summary),
 * resolve. They read files, so like every POST they need the admin token.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { HttpError } from '../errors.js';
import { findTemplates, resolveEnvironments, summariseTemplateFiles } from '../../package/templates/index.js';

const PATHS = { type: 'array', minItems: 1, maxItems: 200, items: { type: 'string', minLength: 1, maxLength: 4096 } } as const;

function absolute(paths: string[]): void {
  const relative = paths.filter((p) => !p.startsWith('/'));
  if (relative.length) throw new HttpError(400, 'template/relative-path', `give absolute paths on the server: ${relative.slice(0, 3).join(', ')}`);
}

export function templateRoutes(api: FastifyInstance, _ctx: AppContext): void {
  api.post<{ Body: { paths: string[]; requirements: Record<string, unknown>; recursive?: boolean } }>(
    '/templates/find',
    {
      schema: {
        summary: 'Templates whose capabilities meet the requirements',
        tags: ['templates'],
        body: { type: 'object', required: ['paths', 'requirements'], additionalProperties: false, properties: { paths: PATHS, requirements: { type: 'object', maxProperties: 100 }, recursive: { type: 'boolean' } } },
      },
    },
    async (req) => {
      absolute(req.body.paths);
      return findTemplates(req.body.paths, req.body.requirements as never, { recursive: req.body.recursive ?? false });
    },
  );

  api.post<{ Body: { paths: string[] } }>(
    '/templates/capabilities',
    { schema: { summary: 'The capability tags and types the templates declare', tags: ['templates'], body: { type: 'object', required: ['paths'], additionalProperties: false, properties: { paths: PATHS } } } },
    async (req) => {
      absolute(req.body.paths);
      return summariseTemplateFiles(req.body.paths);
    },
  );

  api.post<{ Body: { environments: string[]; root?: string } }>(
    '/templates/resolve',
    {
      schema: {
        summary: 'Resolve environment files into the chosen template per resource type',
        tags: ['templates'],
        body: { type: 'object', required: ['environments'], additionalProperties: false, properties: { environments: PATHS, root: { type: 'string', maxLength: 4096 } } },
      },
    },
    async (req) => {
      absolute(req.body.environments);
      return resolveEnvironments(req.body.environments, { ...(req.body.root ? { root: req.body.root } : {}), cwd: '/' });
    },
  );
}
