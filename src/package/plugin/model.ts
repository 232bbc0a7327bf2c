/**
 * A plugin folder as loaded from disk: every file parsed once (positions kept, see
 * core/positions), `*_path` keys resolved, `base_release_path` inheritance applied.
 * The validator, release composition and the builder all start from this.
 */
import type { Finding } from '../../core/findings.js';

export const PACKAGE_VERSIONS = ['1.0.0', '2.0.0', '3.0.0', '4.0.0', '5.0.0'] as const;
export type PackageVersion = (typeof PACKAGE_VERSIONS)[number];

export interface PluginReleaseRecord {
  /** Index in `metadata.releases`, for messages. */
  index: number;
  /** The record as written in metadata.yaml (positions available through core/positions). */
  raw: Record<string, unknown>;
  /**
   * The record with every `*_path` key loaded (a file's parsed content under the key without
   * `_path`; a folder kept as its relative path; a glob's matches merged) and `base_release_path`
   * inheritance applied. `graphs` entries have their `*_path`s loaded too.
   */
  resolved: Record<string, unknown>;
  /** True for `is_release: true` records: the record defines a release rather than extending one. */
  isRelease: boolean;
}

export interface LoadedPlugin {
  /** Absolute path of the plugin folder. */
  root: string;
  name: string;
  version: string;
  /** As written in metadata.yaml (`package_version`), defaulting to 1.0.0 as Fuel did. */
  packageVersion: string;
  /** metadata.yaml as parsed. */
  metadata: Record<string, unknown>;
  /**
   * Top-level plugin files by name without extension, as parsed: `environment_config`,
   * `tasks`, `deployment_tasks`, `node_roles`, `volumes`, `network_roles`, `components`,
   * `node_config`, `nic_config`, `bond_config`, and any other `*.yaml` at the top.
   * Absent when the file does not exist.
   */
  files: Record<string, unknown>;
  /** Relative path of each entry in `files` (for messages), e.g. `node_roles.yaml`. */
  filePaths: Record<string, string>;
  releases: PluginReleaseRecord[];
  /** True when any release record has `is_release: true`. */
  isReleasePlugin: boolean;
  /**
   * Set when the package version could not be read (metadata.yaml unreadable): `packageVersion`
   * is then this assumption (the newest version that introduced a file present), not the author's.
   */
  assumedPackageVersion?: { version: PackageVersion; because: string[] };
}

export interface LoadResult {
  /** Undefined only when nothing usable could be read (no metadata.yaml, or not YAML). */
  plugin?: LoadedPlugin;
  findings: Finding[];
  /**
   * When metadata.yaml cannot be read (not YAML, or not a mapping) and `plugin` is therefore
   * absent: the other files, loaded for the validator to check what it still can. Nothing else
   * (build, install, composition) may use a plugin without its metadata.
   */
  partial?: LoadedPlugin;
}
