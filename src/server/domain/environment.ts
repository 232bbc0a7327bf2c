/**
 * An environment's view of its release: the release composed with the plugins it enables (or,
 * for the wizard, with every installed plugin that fits), the component catalog, and settings.
 * The rules are core's (composition, component engine, role checks); this file only gathers
 * the stored inputs for them.
 */
import { composeRelease, type Composition } from '../../core/release/index.js';
import { compileCatalog, groupOf, state, typeOf, validate, type Catalog, type ComponentState, type WizardPane, type WizardState } from '../../core/components/index.js';
import type { Component } from '../../core/release/model.js';
import { applyBind, type BindResult } from '../../core/components/bind.js';
import type { Finding } from '../../core/findings.js';
import * as store from '../../store/index.js';
import { HttpError, notFound } from '../errors.js';
import { withCustomRoles } from './custom-roles.js';
import { contributionOf } from './plugins.js';

/**
 * A stored release, kept per catalog version (a release row holds the whole release, tens of KB
 * of JSON to read and parse). Shared between requests: never changed by its readers.
 */
export function storedRelease(q: store.Queryable, id: string): Promise<store.ReleaseRecord | undefined> {
  return cachedPerCatalog(q, `release|${id}`, async () => {
    const record = await store.getRelease(q, id);
    // Roles added through the API are the release's roles like any other (issue 28 item 12).
    const roles = record ? await store.customRoles(q, { releaseId: id }) : [];
    return record && roles.length ? { ...record, release: withCustomRoles(record.release, roles) } : record;
  });
}

export async function releaseOr404(q: store.Queryable, id: string): Promise<store.ReleaseRecord> {
  const record = await storedRelease(q, id);
  if (!record) throw notFound('release', id);
  return record;
}

export async function clusterOr404(q: store.Queryable, id: number, options: { lock?: boolean } = {}): Promise<store.ClusterRecord> {
  const record = await store.getCluster(q, id, options);
  if (!record) throw notFound('cluster', id);
  return record;
}

/**
 * Compositions are pure functions of the stored plugins and releases, which change only with the
 * catalog version; so each server keeps the last ones per version (the wizard and POST /clusters
 * ask for the same few again and again), per database (tests run several in one process).
 */
const caches = new WeakMap<store.Queryable, Map<string, unknown>>();
/**
 * `make()`'s value for `key` at the database's current catalog version. The version is read from
 * the database each time (store/meta.ts remembers it only for PGlite, which this process alone
 * writes), so a change made through another server sharing PostgreSQL is seen at once. Inside a
 * transaction nothing is kept or reused: the version may be one it bumped and could still roll
 * back. (A transaction has no engine.)
 */
export async function cachedPerCatalog<T>(q: store.Queryable, key: string, make: () => Promise<T>): Promise<T> {
  if (!('engine' in q)) return make();
  let cache = caches.get(q);
  if (!cache) caches.set(q, (cache = new Map()));
  const full = `${await store.catalogVersion(q)}|${key}`;
  if (cache.has(full)) return cache.get(full) as T;
  const value = await make();
  if (cache.size >= 200) cache.clear();
  cache.set(full, value);
  return value;
}
const cached = cachedPerCatalog;

/** A plugin that fits the release by name and version but cannot be composed with it. */
export interface UnusablePlugin {
  plugin: { name: string; version: string };
  components: Component[];
  /** The composition errors it alone brings (beyond any the release has by itself). */
  reasons: string[];
}

export interface Wizard {
  composition: Composition;
  catalog: Catalog;
  unusable: UnusablePlugin[];
}

const errorKey = (f: Finding) => `${f.code}|${f.message}`;

/**
 * The release with every installed plugin that fits it: what the wizard offers. A plugin whose
 * composition with the release fails on its own (a role without a disk layout, say) is left out, so
 * no choice in the wizard leads to an environment that cannot be created; its components are still
 * listed, disabled, with the reasons.
 */
export async function wizardFor(q: store.Queryable, releaseId: string): Promise<Wizard> {
  return cached(q, `wizard|${releaseId}`, async () => {
    const release = await releaseOr404(q, releaseId);
    const plugins = await store.listExtensionPlugins(q);
    const contributions = plugins.map((p) => contributionOf(p).contribution);
    const baseline = new Set(composeRelease(release.release, []).findings.filter((f) => f.severity === 'error').map(errorKey));
    const usable = [];
    const unusable: UnusablePlugin[] = [];
    for (const contribution of contributions) {
      const alone = composeRelease(release.release, [contribution]);
      const outcome = alone.plugins[0];
      const errors = alone.findings.filter((f) => f.severity === 'error' && !baseline.has(errorKey(f)));
      if (outcome?.applied && errors.length > 0) {
        // Its components as this release would have had them (per-release files, best-fit records).
        const components = alone.composed.components.filter((c) => c.plugin?.name === contribution.name && c.plugin.version === contribution.version);
        unusable.push({ plugin: { name: contribution.name, version: contribution.version }, components, reasons: errors.map((f) => f.message) });
      } else {
        usable.push(contribution);
      }
    }
    const composition = composeRelease(release.release, usable);
    return { composition, catalog: catalogOf(composition), unusable };
  });
}

/** The wizard's answer for a selection: the engine's state, plus the components of unusable plugins, disabled with why. */
export function wizardState(wizard: Wizard, selection: string[], panes?: readonly WizardPane[]): WizardState {
  const answer = state(wizard.catalog, selection, panes ? { panes } : {});
  const known = new Set(answer.components.map((c) => c.name));
  const extra: ComponentState[] = [];
  for (const { plugin, components, reasons } of wizard.unusable) {
    for (const component of components) {
      if (known.has(component.name)) continue;
      const label = component.label ?? component.name;
      extra.push({
        name: component.name,
        type: typeOf(component.name),
        group: groupOf(component.name),
        label,
        checked: false,
        enabled: false,
        green: false,
        untested: [],
        deadEnd: false,
        reasons: [`${label} (${component.name}) comes from plugin ${plugin.name} ${plugin.version}, which cannot be used with this release: ${reasons.slice(0, 3).join('; ')}${reasons.length > 3 ? `; and ${reasons.length - 3} more` : ''}.`],
        fix: [],
      });
    }
  }
  return extra.length ? { ...answer, components: [...answer.components, ...extra] } : answer;
}

/** The release with exactly the plugin versions an environment enables (name → id). */
export async function composeWith(q: store.Queryable, release: store.ReleaseRecord, enabled: Record<string, string>): Promise<Composition & { pluginFindings: Finding[] }> {
  const ids = Object.values(enabled).sort();
  return cached(q, `with|${release.id}|${ids.join(',')}`, async () => {
    const contributions = [];
    const pluginFindings: Finding[] = [];
    for (const id of ids) {
      const record = await store.getPlugin(q, id);
      if (!record) throw new HttpError(409, 'plugin/missing', `the environment enables plugin ${id}, which is not installed`);
      const c = contributionOf(record);
      contributions.push(c.contribution);
      pluginFindings.push(...c.findings);
    }
    return { ...composeRelease(release.release, contributions), pluginFindings };
  });
}

export async function composeCluster(q: store.Queryable, cluster: store.ClusterRecord) {
  const release = await releaseOr404(q, cluster.releaseId);
  // The environment's own roles (issue 28 item 12): its release with them, composed apart.
  const roles = await cached(q, `cluster-roles|${cluster.id}`, () => store.customRoles(q, { clusterId: cluster.id }));
  if (!roles.length) return composeWith(q, release, cluster.plugins);
  return composeWith(q, { ...release, id: `${release.id}#cluster-${cluster.id}`, release: withCustomRoles(release.release, roles) }, cluster.plugins);
}

/** A composition made before an environment's row lock was taken (composedBeforeLock). */
export interface EarlyComposition {
  composition: Awaited<ReturnType<typeof composeCluster>>;
  releaseId: string;
  plugins: string;
  version: number;
}

const pluginsKey = (cluster: store.ClusterRecord) => JSON.stringify(Object.entries(cluster.plugins).sort());

/**
 * An environment's composition for work done under its row lock, made before the lock from the
 * cache. Under the lock the embedded database serves no one else, and composing there (reading the
 * release, its roles and plugins, and composing them) held it longer than all the rest of a role
 * assignment. undefined when the environment does not exist (the locked read says so).
 */
export async function composedBeforeLock(db: store.Database, clusterId: number): Promise<EarlyComposition | undefined> {
  const cluster = await store.getCluster(db, clusterId);
  if (!cluster) return undefined;
  const version = await store.catalogVersion(db);
  return { composition: await composeCluster(db, cluster), releaseId: cluster.releaseId, plugins: pluginsKey(cluster), version };
}

/** The composition for the locked environment: the early one when nothing it was made from has changed since, else made again here. */
export async function composedUnderLock(tx: store.Queryable, locked: store.ClusterRecord, early: EarlyComposition | undefined) {
  if (early && early.releaseId === locked.releaseId && early.plugins === pluginsKey(locked) && early.version === (await store.catalogVersion(tx))) return early.composition;
  return composeCluster(tx, locked);
}

export function catalogOf(composition: Composition): Catalog {
  return compileCatalog(composition.composed.components, { requiredTypes: composition.composed.required_component_types });
}

const verdicts = new WeakMap<Catalog, Map<string, ReturnType<typeof validate>>>();

/**
 * The component engine's verdict on a selection, kept with the catalog (itself kept per catalog
 * version): environments are created from the same few selections again and again. Shared between
 * requests: never changed by its readers.
 */
export function verdictOf(catalog: Catalog, selection: string[]): ReturnType<typeof validate> {
  let known = verdicts.get(catalog);
  if (!known) verdicts.set(catalog, (known = new Map()));
  const key = JSON.stringify(selection);
  let verdict = known.get(key);
  if (!verdict) {
    verdict = validate(catalog, selection);
    if (known.size >= 100) known.clear();
    known.set(key, verdict);
  }
  return verdict;
}

const startingSettings = new WeakMap<Composition, Map<string, BindResult>>();

/**
 * The settings a new environment starts with: the composition's tree with the chosen components'
 * binds applied (`picked`, in the wizard's order). Kept with the composition (itself kept per
 * catalog version), per choice: environments are created from the same few choices again and
 * again, and one kept tree is written once for all the creations of a statement
 * (store.createClusters). Shared between requests: never changed by its readers.
 */
export function startingSettingsOf(composition: Composition, picked: ReadonlyArray<Component>): BindResult {
  let known = startingSettings.get(composition);
  if (!known) startingSettings.set(composition, (known = new Map()));
  const key = picked.map((c) => c.name).join('\n');
  let bound = known.get(key);
  if (!bound) {
    // applyBind copies what it changes of the tree it is given: no copy of the shared one is needed first.
    bound = applyBind(settingsTreeOf(composition), picked);
    if (known.size >= 100) known.clear();
    known.set(key, bound);
  }
  return bound;
}

/** The settings tree (`editable`) of a composed release, as it is: for readers that copy what they change. */
export function settingsTreeOf(composition: Composition): Record<string, unknown> {
  const editable = (composition.composed.attributes_metadata as Record<string, unknown>).editable;
  return editable && typeof editable === 'object' && !Array.isArray(editable) ? (editable as Record<string, unknown>) : {};
}

/** The settings tree (`editable`) of a composed release. */
export function editableOf(composition: Composition): Record<string, unknown> {
  const attributes = composition.composed.attributes_metadata as Record<string, unknown>;
  const editable = attributes.editable;
  return editable && typeof editable === 'object' && !Array.isArray(editable) ? structuredClone(editable as Record<string, unknown>) : {};
}

/** Roles and which source (release or plugin label) brought each: for node views and refusals. */
/**
 * One role as Nailgun's role API answers it, `{name, meta, volumes_roles_mapping}`, whatever its
 * source (the release's files, a plugin's, or the role API): what `role add` and `role change`
 * take back, so a role is read, edited and sent again as it is.
 */
export function roleOf(composition: Composition, name: string, where: string): { name: string; meta: Record<string, unknown>; volumes_roles_mapping: Array<{ id: string; allocate_size?: string }> } {
  const { roles_metadata: roles, volumes_metadata: volumes } = composition.composed;
  if (!Object.hasOwn(roles, name)) throw new HttpError(404, 'role/not-found', `${where} has no role '${name}'`, { hint: `its roles: ${Object.keys(roles).sort().join(', ')}` });
  const mapping = volumes?.volumes_roles_mapping?.[name] ?? [];
  return { name, meta: { ...roles[name] } as Record<string, unknown>, volumes_roles_mapping: mapping.map((v) => ({ id: v.id, ...(v.allocate_size !== undefined ? { allocate_size: v.allocate_size } : {}) })) };
}

export function rolesOf(composition: Composition): Array<{ name: string; label: string; source: string; conflicts?: unknown; limits?: unknown; restrictions?: unknown; description?: string }> {
  const { roles_metadata: roles, role_sources: sources } = composition.composed;
  return Object.keys(roles)
    .sort((a, b) => (Number(roles[a].weight ?? 1000) - Number(roles[b].weight ?? 1000)) || a.localeCompare(b))
    .map((name) => {
      const r = roles[name];
      const out: { name: string; label: string; source: string; conflicts?: unknown; limits?: unknown; restrictions?: unknown; description?: string } = { name, label: String(r.name ?? name), source: sources[name] ?? 'release' };
      if (r.conflicts !== undefined) out.conflicts = r.conflicts;
      if (r.limits !== undefined) out.limits = r.limits;
      // The UI evaluates them on the settings to disable a role before it is chosen, as Fuel's roles panel did.
      if (r.restrictions !== undefined) out.restrictions = r.restrictions;
      if (typeof r.description === 'string') out.description = r.description;
      return out;
    });
}
