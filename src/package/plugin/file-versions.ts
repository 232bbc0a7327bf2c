/**
 * Which top-level files each package version reads (Nailgun's loaders for 1.0.0 to 5.0.0, the
 * reference builder's file matrix, research/fpb.md §2.1). A file a version does not read is
 * ignored everywhere, as Fuel did: a `components.yaml` in a 3.0.0 package offers no component and
 * a `node_roles.yaml` in 2.0.0 no role, so a package means the same in Hearth and in Fuel. The
 * validator names each such file (`plugin/file-ignored`, `plugin/tasks-yaml-not-empty`).
 */

/** First major package version that reads each file, and the last when a later one stopped. */
export const FILE_VERSIONS: Readonly<Record<string, { since: number; until?: number }>> = {
  environment_config: { since: 1 },
  // plugins-v5: "tasks.yaml file is deprecated and its content will be ignored".
  tasks: { since: 1, until: 4 },
  deployment_tasks: { since: 3 },
  network_roles: { since: 3 },
  node_roles: { since: 3 },
  volumes: { since: 3 },
  components: { since: 4 },
  node_config: { since: 5 },
  nic_config: { since: 5 },
  bond_config: { since: 5 },
};

/** True when a package of this major version reads the file (files Fuel never knew are kept). */
export function versionReads(name: string, major: number): boolean {
  const rule = FILE_VERSIONS[name];
  return !rule || (major >= rule.since && (rule.until === undefined || major <= rule.until));
}

/** The plugin's files without those its package version does not read. */
export function filesTheVersionReads(files: Record<string, unknown>, packageVersion: string): Record<string, unknown> {
  const major = Number(packageVersion.split('.')[0]);
  if (!Number.isFinite(major)) return files;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(files)) if (versionReads(name, major)) out[name] = value;
  return out;
}
