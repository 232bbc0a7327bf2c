/**
 * An environment's view of its release: the release composed with the plugins it enables (or,
 * for the wizard, with every installed plugin that fits), the component catalog, and settings.
 * The rules are core's (composition, component engine, role checks); this file only gathers
 * the stored inputs for them.
 */
import { composeRelease, type Composition } from '../../core/release/index.js';
import { compileCatalog, type Catalog } from '../../core/components/index.js';
import type { Finding } from '../../core/findings.js';
import * as store from '../../store/index.js';
import { HttpError, notFound } from '../errors.js';
import { contributionOf } from './plugins.js';

export async function releaseOr404(q: store.Queryable, id: string): Promise<store.ReleaseRecord> {
  const record = await store.getRelease(q, id);
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
 * ask for the same few again and again).
 */
const cache = new Map<string, unknown>();
async function cached<T>(q: store.Queryable, key: string, make: () => Promise<T>): Promise<T> {
  const full = `${await store.catalogVersion(q)}|${key}`;
  if (cache.has(full)) return cache.get(full) as T;
  const value = await make();
  if (cache.size >= 200) cache.clear();
  cache.set(full, value);
  return value;
}

export interface Wizard {
  composition: Composition;
  catalog: Catalog;
}

/**
 * The release with every installed plugin that fits it: what the wizard offers. Composition keeps
 * one version per plugin (the newest) and says why others were left out.
 */
export async function wizardFor(q: store.Queryable, releaseId: string): Promise<Wizard> {
  return cached(q, `wizard|${releaseId}`, async () => {
    const release = await releaseOr404(q, releaseId);
    const plugins = await store.listExtensionPlugins(q);
    const composition = composeRelease(release.release, plugins.map((p) => contributionOf(p).contribution));
    return { composition, catalog: catalogOf(composition) };
  });
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
  return composeWith(q, await releaseOr404(q, cluster.releaseId), cluster.plugins);
}

export function catalogOf(composition: Composition): Catalog {
  return compileCatalog(composition.composed.components, { requiredTypes: composition.composed.required_component_types });
}

/** The settings tree (`editable`) of a composed release. */
export function editableOf(composition: Composition): Record<string, unknown> {
  const attributes = composition.composed.attributes_metadata as Record<string, unknown>;
  const editable = attributes.editable;
  return editable && typeof editable === 'object' && !Array.isArray(editable) ? structuredClone(editable as Record<string, unknown>) : {};
}

/** Roles and which source (release or plugin label) brought each: for node views and refusals. */
export function rolesOf(composition: Composition): Array<{ name: string; label: string; source: string; conflicts?: unknown; limits?: unknown; description?: string }> {
  const { roles_metadata: roles, role_sources: sources } = composition.composed;
  return Object.keys(roles)
    .sort((a, b) => (Number(roles[a].weight ?? 1000) - Number(roles[b].weight ?? 1000)) || a.localeCompare(b))
    .map((name) => {
      const r = roles[name];
      const out: { name: string; label: string; source: string; conflicts?: unknown; limits?: unknown; description?: string } = { name, label: String(r.name ?? name), source: sources[name] ?? 'release' };
      if (r.conflicts !== undefined) out.conflicts = r.conflicts;
      if (r.limits !== undefined) out.limits = r.limits;
      if (typeof r.description === 'string') out.description = r.description;
      return out;
    });
}
