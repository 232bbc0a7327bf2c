/** What every validation rule sees: the loaded plugin, the target release if any, and the findings so far. */
import type { Finding } from '../../core/findings.js';
import type { Release } from '../../core/release/model.js';
import type { LoadedPlugin } from '../plugin/model.js';

export interface ValidationContext {
  plugin: LoadedPlugin;
  /** Major package version: 1 to 5. */
  major: number;
  release?: Release;
  findings: Finding[];
  /** The package version is not the author's but assumed (metadata.yaml unreadable): version-specific rules are skipped. */
  assumedVersion?: boolean;
}

/** Fuel's core role names, known when no release is given. */
export const CORE_ROLES: readonly string[] = [
  'controller',
  'compute',
  'cinder',
  'cinder-block-device',
  'cinder-vmware',
  'ceph-osd',
  'mongo',
  'base-os',
  'virt',
  'compute-vmware',
  'ironic',
  'primary-controller',
  'primary-mongo',
];

/** Selectors that are not role names. */
export const SPECIAL_ROLES: readonly string[] = ['*', 'master'];

export const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const taskIdsOf = new WeakMap<Release, Set<string>>();

/** The tasks a release defines, by id, across all its graphs (computed once per release; do not change the set). */
export function releaseTaskIds(release: Release | undefined): Set<string> {
  if (!release) return new Set();
  const cached = taskIdsOf.get(release);
  if (cached) return cached;
  const ids = new Set<string>();
  for (const graph of Object.values(release.graphs ?? {})) for (const task of graph.tasks ?? []) ids.add(task.id);
  taskIdsOf.set(release, ids);
  return ids;
}
