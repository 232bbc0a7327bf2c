/** /plugins: install from a package, register and sync a folder, list, get, uninstall. */
import { isAbsolute } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { ADMIN, PUBLIC_READ } from '../access.js';
import { PAGED_READ, readPaged } from '../paging.js';
import { HttpError, notFound } from '../errors.js';
import * as store from '../../store/index.js';
import { contributionOf, installPackage, readPluginFolderOffThread, storePlugin, syncPlugin, uninstallPlugin } from '../domain/plugins.js';
import { installFindings, keepInstallFindings, releaseFits } from '../domain/plugin-fit.js';
import { keepReleaseChecks, releaseChecks } from '../domain/plugin-release-checks.js';
import { errorResponses, idParam } from './schemas.js';
import { answer, errors, listOf, noContent } from './answers.js';
import { PLUGIN, PLUGIN_DETAIL, PLUGIN_INSTALLED } from './shapes.js';

export function pluginSummary(p: store.PluginRecord) {
  return {
    id: p.id,
    name: p.name,
    version: p.version,
    title: p.title ?? p.name,
    description: p.description ?? null,
    package_version: p.packageVersion,
    is_release: p.isRelease,
    source: p.sourceKind,
    path: p.sourcePath ?? null,
    installed_at: p.installedAt,
    synced_at: p.syncedAt,
  };
}

function pluginDetail(p: store.PluginRecord, releases: store.ReleaseRecord[]) {
  const { contribution, findings } = contributionOf(p);
  return {
    ...pluginSummary(p),
    // The releases it extends as metadata.yaml lists them (each one's own files are composition's business).
    releases: contribution.releases.map(({ parts: _parts, ...release }) => release),
    defines_releases: releases.map((r) => r.id),
    roles: Object.entries(contribution.roles).map(([name, r]) => ({ name, label: r.name ?? name, description: r.description ?? null, conflicts: r.conflicts ?? null, limits: r.limits ?? null })),
    components: contribution.components.map((c) => ({ name: c.name, label: c.label ?? null, description: c.description ?? null })),
    tasks: Object.fromEntries(Object.entries(contribution.graphs).map(([type, g]) => [type, g.tasks.map((t) => ({ id: t.id, type: t.type, roles: t.roles ?? null }))])),
    findings,
  };
}

export function pluginRoutes(api: FastifyInstance, ctx: AppContext): void {
  // Copies of plugins uninstalled through another server sharing the database go within this
  // (HEARTH_PLUGIN_SWEEP_SECONDS; 0 turns it off). Nothing is read while nothing is unpacked here.
  const sweepEvery = Number(process.env.HEARTH_PLUGIN_SWEEP_SECONDS ?? 60) * 1000;
  if (Number.isFinite(sweepEvery) && sweepEvery > 0) {
    let timer: NodeJS.Timeout | undefined;
    let sweeping = false;
    api.addHook('onReady', async () => {
      timer = setInterval(() => {
        if (sweeping) return;
        sweeping = true;
        ctx.pluginFiles.sweep(ctx.db).catch(() => undefined).finally(() => (sweeping = false));
      }, sweepEvery);
      timer.unref();
    });
    api.addHook('onClose', async () => clearInterval(timer));
  }
  api.get<{ Querystring: { name?: string } }>(
    '/plugins',
    { config: PAGED_READ, schema: { summary: 'List installed plugins (every version)', tags: ['plugins'], querystring: { type: 'object', properties: { name: { type: 'string', maxLength: 100 } } }, response: { 200: answer('installed plugins', listOf(PLUGIN)) } } },
    async (req) => (await readPaged(req, String, (page) => store.pageOfPlugins(ctx.db, req.query.name || undefined, page))).map(pluginSummary),
  );

  api.get<{ Params: { id: string } }>('/plugins/:id', { config: PUBLIC_READ, schema: { summary: 'A plugin: roles, components, tasks, releases', tags: ['plugins'], params: idParam, response: { 200: answer('the plugin, with the releases it fits and the environments enabling it', PLUGIN_DETAIL), ...errors(404) } } }, async (req) => {
    const p = await store.getPlugin(ctx.db, req.params.id);
    if (!p) throw notFound('plugin', req.params.id);
    // For the Plugins page: which releases it fits (and why not), who enables it, its install warnings.
    return {
      ...pluginDetail(p, await store.releasesOfPlugin(ctx.db, p.id)),
      release_fits: await releaseFits(ctx.db, p),
      used_by: await store.clustersEnablingPlugin(ctx.db, p.id),
      install_findings: await installFindings(ctx.db, p.id),
      // Its validation against each installed release it declares (issue 18), computed again when a release changed since.
      release_findings: await releaseChecks(ctx.db, p.id, ctx.pluginFiles),
    };
  });

  api.post(
    '/plugins',
    {
      config: ADMIN,
      schema: { summary: 'Install a plugin package: the body is the .tar.gz built by `hearth plugin build`, or a Fuel plugin .rpm or .fp as downloaded (the format is read from the bytes)', tags: ['plugins'], consumes: ['application/octet-stream', 'application/gzip', 'application/x-rpm'], response: { 201: answer('installed, with what validation found', PLUGIN_INSTALLED), ...errors(400, 409, 413, 415) } },
    },
    async (req, reply) => {
      if (!Buffer.isBuffer(req.body)) throw new HttpError(415, 'request/unsupported-media-type', 'send the package as application/octet-stream (the .tar.gz, .rpm or .fp file itself)');
      if (req.body.length === 0) throw new HttpError(400, 'request/empty-body', 'the package is empty');
      const { plugin, findings, releaseChecks: checks } = await installPackage(ctx.db, req.body);
      await keepInstallFindings(ctx.db, plugin.id, findings);
      await keepReleaseChecks(ctx.db, plugin.id, checks);
      return reply.status(201).send({ plugin: pluginSummary(plugin), findings, release_findings: checks });
    },
  );

  api.post<{ Body: { path: string } }>(
    '/plugins/folders',
    {
      config: ADMIN,
      schema: {
        summary: 'Register a plugin folder on the server\'s disk (plugin development); sync it after editing',
        tags: ['plugins'],
        body: { type: 'object', required: ['path'], additionalProperties: false, properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } } },
        response: { 201: answer('registered, with what validation found', PLUGIN_INSTALLED), ...errors(400, 409) },
      },
    },
    async (req, reply) => {
      if (!isAbsolute(req.body.path)) throw new HttpError(400, 'plugin/relative-path', 'give the folder as an absolute path on the server');
      // Validation runs in a worker: a hostile folder must not stall every other request.
      const read = await readPluginFolderOffThread(req.body.path, ctx.db);
      const plugin = await storePlugin(ctx.db, read, { kind: 'folder', path: req.body.path });
      await keepInstallFindings(ctx.db, plugin.id, read.findings);
      await keepReleaseChecks(ctx.db, plugin.id, read.releaseChecks);
      return reply.status(201).send({ plugin: pluginSummary(plugin), findings: read.findings, release_findings: read.releaseChecks });
    },
  );

  api.post<{ Params: { id: string } }>('/plugins/:id/sync', { config: ADMIN, schema: { summary: 'Re-read a registered plugin folder', tags: ['plugins'], params: idParam, response: { 200: answer('read again, with what validation found', PLUGIN_INSTALLED), ...errors(400, 404, 409) } } }, async (req) => {
    const { plugin, findings, releaseChecks: checks } = await syncPlugin(ctx.db, req.params.id);
    await keepInstallFindings(ctx.db, plugin.id, findings);
    await keepReleaseChecks(ctx.db, plugin.id, checks);
    return { plugin: pluginSummary(plugin), findings, release_findings: checks };
  });

  api.delete<{ Params: { id: string } }>('/plugins/:id', { config: ADMIN, schema: { summary: 'Uninstall a plugin version (refused while an environment enables it)', tags: ['plugins'], params: idParam, response: { 204: noContent('uninstalled'), ...errorResponses } } }, async (req, reply) => {
    await uninstallPlugin(ctx.db, req.params.id, ctx.pluginFiles);
    return reply.status(204).send();
  });
}
