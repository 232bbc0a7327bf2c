/**
 * What reading a plugin folder finds, before the server judges it: the validator's verdict, the
 * loaded plugin and, for a release plugin, its releases. Plain data only (it crosses from the
 * worker of plugin-reader.ts to the request's thread).
 */
import type { Finding } from '../../core/findings.js';
import type { Release } from '../../core/release/model.js';
import { loadPlugin, type LoadedPlugin } from '../../package/plugin/index.js';
import { releasesOfPlugin } from '../../package/release/source.js';
import { validateLoadedPlugin } from '../../package/validate/index.js';
import { validateAgainstReleases, type ReleaseValidation } from '../../package/validate/against-releases.js';

export interface PluginFolderData {
  validation: { findings: Finding[] };
  loaded: { plugin?: LoadedPlugin; findings: Finding[] };
  release?: { releases: Release[]; findings: Finding[] };
  /** What validating against each installed release the plugin declares adds (issue 18, class 5). */
  releaseChecks?: ReleaseValidation[];
}

/**
 * The validator speaks to `hearth plugin validate`: without --release it says what was left
 * unchecked and which flags check it. An install names no flag, and the server checks the plugin
 * against every installed release it declares itself (release_findings), so those notes do not
 * apply there (issue 28): they are left out, and hints lose the flag.
 */
const CLI_NOTES = new Set(['plugin/release-not-given', 'task/dependencies-unchecked']);
function forTheServer(findings: Finding[]): Finding[] {
  return findings
    .filter((f) => !CLI_NOTES.has(f.code))
    .map((f) => (f.hint?.includes(', or pass --release') ? { ...f, hint: f.hint.replace(/, or pass --release to check against a real release/, '') } : f));
}

/** `installed`: the server's releases, each checked against when the plugin declares it. */
export function readPluginFolderData(dir: string, installed: ReadonlyArray<{ id: string; release: Release }> = []): PluginFolderData {
  // One reading of the folder for every question below: a large release plugin's YAML is most of the cost.
  const loaded = loadPlugin(dir);
  const validation = { findings: forTheServer(validateLoadedPlugin(dir, loaded).findings) };
  if (validation.findings.some((f) => f.severity === 'error')) return { validation: { findings: validation.findings }, loaded: { findings: [] } };
  const data: PluginFolderData = { validation: { findings: validation.findings }, loaded: { findings: loaded.findings, ...(loaded.plugin ? { plugin: loaded.plugin } : {}) } };
  if (loaded.plugin?.isReleasePlugin) {
    data.release = releasesOfPlugin(loaded);
  } else if (loaded.plugin && installed.length > 0) {
    data.releaseChecks = validateAgainstReleases(dir, installed, validation.findings, loaded);
  }
  return data;
}
