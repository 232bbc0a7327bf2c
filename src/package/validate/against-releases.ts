/**
 * Class 5 of issue 18, on the server: a plugin is validated against each installed release it
 * declares (metadata.yaml's releases, by operating system and version), so what only a release
 * reveals (circles through its graph, references to its tasks, roles and components) is said at
 * install and shown on the plugin's page. Only what the release adds to the validation without it
 * is kept: the rest was already said.
 */
import type { Finding } from '../../core/findings.js';
import type { Release } from '../../core/release/model.js';
import { loadPlugin, type LoadResult } from '../plugin/index.js';
import { chooseRelease } from './release-choice.js';
import { validateLoadedPlugin } from './index.js';

export interface ReleaseValidation {
  release_id: string;
  /** `<name> <version>`, as the Plugins page shows releases. */
  release: string;
  findings: Finding[];
}

// By code and place: the same finding says "release X" rather than "Fuel's core roles" with a release.
const key = (f: Finding) => `${f.code}|${f.file}|${f.line}|${f.column}`;

/** At most this many findings kept per release: the page shows them, the validator gives the rest. */
export const MAX_RELEASE_FINDINGS = 200;

/** `loaded`: the folder as `loadPlugin(dir)` read it, when the caller has it. */
export function validateAgainstReleases(dir: string, releases: ReadonlyArray<{ id: string; release: Release }>, without: readonly Finding[], loaded: LoadResult = loadPlugin(dir)): ReleaseValidation[] {
  const plugin = loaded.plugin;
  if (!plugin || plugin.isReleasePlugin) return [];
  const said = new Set(without.map(key));
  const out: ReleaseValidation[] = [];
  for (const { id, release } of releases) {
    if (!chooseRelease(plugin, [release])) continue; // not a release the plugin is for
    const findings = validateLoadedPlugin(dir, loaded, { release }).findings.filter((f) => f.severity !== 'info' && !said.has(key(f)));
    out.push({ release_id: id, release: `${release.name} ${release.version}`, findings: findings.slice(0, MAX_RELEASE_FINDINGS) });
  }
  return out;
}
