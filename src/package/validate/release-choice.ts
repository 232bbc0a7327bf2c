/**
 * Class 5 of issue 18: release-aware by default. Without `--release` the checks that need a
 * release (cycles through its graph, references to its tasks, roles and components) cannot run:
 * one note says so and gives the exact flags to add. With a release source holding several
 * releases (Fuel's openstack.yaml holds three) and no `--release-version`, the plugin is checked
 * against the one its metadata.yaml's releases name (operating system and version).
 */
import { join } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { keyPositionOf } from '../../core/positions.js';
import type { Release } from '../../core/release/model.js';
import type { LoadedPlugin } from '../plugin/model.js';
import { packageRoot } from '../root.js';
import { isMapping } from './context.js';

interface Declared {
  index: number;
  os: string;
  version: string;
}

function declared(plugin: LoadedPlugin): Declared[] {
  const out: Declared[] = [];
  for (const r of plugin.releases) {
    if (r.isRelease || !isMapping(r.raw)) continue;
    if (typeof r.raw.version === 'string' || typeof r.raw.version === 'number') out.push({ index: r.index, os: typeof r.raw.os === 'string' ? r.raw.os : '', version: String(r.raw.version) });
  }
  return out;
}

const fitsVersion = (release: Release, version: string) => release.version === version || (release.compatible_versions ?? []).includes(version);
const fitsOs = (release: Release, os: string) => os === '' || release.operating_system.toLowerCase() === os.toLowerCase();

/**
 * Among several releases, the one the plugin declares: an available one before an unavailable one,
 * in the source's order. Undefined when the plugin names none of them (the caller keeps its pick).
 */
export function chooseRelease(plugin: LoadedPlugin, releases: readonly Release[]): { release: Release; record: Declared } | undefined {
  const wanted = declared(plugin);
  let fallback: { release: Release; record: Declared } | undefined;
  for (const release of releases) {
    const record = wanted.find((d) => fitsVersion(release, d.version) && fitsOs(release, d.os));
    if (!record) continue;
    if (release.state !== 'unavailable') return { release, record };
    fallback ??= { release, record };
  }
  return fallback;
}

/** The note saying which of several releases was used, and why. */
export function chosenNote(plugin: LoadedPlugin, chosen: { release: Release; record: Declared } | undefined, release: Release, count: number): Finding {
  const at = keyPositionOf(plugin.metadata, 'releases') ?? { file: 'metadata.yaml', line: 1, column: 1 };
  const label = `'${release.name}' (${release.version}, ${release.operating_system})`;
  return chosen
    ? finding('plugin/release-chosen', 'info', `the release source holds ${count} releases; checked against ${label}, the one metadata.yaml's releases[${chosen.record.index}] (${chosen.record.os || 'any os'}, ${chosen.record.version}) names`, at, 'pass --release-version to check against another one')
    : finding('plugin/release-not-declared', 'info', `the release source holds ${count} releases and metadata.yaml's releases name none of them; checked against ${label}`, at, `pass --release-version with one of the versions metadata.yaml lists (${declared(plugin).map((d) => d.version).join(', ') || 'none'})`);
}

/** Without --release: what was not checked, and the exact flags that check it. */
export function noReleaseNote(plugin: LoadedPlugin): Finding {
  const versions = [...new Set(declared(plugin).map((d) => d.version))];
  const version = versions[0];
  let bundled = '';
  try {
    bundled = join(packageRoot(), 'release');
  } catch {
    bundled = '';
  }
  const fixture = `--release <fuel-web>/nailgun/nailgun/fixtures/openstack.yaml --tasks <fuel-library>${version ? ` --release-version ${version}` : ''}`;
  return finding(
    'plugin/release-not-given',
    'info',
    'checked without a release: circles that close through the release\'s tasks, and names of the release\'s tasks, roles and components (cross-depends, tasks: lists, tasks that run nowhere, component rules), were not checked',
    keyPositionOf(plugin.metadata, 'releases') ?? { file: 'metadata.yaml', line: 1, column: 1 },
    `add ${fixture} (Fuel's release and its library's tasks${versions.length > 1 ? `; the plugin also names ${versions.slice(1).join(', ')}` : ''})${bundled ? `, or --release ${bundled} (Hearth's bundled release, which accepts mitaka-9.0 plugins)` : ''}`,
  );
}
