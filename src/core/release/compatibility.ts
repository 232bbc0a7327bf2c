/**
 * Does a plugin extend this release? Fuel's rule: same operating system (case aside), and the
 * release version starts with the plugin's, side by side (`2014.2-6.0` accepts `2014.2.1-6.0.1`).
 * A release may also accept the plugins of older Fuel versions it keeps compatible with.
 */
import type { Release } from './model.js';
import type { PluginContribution, PluginReleaseSupport } from './plugin.js';

export interface Compatibility {
  applies: boolean;
  reason: string;
  /** The release version the plugin matched (its own, or one of `compatible_versions`). */
  matchedVersion?: string;
  entry?: PluginReleaseSupport;
}

function splitVersion(version: string): [string, string] {
  const at = version.indexOf('-');
  return at < 0 ? [version, ''] : [version.slice(0, at), version.slice(at + 1)];
}

export function versionAccepts(releaseVersion: string, pluginVersion: string): boolean {
  const [relOs, relFuel] = splitVersion(releaseVersion.trim().toLowerCase());
  const [plugOs, plugFuel] = splitVersion(pluginVersion.trim().toLowerCase());
  if (plugOs === '') return false;
  return relOs.startsWith(plugOs) && relFuel.startsWith(plugFuel);
}

function modeFits(release: Release, entry: PluginReleaseSupport): boolean {
  if (!entry.mode?.length || !release.modes?.length) return true;
  return entry.mode.some((m) => release.modes!.some((r) => r.startsWith(m)));
}

export function pluginCompatibility(plugin: PluginContribution, release: Release): Compatibility {
  const os = release.operating_system.toLowerCase();
  const versions = [release.version, ...(release.compatible_versions ?? [])];
  for (const version of versions) {
    for (const entry of plugin.releases) {
      if (entry.os.toLowerCase() !== os || !versionAccepts(version, entry.version) || !modeFits(release, entry)) continue;
      const via = version === release.version ? '' : ` (which this release keeps compatible with)`;
      return { applies: true, reason: `extends ${entry.os}/${entry.version}${via}`, matchedVersion: version, entry };
    }
  }
  const listed = plugin.releases.map((r) => `${r.os}/${r.version}`).join(', ') || 'no release';
  return { applies: false, reason: `does not support ${release.operating_system} ${versions.join(' or ')} (it lists ${listed})` };
}
