/**
 * `hearth-package.json`: what a package says about itself. It names the plugin and lists a sha256
 * for every file, so the reader can prove the package holds exactly what the builder put in.
 */
import { createHash } from 'node:crypto';
import { isPluginName, isPluginVersion } from '../../core/names/index.js';

export const MANIFEST_FORMAT = 'hearth-package/1';

export interface ManifestRelease {
  /** `os` or `operating_system` as written. */
  os?: string;
  version?: string;
  /** `release_name` or `name` of an `is_release` record. */
  name?: string;
  is_release?: boolean;
}

export interface PackageManifest {
  format: typeof MANIFEST_FORMAT;
  name: string;
  version: string;
  package_version: string;
  releases: ManifestRelease[];
  /** Relative path → sha256 (hex) of every packaged file, the manifest itself excepted. Sorted by path. */
  files: Record<string, string>;
  /** `hearth` for Hearth's packages; `fuel-plugin-builder` (version unknown, '') for a Fuel .fp or RPM. */
  builder: { name: 'hearth' | 'fuel-plugin-builder'; version: string };
  /** Only for a package Fuel Plugin Builder made: which kind, and the RPM's name-version-release. */
  fuel?: { format: 'fp' | 'rpm'; rpm?: string };
}

export const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

// Hearth's own version lives beside its root (no node:crypto for `hearth --version`); kept here too for the builder.
export { hearthVersion } from '../root.js';

/** The release records of metadata.yaml, reduced to what identifies them. */
export function manifestReleases(metadata: Record<string, unknown>): ManifestRelease[] {
  const releases = Array.isArray(metadata.releases) ? metadata.releases : [];
  return releases
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r))
    .map((r) => {
      const out: ManifestRelease = {};
      const os = r.os ?? r.operating_system;
      if (typeof os === 'string') out.os = os;
      if (r.version !== undefined && r.version !== null) out.version = String(r.version);
      const name = r.release_name ?? r.name;
      if (typeof name === 'string') out.name = name;
      if (r.is_release === true) out.is_release = true;
      return out;
    });
}

export function serialiseManifest(manifest: PackageManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
}

/** A reason the parsed manifest is unusable, or undefined when its shape is right. */
export function manifestProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not a JSON object';
  const m = value as Record<string, unknown>;
  if (m.format !== MANIFEST_FORMAT) return `its format is ${JSON.stringify(m.format)}, not "${MANIFEST_FORMAT}"`;
  for (const key of ['name', 'version', 'package_version'] as const) {
    if (typeof m[key] !== 'string' || m[key] === '') return `"${key}" is missing or not a string`;
  }
  if (!isPluginName(m.name)) return `"name" ${JSON.stringify(m.name)} is not a valid plugin name`;
  if (!isPluginVersion(m.version)) return `"version" ${JSON.stringify(m.version)} is not a plain version string`;
  if (!Array.isArray(m.releases)) return '"releases" is not a list';
  if (typeof m.files !== 'object' || m.files === null || Array.isArray(m.files)) return '"files" is not an object';
  for (const [path, digest] of Object.entries(m.files as Record<string, unknown>)) {
    if (typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest)) return `the checksum of ${JSON.stringify(path)} is not a sha256 in hex`;
  }
  const builder = m.builder as Record<string, unknown> | undefined;
  if (typeof builder !== 'object' || builder === null || typeof builder.version !== 'string') return '"builder" is missing its version';
  return undefined;
}
