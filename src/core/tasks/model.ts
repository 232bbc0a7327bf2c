/**
 * Deployment tasks. `RawTask` is a task as written in any file format Fuel knew (legacy
 * `tasks.yaml`, `deployment_tasks.yaml` 1.0.0 and 2.x, graph files, node-role `tasks:` lists);
 * `Task` is the one normalised model everything after loading works with.
 */

/** A task exactly as parsed from YAML; every field optional because real files omit anything. */
export type RawTask = Record<string, unknown>;

export type TaskType =
  | 'puppet'
  | 'shell'
  | 'group'
  | 'stage'
  | 'skipped'
  | 'reboot'
  | 'upload_file'
  | 'copy_files'
  | 'sync'
  | 'master_shell'
  | 'move_to_bootstrap'
  | 'erase_node'
  | (string & {});

/** Which nodes a task runs on: role names, `*`, `/regex/`, `master`, and `primary-<role>` names. */
export type RoleSelector = string[] | '*';

/** A cross-node dependency (`cross-depends` / `cross-depended-by`). */
export interface CrossDependency {
  /** Task id or `/regex/`. */
  name: string;
  /** Role selector on the other side; absent means "any node" (Fuel's default is the same node set). */
  role?: RoleSelector;
  policy?: 'all' | 'any';
  /** Nailgun's LCM engine: `role: null` points at the cluster-wide sync node (stage tasks). */
  sync?: boolean;
}

export interface TaskStrategy {
  type: 'parallel' | 'one_by_one' | (string & {});
  /** For parallel: a number of nodes, a share of the task's nodes ("10%"), or a YAQL expression's text. */
  amount?: number | string;
}

/** Where a task came from, for messages ("plugin contrail, deployment_tasks.yaml:12:3"). */
export interface TaskOrigin {
  /** `release` or the plugin name. */
  source: string;
  file?: string;
  line?: number;
  column?: number;
}

export interface Task {
  id: string;
  type: TaskType;
  /** `1.0.0` for legacy tasks, otherwise the task's own `version` (e.g. `2.0.0`, `2.1.0`). */
  version: string;
  /** Roles the task runs on (from `role` or `roles`); `groups` are kept apart in `groups`. */
  roles?: RoleSelector;
  /** Node tags (Fuel 9+: `tags` select nodes by tag rather than role). */
  tags?: RoleSelector;
  /** Groups the task belongs to (`groups:`): a group's nodes run it, and the group's strategy paces it. */
  groups?: string[];
  requires: string[];
  requiredFor: string[];
  crossDepends: CrossDependency[];
  crossDependedBy: CrossDependency[];
  /** For `group` tasks: the tasks it contains (Fuel's `tasks:` list). */
  tasks?: string[];
  strategy?: TaskStrategy;
  /** Seconds; from `parameters.timeout` when present. */
  timeout?: number;
  /** A restriction-language string, or `{ yaql_exp: "..." }`. */
  condition?: string | { yaql_exp: string } | boolean;
  parameters?: Record<string, unknown>;
  /** Legacy stage anchor (`pre_deployment`, `post_deployment`) and its `/N` order, for 1.0.0 tasks. */
  stage?: { name: string; order: number };
  /**
   * Plugins v5 multi-release records: `os-version` / `fuel-version` constraints as written
   * (`">=liberty-8.0"`, `">=7,<=8"`). Composition keeps, per task id, the record that fits the
   * release best (`selectBestFit`); it also reports constraints that do not parse.
   */
  osVersion?: unknown;
  fuelVersion?: unknown;
  /** When this task reuses another's definition (`reexecute_on`, etc. stay in `extra`). */
  extra?: Record<string, unknown>;
  origin: TaskOrigin;
}

/** Graphs by type: `default`, `provisioning`, `deletion`, `network_verification`, and custom ones. */
export type GraphsByType = Record<string, Task[]>;
