/** /releases: list, get, delete (refused while used), components, roles, graphs. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { ADMIN, PUBLIC_READ } from '../access.js';
import { HttpError } from '../errors.js';
import * as store from '../../store/index.js';
import { releaseOr404, rolesOf, wizardFor } from '../domain/environment.js';
import { componentsAnswer } from '../domain/release-answers.js';
import { errorResponses, idParam } from './schemas.js';
import { answer, errors, listOf, noContent } from './answers.js';
import { COMPONENT, FINDING, RELEASE, RELEASE_DETAIL, ROLE } from './shapes.js';

const RELEASE_GRAPH = {
  type: 'object',
  required: ['type', 'name', 'metadata', 'tasks'],
  additionalProperties: false,
  properties: { type: { type: 'string' }, name: { type: ['string', 'null'] }, metadata: { type: 'object', additionalProperties: true }, tasks: { type: 'array', description: 'the tasks as composition normalised them', items: { type: 'object', required: ['id', 'type'], additionalProperties: true, properties: { id: { type: 'string' }, type: { type: 'string' } } } } },
} as const;
const RELEASE_FINDINGS = {
  type: 'object',
  required: ['findings', 'plugins'],
  additionalProperties: false,
  properties: { findings: listOf(FINDING), plugins: { type: 'array', description: 'the plugins composed with it', items: { type: 'object', additionalProperties: true } } },
} as const;

const graphParams = { type: 'object', required: ['id', 'type'], properties: { id: idParam.properties.id, type: { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' } } } as const;

/** `added`: the names of roles added to it through the API (POST /releases/{id}/roles). */
export function releaseSummary(r: store.ReleaseRecord, added: readonly string[] = []) {
  return {
    id: r.id,
    name: r.release.name,
    version: r.release.version,
    operating_system: r.release.operating_system,
    description: r.release.description ?? null,
    state: r.release.state ?? 'available',
    plugin_id: r.pluginId ?? null,
    roles: [...Object.keys(r.release.roles_metadata ?? {}), ...added.filter((n) => !(n in (r.release.roles_metadata ?? {})))],
    graph_types: Object.keys(r.release.graphs ?? {}),
  };
}

/** GET /releases's answer; also what a server leaves for the next start to give (start.ts). */
export async function releasesAnswer(q: store.Queryable): Promise<Array<ReturnType<typeof releaseSummary>>> {
  const releases = await store.listReleases(q);
  const added = await store.releaseCustomRoleNames(q);
  return releases.map((r) => releaseSummary(r, added.get(r.id)));
}

export function releaseRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get('/releases', { config: PUBLIC_READ, schema: { summary: 'List releases', tags: ['releases'], response: { 200: answer('every release', listOf(RELEASE)) } } }, async () => releasesAnswer(ctx.db));

  api.get<{ Params: { id: string } }>('/releases/:id', { config: PUBLIC_READ, schema: { summary: 'Get a release', tags: ['releases'], params: idParam, response: { 200: answer('the release', RELEASE_DETAIL), ...errors(404) } } }, async (req) => {
    const r = await releaseOr404(ctx.db, req.params.id);
    return { ...releaseSummary(r, (await store.customRoles(ctx.db, { releaseId: r.id })).map((c) => c.name)), required_component_types: r.release.required_component_types, source: r.release.source };
  });

  api.delete<{ Params: { id: string } }>('/releases/:id', { config: ADMIN, schema: { summary: 'Delete a release (refused while environments use it)', tags: ['releases'], params: idParam, response: { 204: noContent('deleted'), ...errorResponses } } }, async (req, reply) => {
    await ctx.db.transaction(async (tx) => {
      const r = await releaseOr404(tx, req.params.id);
      const users = await store.clustersUsingRelease(tx, r.id);
      if (users.length) throw new HttpError(409, 'release/in-use', `release '${r.id}' is used by ${users.map((u) => `'${u.name}'`).join(', ')}`, { clusters: users, hint: 'delete those environments first' });
      if (r.pluginId) {
        throw new HttpError(409, 'release/from-plugin', `release '${r.id}' comes from plugin ${r.pluginId}; uninstall the plugin to remove it`, { plugin_id: r.pluginId });
      }
      await store.deleteRelease(tx, r.id);
      await store.bumpCatalogVersion(tx);
    });
    return reply.status(204).send();
  });

  api.get<{ Params: { id: string } }>('/releases/:id/components', { config: PUBLIC_READ, schema: { summary: 'Components of the release and of the installed plugins that fit it', tags: ['releases'], params: idParam, response: { 200: answer('release and plugin components; those of plugins that cannot be used with it are marked usable: false, with reasons', listOf(COMPONENT)), ...errors(404) } } }, async (req, reply) => {
    // Kept as sent, per catalog version, with its ETag (domain/release-answers.ts).
    const cached = await componentsAnswer(ctx.db, req.params.id);
    return reply.header('etag', cached.etag).type('application/json; charset=utf-8').send(cached.text);
  });

  api.get<{ Params: { id: string } }>('/releases/:id/roles', { config: PUBLIC_READ, schema: { summary: 'Roles of the release (and of plugins that fit it, marked by source)', tags: ['releases'], params: idParam, response: { 200: answer('roles, by weight', listOf(ROLE)), ...errors(404) } } }, async (req) => {
    const { composition } = await wizardFor(ctx.db, req.params.id);
    return rolesOf(composition);
  });

  api.get<{ Params: { id: string; type: string } }>('/releases/:id/graphs/:type', { config: PUBLIC_READ, schema: { summary: 'The tasks of one graph type of the release', tags: ['releases'], params: graphParams, response: { 200: answer('the graph', RELEASE_GRAPH), ...errors(404) } } }, async (req) => {
    const r = await releaseOr404(ctx.db, req.params.id);
    const graph = Object.hasOwn(r.release.graphs, req.params.type) ? r.release.graphs[req.params.type] : undefined;
    if (!graph) throw new HttpError(404, 'graph/not-found', `release '${r.id}' has no '${req.params.type}' graph`, { types: Object.keys(r.release.graphs) });
    return { type: req.params.type, name: graph.name ?? null, metadata: graph.metadata ?? {}, tasks: graph.tasks };
  });

  // Keep the component catalog compile reachable for diagnostics: problems in the release's own components.
  api.get<{ Params: { id: string } }>('/releases/:id/findings', { config: PUBLIC_READ, schema: { summary: 'What composition found about the release with the installed plugins', tags: ['releases'], params: idParam, response: { 200: answer('findings, and the plugins composed', RELEASE_FINDINGS), ...errors(404) } } }, async (req) => {
    const { composition, catalog } = await wizardFor(ctx.db, req.params.id);
    return { findings: [...composition.findings, ...catalog.findings], plugins: composition.plugins };
  });
}
