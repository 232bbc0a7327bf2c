/** /clusters (environments): create with components, get, list, rename, delete, settings, wizard state. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { OPERATOR, PUBLIC_READ } from '../access.js';
import { numericMarker, PAGED_READ, readPaged } from '../paging.js';
import { HttpError, errorsOf, refused } from '../errors.js';
import * as store from '../../store/index.js';
import type { Finding } from '../../core/findings.js';
import { WIZARD_PANES, type WizardPane } from '../../core/components/index.js';
import { clusterOr404, composeCluster, composeWith, startingSettingsOf, storedRelease, verdictOf, wizardFor, wizardState } from '../domain/environment.js';
import { changePlugins, pluginSections } from '../domain/cluster-plugins.js';
import { applySettingsChanges } from '../domain/settings.js';
import { resetEnvironment } from '../domain/lifecycle.js';
import { upgradeEnvironment } from '../domain/release-upgrade.js';
import { REMOVAL, deleteEnvironment } from './node-removal.js';
import { entryWrittenWith, whoAsked } from '../audit.js';
import { NAME, clusterIdParam, errorResponses, idParam } from './schemas.js';
import { answer, errors, listOf, noContent } from './answers.js';
import { CLUSTER, PLUGIN_SECTION, ROLE, SETTINGS, WIZARD_STATE } from './shapes.js';

const ATTRIBUTES = { type: 'object', required: ['editable', 'plugins'], additionalProperties: false, properties: { editable: SETTINGS, plugins: listOf(PLUGIN_SECTION) } } as const;
const STRINGS = { type: 'array', items: { type: 'string' } } as const;
const ADDED_REMOVED = { type: 'object', required: ['added', 'removed'], additionalProperties: false, properties: { added: STRINGS, removed: STRINGS } } as const;
/** What a settings change did (or, with dry_run, would do). */
const SETTINGS_CHANGE = {
  type: 'object',
  required: ['changed', 'plugins', 'dry_run', 'editable', 'plugin_sections'],
  additionalProperties: false,
  properties: {
    changed: { type: 'array', items: { type: 'string' }, description: 'the settings whose value changed (`section.field`)' },
    plugins: {
      type: ['object', 'null'],
      description: 'plugins enabled, disabled or switched (ids), and the roles, components and tasks that come and go with them',
      required: ['enable', 'disable', 'switch', 'roles', 'components', 'tasks'],
      additionalProperties: false,
      properties: {
        enable: STRINGS,
        disable: STRINGS,
        switch: { type: 'array', items: { type: 'object', required: ['name', 'from', 'to'], additionalProperties: false, properties: { name: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } } },
        roles: ADDED_REMOVED,
        components: ADDED_REMOVED,
        tasks: ADDED_REMOVED,
      },
    },
    dry_run: { type: 'boolean' },
    editable: SETTINGS,
    plugin_sections: listOf(PLUGIN_SECTION),
  },
} as const;

export function clusterSummary(c: store.ClusterRecord) {
  return {
    id: c.id,
    name: c.name,
    release_id: c.releaseId,
    components: c.components,
    status: c.status,
    plugins: c.plugins,
    deployed_at: c.deployed?.at ?? null,
    // Differs from release_id after a release upgrade until the environment is deployed again.
    deployed_release_id: c.deployed ? (c.deployed.releaseId ?? c.releaseId) : null,
    created_at: c.createdAt,
  };
}

const UNFIT = {
  type: 'object',
  required: ['kind', 'name', 'reason'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: ['plugin', 'component', 'setting', 'role', 'disk_layout', 'network'] },
    name: { type: 'string', description: 'the plugin id, component, setting (section.field), role, node (disk layout) or network' },
    reason: { type: 'string' },
    nodes: { type: 'array', items: { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: { type: 'integer' }, name: { type: 'string' } } } },
  },
} as const;
const UPGRADED = {
  type: 'object',
  required: [...CLUSTER.required, 'upgraded_from', 'dropped'],
  additionalProperties: false,
  properties: {
    ...CLUSTER.properties,
    upgraded_from: { type: 'string', description: 'the release it had before (the same as release_id when nothing changed)' },
    dropped: { type: 'array', items: UNFIT, description: 'what was left behind because it does not fit the new release (drop_unfit)' },
  },
} as const;

const selectQuery = {
  type: 'object',
  properties: {
    select: { type: 'string', maxLength: 10000 },
    // The pane the wizard shows: only its components are proved (the others come back `unchecked`).
    pane: { type: 'string', enum: [...WIZARD_PANES], description: 'prove only the components of this wizard pane; the others that are not chosen come back `unchecked: true`' },
  },
} as const;
const splitSelection = (text: string | undefined): string[] => (text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

interface ClusterCreation {
  name: string;
  release_id?: string;
  release?: string | number;
  components?: string[];
  id?: unknown;
  nodes?: unknown[];
  tasks?: unknown[];
}

/** The release asked for: release_id, or Fuel's release; both must name the same one. */
function releaseOf(body: ClusterCreation): string {
  const alias = body.release === undefined ? undefined : String(body.release);
  if (body.release_id !== undefined && alias !== undefined && alias !== body.release_id) {
    throw new HttpError(400, 'cluster/release-mismatch', `release_id '${body.release_id}' and release '${alias}' name different releases`, { hint: 'send one of them (release is Fuel\'s name for release_id)' });
  }
  const id = body.release_id ?? alias;
  if (id === undefined || id === '') throw new HttpError(400, 'cluster/release-missing', 'body must have release_id (or release, as Fuel names it)', { hint: 'list releases with GET /api/v1/releases' });
  return id;
}

/** The design's id, nodes and tasks: an environment is created without them, so they are ignored, said when not empty. */
function ignoredKeys(body: ClusterCreation): Finding[] {
  const out: Finding[] = [];
  if (body.id !== undefined && body.id !== null) out.push({ code: 'cluster/id-ignored', severity: 'warning', message: `id ${JSON.stringify(body.id)} was ignored: the server gives a new environment its id`, hint: 'leave id out' });
  if (body.nodes?.length) out.push({ code: 'cluster/nodes-ignored', severity: 'warning', message: `nodes (${body.nodes.length}) were ignored: an environment is created without nodes`, hint: 'add nodes afterwards with POST /api/v1/clusters/{id}/nodes' });
  if (body.tasks?.length) out.push({ code: 'cluster/tasks-ignored', severity: 'warning', message: `tasks (${body.tasks.length}) were ignored: tasks come from the release and the enabled plugins`, hint: 'leave tasks out, or empty' });
  return out;
}

export function clusterRoutes(api: FastifyInstance, ctx: AppContext): void {
  api.get('/clusters', { config: PAGED_READ, schema: { summary: 'List environments', tags: ['clusters'], response: { 200: answer('every environment', listOf(CLUSTER)) } } }, async (req) => (await readPaged(req, numericMarker, (page) => store.pageOfClusters(ctx.db, page))).map(clusterSummary));

  api.get<{ Params: { id: number } }>('/clusters/:id', { config: PUBLIC_READ, schema: { summary: 'Get an environment', tags: ['clusters'], params: clusterIdParam, response: { 200: answer('the environment, with how many nodes it has', CLUSTER), ...errors(404) } } }, async (req) => {
    const c = await clusterOr404(ctx.db, req.params.id);
    const nodes = await store.listNodes(ctx.db, { clusterId: c.id });
    return { ...clusterSummary(c), nodes: nodes.length };
  });

  api.post<{ Body: ClusterCreation }>(
    '/clusters',
    {
      config: OPERATOR,
      schema: {
        summary: 'Create an environment from a release and chosen components (validated by the component engine); without components, the release\'s defaults. Fuel-shaped bodies are taken: release for release_id, and the design\'s id, nodes and tasks (ignored, with a warning in findings, when not empty)',
        tags: ['clusters'],
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: {
            name: NAME,
            release_id: { type: 'string', minLength: 1, maxLength: 200 },
            // anyOf, not a list of types: Fastify's validator (strict) logs a warning at every start for those.
            release: { anyOf: [{ type: 'string', minLength: 1, maxLength: 200 }, { type: 'integer' }], description: "Fuel's name for release_id (Nailgun's clients send it)" },
            components: { type: 'array', maxItems: 500, items: { type: 'string', minLength: 1, maxLength: 200 } },
            // The component-registry design's request carries these: an environment is created
            // without them, so they are ignored, with a warning when not empty (issue 28).
            id: { anyOf: [{ type: 'integer' }, { type: 'string', maxLength: 200 }, { type: 'null' }], description: 'ignored: the server gives the id' },
            nodes: { type: 'array', maxItems: 1000, description: 'ignored: add nodes with POST /clusters/{id}/nodes' },
            tasks: { type: 'array', maxItems: 1000, description: 'ignored: tasks come from the release and its plugins' },
          },
        },
        response: { 201: answer('created, with what the component engine found and what of the body was ignored', CLUSTER), ...errorResponses },
      },
    },
    async (req, reply) => {
      const { name } = req.body;
      const releaseId = releaseOf(req.body);
      const ignored = ignoredKeys(req.body);
      const release = await storedRelease(ctx.db, releaseId);
      if (!release) throw new HttpError(400, 'cluster/unknown-release', `there is no release '${releaseId}'`, { hint: 'list releases with GET /api/v1/releases' });
      const { composition: wizard, catalog, unusable } = await wizardFor(ctx.db, release.id);
      // No components: the release's own defaults, as the wizard offers them before any click.
      const components = req.body.components ?? wizard.composed.components.filter((c) => c.default === true && !c.plugin).map((c) => c.name);
      const blocked = unusable.filter((u) => u.components.some((c) => components.includes(c.name)));
      if (blocked.length) {
        throw refused('cluster/plugin-unusable', 'a chosen component comes from a plugin that cannot be used with this release', blocked.flatMap((u) => u.reasons.map((message) => ({ code: 'plugin/unusable', severity: 'error' as const, message: `plugin ${u.plugin.name} ${u.plugin.version}: ${message}` }))));
      }
      const verdict = verdictOf(catalog, components);
      if (!verdict.valid) throw refused('cluster/invalid-components', 'the chosen components do not go together', verdict.findings);
      // Plugin components enable their plugins, at the version the wizard offered.
      const chosen = new Set(components.map((c) => c.trim()));
      const picked = wizard.composed.components.filter((c) => chosen.has(c.name));
      const enabled: Record<string, string> = {};
      for (const c of picked) if (c.plugin) enabled[c.plugin.name] = store.pluginId(c.plugin.name, c.plugin.version);
      const composition = await composeWith(ctx.db, release, enabled);
      const compositionErrors = errorsOf(composition.findings);
      if (compositionErrors.length) throw refused('cluster/plugins-conflict', 'the plugins these components enable cannot be combined with the release', composition.findings);
      const bound = startingSettingsOf(composition, picked);
      if (bound.problems.length) throw new HttpError(400, 'cluster/bad-bind', 'a chosen component sets values that do not exist', { problems: bound.problems });
      // One statement with its audit entry, shared with the creations asked meanwhile (store/clusters.ts);
      // a name taken by a racing request is a 409 too (conflicts.ts).
      const created = await store.createClusterBatched(ctx.db, { name, releaseId, components: [...chosen].sort(), attributes: bound.settings, plugins: enabled, audit: entryWrittenWith(req, 201) });
      if (!created) throw new HttpError(409, 'cluster/name-taken', `an environment named '${name}' exists already`);
      return reply.status(201).send({ ...clusterSummary(created), findings: [...verdict.findings, ...ignored] });
    },
  );

  api.patch<{ Params: { id: number }; Body: { name: string } }>(
    '/clusters/:id',
    { config: OPERATOR, schema: { summary: 'Rename an environment', tags: ['clusters'], params: clusterIdParam, body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: NAME } }, response: { 200: answer('renamed', CLUSTER), ...errors(404, 409) } } },
    async (req) => {
      await ctx.db.transaction(async (tx) => {
        const c = await clusterOr404(tx, req.params.id, { lock: true });
        const other = await store.clusterByName(tx, req.body.name);
        if (other && other.id !== c.id) throw new HttpError(409, 'cluster/name-taken', `an environment named '${req.body.name}' exists already`);
        await store.updateCluster(tx, c.id, { name: req.body.name });
      });
      return clusterSummary(await clusterOr404(ctx.db, req.params.id));
    },
  );

  api.put<{ Params: { id: number }; Body: { release_id: string; drop_unfit?: boolean; name?: string } }>(
    '/clusters/:id',
    {
      config: OPERATOR,
      schema: {
        summary:
          "Move an environment to a newer version of its release (release upgrade): components, settings, plugins, node roles, disk layouts and networks are carried over. What no longer fits refuses the move (409 cluster/upgrade-unfit, every unfit thing in details.unfit, nothing changed) unless drop_unfit: true leaves it behind (listed in dropped). A deployed environment keeps its state and says deployed_release_id until it is deployed again",
        tags: ['clusters'],
        params: clusterIdParam,
        body: {
          type: 'object',
          required: ['release_id'],
          additionalProperties: false,
          properties: {
            release_id: { type: 'string', minLength: 1, maxLength: 200, description: 'the release to move to (another version of the environment\'s release)' },
            drop_unfit: { type: 'boolean', description: 'leave behind what does not fit the new release instead of refusing' },
            name: { ...NAME, description: 'a new name too (optional)' },
          },
        },
        response: { 200: answer('moved (or already on that release), with what was left behind', UPGRADED), ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      const result = await ctx.db.transaction(async (tx) => {
        if (req.body.name !== undefined) {
          const c = await clusterOr404(tx, req.params.id, { lock: true });
          const other = await store.clusterByName(tx, req.body.name);
          if (other && other.id !== c.id) throw new HttpError(409, 'cluster/name-taken', `an environment named '${req.body.name}' exists already`);
          await store.updateCluster(tx, c.id, { name: req.body.name });
        }
        return upgradeEnvironment(tx, req.params.id, req.body.release_id, req.body.drop_unfit === true);
      });
      return { ...clusterSummary(result.cluster), upgraded_from: result.from, dropped: result.dropped };
    },
  );

  api.post<{ Params: { id: number } }>('/clusters/:id/reset', { config: OPERATOR, schema: { summary: 'Reset an environment to undeployed: nodes keep their roles as pending, the deployed state is forgotten', tags: ['clusters'], params: clusterIdParam, response: { 200: answer('reset', CLUSTER), ...errorResponses } } }, async (req) =>
    clusterSummary(await ctx.db.transaction((tx) => resetEnvironment(tx, req.params.id))),
  );

  api.delete<{ Params: { id: number }; Querystring: { clean?: boolean } }>(
    '/clusters/:id',
    {
      config: OPERATOR,
      schema: {
        summary:
          'Delete an environment (its nodes return to the unassigned pool). With nodes deployed on real hosts, say clean: true runs the deletion graph on them first (the environment is removing, deleted when it succeeded; 202 with the run), false deletes it now, the hosts keeping what was deployed',
        tags: ['clusters'],
        params: clusterIdParam,
        querystring: { type: 'object', properties: { clean: { type: 'boolean', description: 'required when nodes are deployed on real hosts: clean them first (true) or not (false)' } } },
        response: { 202: answer('the deletion graph runs on the deployed nodes; the environment is deleted when it succeeded', REMOVAL), 204: noContent('deleted'), ...errors(404, 409) },
      },
    },
    async (req, reply) => {
      const r = await deleteEnvironment(ctx, req.log, req.params.id, req.query.clean, whoAsked(req.actor), req);
      return 'deleted' in r ? reply.status(204).send() : reply.status(202).send(r);
    },
  );

  api.get<{ Params: { id: number } }>('/clusters/:id/attributes', { config: PUBLIC_READ, schema: { summary: 'Settings, with a section per plugin (enabled, chosen version, versions available)', tags: ['clusters'], params: clusterIdParam, response: { 200: answer('settings and plugin sections', ATTRIBUTES), ...errors(404) } } }, async (req) => {
    const c = await clusterOr404(ctx.db, req.params.id);
    return { editable: c.attributes, plugins: await pluginSections(ctx.db, c) };
  });

  api.put<{ Params: { id: number }; Body: { editable?: Record<string, unknown>; plugins?: Record<string, string | null>; dry_run?: boolean } }>(
    '/clusters/:id/attributes',
    {
      config: OPERATOR,
      schema: {
        summary: 'Change settings and enable, disable or switch plugin versions (dry_run shows what would change)',
        tags: ['clusters'],
        params: clusterIdParam,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            editable: { type: 'object', maxProperties: 200, additionalProperties: true },
            plugins: { type: 'object', maxProperties: 100, additionalProperties: { type: ['string', 'null'], maxLength: 100 } },
            dry_run: { type: 'boolean' },
          },
        },
        response: { 200: answer('what changed (or would change), and the settings as they stand', SETTINGS_CHANGE), ...errors(400, 404, 409) },
      },
    },
    async (req) => {
      const result = await ctx.db.transaction(async (tx) => {
        const c = await clusterOr404(tx, req.params.id, { lock: true });
        if (c.status === 'deploying') throw new HttpError(409, 'cluster/deploying', `environment '${c.name}' is being deployed; settings are locked until it ends`);
        const pluginChange = req.body.plugins ? await changePlugins(tx, c, req.body.plugins) : undefined;
        let attributes = pluginChange?.attributes ?? c.attributes;
        let changed: string[] = [];
        if (req.body.editable) {
          const change = applySettingsChanges(attributes, req.body.editable, { cluster: { name: c.name, status: c.status } });
          const errors = errorsOf(change.findings);
          if (errors.length) throw refused('settings/refused', 'the settings cannot be changed this way', change.findings);
          attributes = change.editable;
          changed = change.changed;
        }
        const answer = { changed, plugins: pluginChange?.diff ?? null, dry_run: req.body.dry_run === true };
        if (req.body.dry_run) return answer;
        if (pluginChange) await store.setClusterPlugins(tx, c.id, pluginChange.enabled);
        await store.updateCluster(tx, c.id, { attributes });
        return answer;
      });
      const c = await clusterOr404(ctx.db, req.params.id);
      return { ...result, editable: c.attributes, plugin_sections: await pluginSections(ctx.db, c) };
    },
  );

  api.get<{ Params: { id: number }; Querystring: { select?: string; pane?: WizardPane } }>(
    '/clusters/:id/components/state',
    { config: PUBLIC_READ, schema: { summary: 'The wizard: every component checked, enabled or disabled with reasons, for a selection', tags: ['clusters'], params: clusterIdParam, querystring: selectQuery, response: { 200: answer('the state of every component', WIZARD_STATE), ...errors(404) } } },
    async (req) => {
      const c = await clusterOr404(ctx.db, req.params.id);
      return wizardState(await wizardFor(ctx.db, c.releaseId), req.query.select === undefined ? c.components : splitSelection(req.query.select), req.query.pane && [req.query.pane]);
    },
  );

  api.get<{ Params: { id: string }; Querystring: { select?: string; pane?: WizardPane } }>(
    '/releases/:id/components/state',
    { config: PUBLIC_READ, schema: { summary: 'The wizard before an environment exists: component states for a selection', tags: ['releases'], params: idParam, querystring: selectQuery, response: { 200: answer('the state of every component', WIZARD_STATE), ...errors(404) } } },
    async (req) => {
      return wizardState(await wizardFor(ctx.db, req.params.id), splitSelection(req.query.select), req.query.pane && [req.query.pane]);
    },
  );

  api.get<{ Params: { id: number } }>('/clusters/:id/roles', { config: PUBLIC_READ, schema: { summary: 'Roles available to this environment (release and enabled plugins)', tags: ['clusters'], params: clusterIdParam, response: { 200: answer('roles, by weight', listOf(ROLE)), ...errors(404) } } }, async (req) => {
    const { rolesOf } = await import('../domain/environment.js');
    return rolesOf(await composeCluster(ctx.db, await clusterOr404(ctx.db, req.params.id)));
  });
}
