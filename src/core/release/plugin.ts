/**
 * What one plugin brings to one release, in core terms. The package layer turns a `LoadedPlugin`
 * into this (files parsed, tasks normalised); composition only ever sees this shape.
 */
import type { Task } from '../tasks/model.js';
import type { Component, RoleMetadata, VolumeAllocation } from './model.js';

/** One `releases:` entry of a plugin's metadata.yaml that extends (rather than defines) a release. */
export interface PluginReleaseSupport {
  os: string;
  version: string;
  mode?: string[];
  /**
   * What this release gets instead of the plugin's top-level files (plugins-v5 variants 2 and 3:
   * `deployment_tasks_path`, `node_roles_path`, … or a `conf_path` folder in the record). A part
   * not given here comes from the top-level files. Absent when the record names no files of its own.
   */
  parts?: ReleaseParts;
}

/** The parts of a contribution that a release record may give its own copy of. */
export type ReleaseParts = Partial<
  Pick<PluginContribution, 'roles' | 'tags' | 'volumes' | 'volumesRolesMapping' | 'networkRoles' | 'components' | 'attributes' | 'nodeAttributes' | 'nicAttributes' | 'bondAttributes' | 'graphs' | 'files'>
>;

export interface PluginGraph {
  name?: string;
  metadata?: Record<string, unknown>;
  tasks: Task[];
}

export interface PluginContribution {
  name: string;
  version: string;
  title?: string;
  description?: string;
  packageVersion: string;
  isHotpluggable?: boolean;
  /** Which releases it extends; empty means it declares none (and so applies to none). */
  releases: PluginReleaseSupport[];
  roles: Record<string, RoleMetadata>;
  tags: Record<string, Record<string, unknown>>;
  volumes: Array<Record<string, unknown> & { id: string }>;
  volumesRolesMapping: Record<string, VolumeAllocation[]>;
  networkRoles: Array<Record<string, unknown>>;
  components: Component[];
  /** `environment_config.yaml`'s `attributes` (its `metadata` kept under `metadata`). */
  attributes: Record<string, unknown>;
  nodeAttributes?: Record<string, unknown>;
  nicAttributes?: Record<string, unknown>;
  bondAttributes?: Record<string, unknown>;
  /**
   * Tasks by graph type. Legacy `tasks.yaml` tasks are already stage-anchored into `default`,
   * node roles' `tasks:` lists already unwrapped into group tasks. Records with
   * `os-version`/`fuel-version` constraints are kept whole (several per id): composition picks
   * the best fit for the release.
   */
  graphs: Record<string, PluginGraph>;
  /** Files, for messages: which file each part came from (`node_roles.yaml`). */
  files?: Partial<Record<'roles' | 'volumes' | 'attributes' | 'components' | 'networkRoles' | 'tasks', string>>;
}

export const pluginLabel = (p: { name: string; version: string }): string => `${p.name}-${p.version}`;
