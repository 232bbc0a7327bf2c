/** The shapes the UI reads from the API. */
export interface Release {
  id: string | number;
  name: string;
  version: string;
  operating_system: string;
  description?: string;
}

export interface Cluster {
  id: string | number;
  name: string;
  release_id: string | number;
  components: string[];
  status?: string;
  /** Plugin name → the enabled version's id (`name@version`). */
  plugins?: Record<string, string>;
  deployed_at?: string | null;
  nodes?: number;
}

export interface ComponentState {
  name: string;
  label?: string;
  description?: string;
  type: string;
  group: string;
  checked: boolean;
  enabled: boolean;
  green: boolean;
  reasons: string[];
  fix: string[];
  /** For a radio member: what choosing it unselects. */
  replaces?: string[];
  plugin?: { name: string; version: string } | null;
}

export interface WizardState {
  valid: boolean;
  components: ComponentState[];
  findings?: Array<{ code: string; message: string }>;
}

export interface Node {
  id: string | number;
  name: string;
  cluster_id: string | number | null;
  roles: string[];
  pending_roles: string[];
  status?: string;
  hardware?: Record<string, unknown>;
}

export interface Role {
  name: string;
  description?: string;
  label?: string;
  conflicts?: string[] | '*';
  limits?: Record<string, unknown>;
  /** Fuel's restrictions: a met `disable` one makes the role unavailable, with its message. */
  restrictions?: unknown;
  /** `release` or the plugin that brings the role. */
  source?: string;
}

export interface Plugin {
  id: string | number;
  name: string;
  version: string;
  title?: string;
  package_version?: string;
  is_release?: boolean;
}

/** A component as the release lists it (`GET /releases/{id}/components`). */
export interface CatalogEntry {
  name: string;
  label?: string;
  description?: string;
  default?: boolean;
  plugin: { name: string; version: string } | null;
}
