/**
 * A release, the one typed shape that a release plugin and a Fuel release fixture both become.
 * Metadata sections keep Fuel's shapes (they are what plugin authors write), typed loosely where
 * Fuel was loose; the parts Hearth reasons about (roles, components, volumes, tasks) are typed.
 */
import type { Task } from '../tasks/model.js';

export interface RoleLimits {
  min?: number | string;
  max?: number | string;
  recommended?: number | string;
  overrides?: Array<Record<string, unknown>>;
}

export interface RoleMetadata {
  name: string;
  description?: string;
  conflicts?: string[] | '*';
  limits?: RoleLimits;
  restrictions?: unknown[];
  tags?: string[];
  public_ip_required?: boolean;
  public_for_dvr_required?: boolean;
  weight?: number;
  has_primary?: boolean;
  update_required?: string[];
  update_once?: string[];
  fault_tolerance?: string;
  group?: string;
  /** Plugins v5: a node role may carry its own task list, unwrapped into a group task. */
  tasks?: unknown[];
  [key: string]: unknown;
}

export interface ComponentRule {
  name: string;
  message?: string;
}

/** `requires` predicate form: `{ one_of: { items: [...] , message } }` and friends. */
export type ComponentPredicate = Partial<
  Record<'one_of' | 'any_of' | 'none_of' | 'all_of', { items: string[]; message?: string }>
>;

export interface Component {
  name: string;
  label?: string;
  description?: string;
  weight?: number;
  default?: boolean;
  bind?: unknown[];
  compatible?: ComponentRule[];
  incompatible?: ComponentRule[];
  requires?: Array<ComponentRule | ComponentPredicate>;
  /** The plugin that provides it, when not the release. */
  plugin?: { name: string; version: string };
  [key: string]: unknown;
}

export interface VolumeAllocation {
  id: string;
  allocate_size?: string;
  [key: string]: unknown;
}

export interface VolumesMetadata {
  volumes: Array<Record<string, unknown> & { id: string }>;
  volumes_roles_mapping: Record<string, VolumeAllocation[]>;
}

export interface Release {
  /** Stable id: `<name>@<version>` unless a store assigns its own. */
  id: string;
  name: string;
  version: string;
  operating_system: string;
  description?: string;
  state?: string;
  roles_metadata: Record<string, RoleMetadata>;
  tags_metadata: Record<string, Record<string, unknown>>;
  volumes_metadata: VolumesMetadata;
  network_roles_metadata: Array<Record<string, unknown>>;
  networks_metadata: Record<string, unknown>;
  attributes_metadata: Record<string, unknown>;
  vmware_attributes_metadata?: Record<string, unknown>;
  node_attributes?: Record<string, unknown>;
  nic_attributes?: Record<string, unknown>;
  bond_attributes?: Record<string, unknown>;
  components: Component[];
  required_component_types: string[];
  modes?: string[];
  /** Graphs by type (`default`, `provisioning`, `deletion`, `network_verification`, custom). */
  graphs: Record<string, { name?: string; metadata?: Record<string, unknown>; tasks: Task[] }>;
  /** Where it came from: `plugin:<name>@<version>` or `fixture:<file>#<pk>`. */
  source: string;
  /**
   * Fuel release versions (`mitaka-9.0`) whose plugins this release accepts as its own: a release
   * that keeps the role names and task ids of that Fuel release offers the same surface to plugins.
   * A plugin matches a release by `version` or by any of these.
   */
  compatible_versions?: string[];
  /** Extra release-level fields Hearth does not reason about (`extensions`, `modes_metadata`, …). */
  extra?: Record<string, unknown>;
}
