/**
 * `hearth plugin inspect`: open a package with the strict reader, load the plugin it holds, and
 * say what is in it (releases, roles, components, tasks). The unpacked copy is always removed.
 */
import type { Finding } from '../../core/findings.js';
import type { LoadedPlugin } from '../plugin/model.js';
import type { ManifestRelease, PackageManifest } from './manifest.js';
import { readPackage, type ReadPackageOptions } from './read.js';
import { filesTheVersionReads } from '../plugin/file-versions.js';

export interface PackageSummary {
  name: string;
  version: string;
  packageVersion: string;
  builderVersion: string;
  /** Who built it: `hearth`, or `fuel-plugin-builder` for a Fuel .fp or RPM. */
  builder?: string;
  /** For a Fuel package: `fp`, or `rpm` with the RPM's name-version-release. */
  fuel?: { format: 'fp' | 'rpm'; rpm?: string };
  releases: ManifestRelease[];
  files: number;
  roles: string[];
  components: string[];
  /** Task counts by source: `deployment_tasks`, `tasks` (legacy), `graph:<type>` for release graphs. */
  tasks: Record<string, number>;
  isReleasePlugin: boolean;
}

export interface InspectResult {
  ok: boolean;
  manifest?: PackageManifest;
  summary?: PackageSummary;
  findings: Finding[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function componentNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((c) => c.name).filter((n): n is string => typeof n === 'string');
}

/** What a loaded plugin defines, across its top-level files and release records. */
export function summarisePlugin(plugin: LoadedPlugin, manifest: PackageManifest): PackageSummary {
  const roles = new Set<string>();
  const components = new Set<string>();
  const tasks: Record<string, number> = {};
  const count = (key: string, value: unknown): void => {
    if (Array.isArray(value)) tasks[key] = (tasks[key] ?? 0) + value.length;
  };
  // What the package version reads, as installing it composes it (a 3.0.0 components.yaml offers nothing).
  const files = filesTheVersionReads(plugin.files, plugin.packageVersion);
  if (isRecord(files.node_roles)) for (const r of Object.keys(files.node_roles)) roles.add(r);
  for (const c of componentNames(files.components)) components.add(c);
  count('deployment_tasks', files.deployment_tasks);
  count('tasks', files.tasks);
  for (const release of plugin.releases) {
    const r = release.resolved;
    if (isRecord(r.roles)) for (const role of Object.keys(r.roles)) roles.add(role);
    for (const c of componentNames(r.components)) components.add(c);
    if ('deployment_tasks_path' in release.raw) count(`release ${release.index}:deployment_tasks`, r.deployment_tasks);
    if (Array.isArray(r.graphs)) {
      for (const g of r.graphs.filter(isRecord)) count(`graph:${typeof g.type === 'string' ? g.type : 'default'}`, g.tasks);
    }
  }
  return {
    name: manifest.name,
    version: manifest.version,
    packageVersion: manifest.package_version,
    builderVersion: manifest.builder.version,
    builder: manifest.builder.name,
    ...(manifest.fuel ? { fuel: manifest.fuel } : {}),
    releases: manifest.releases,
    files: Object.keys(manifest.files).length,
    roles: [...roles].sort(),
    components: [...components].sort(),
    tasks,
    isReleasePlugin: plugin.isReleasePlugin,
  };
}

export async function inspectPackage(file: string, options: Omit<ReadPackageOptions, 'verifyOnly'> = {}): Promise<InspectResult> {
  const read = await readPackage(file, options);
  if (!read.ok || !read.dir || !read.manifest) return { ok: false, manifest: read.manifest, findings: read.findings };
  try {
    const { loadPlugin } = await import('../plugin/index.js');
    const loaded = loadPlugin(read.dir);
    const findings = [...read.findings, ...loaded.findings];
    if (!loaded.plugin) return { ok: false, manifest: read.manifest, findings };
    return { ok: true, manifest: read.manifest, summary: summarisePlugin(loaded.plugin, read.manifest), findings };
  } finally {
    await read.cleanup();
  }
}
