/**
 * `validatePlugin`: load a plugin folder, check each file against its schema for the plugin's
 * package version, then the rules the reference builder had and the ones it lacked (see
 * docs/validator.md for every finding code). Never throws for bad input.
 */
import { finding, hasErrors, type Finding } from '../../core/findings.js';
import type { Release } from '../../core/release/model.js';
import { loadPlugin, type LoadResult } from '../plugin/index.js';
import { linksLeavingPlugin } from '../plugin/links.js';
import { assumePackageVersion } from '../plugin/partial.js';
import { chooseRelease, chosenNote, noReleaseNote } from './release-choice.js';
import { keyPositionOf } from '../../core/positions.js';
import { checkFiles, checkReleaseFiles } from './files.js';
import { checkMetadata, checkPackageVersion } from './metadata.js';
import { checkTasks } from './tasks.js';
import { checkRolesAndVolumes, checkSettingsRestrictions } from './roles.js';
import { checkComponents } from './components.js';
import { checkMultiRelease } from './multi-release.js';
import { checkReleaseGraphs } from './release-graphs.js';
import type { ValidationContext } from './context.js';
import { releasesOfPlugin } from '../release/source.js';
import { conditionsReadingMissingSettings } from '../../core/settings/conditions.js';
import { checkNetworkRoles, type OtherPluginNetworkRoles } from './network-roles.js';

export interface ValidateOptions {
  /** The release to check against (its roles, tasks and volumes become known). */
  release?: Release;
  /**
   * Every release of the source `release` came from (`--release` without `--release-version`):
   * the plugin is checked against the one its metadata.yaml names, `release` when it names none.
   */
  releases?: readonly Release[];
  /**
   * Network roles of the other plugins installed or enabled beside this one: a role this plugin
   * defines differently from one of theirs is an error (they could not be enabled together).
   */
  otherPlugins?: readonly OtherPluginNetworkRoles[];
}

export interface ValidationResult {
  plugin?: { name: string; version: string; package_version: string };
  valid: boolean;
  findings: Finding[];
}

export { checkSchema, schemaValidator, schemasDir } from './schemas.js';
export { closest, editDistance } from './spelling.js';
export { findCycles } from './cycles.js';

/**
 * The package version is unknown (metadata.yaml unreadable, or its package_version missing or not
 * a format): the files, tasks, roles, volumes, components and their cross references are still
 * checked, as the assumed version reads them. What needs the version as the author wrote it
 * (metadata fields, release records, the plugins-v5 package rules) is skipped, and a note says so.
 */
function checkWithAssumedVersion(ctx: ValidationContext): void {
  const assumed = ctx.plugin.assumedPackageVersion;
  if (!assumed) return;
  ctx.assumedVersion = true;
  const files = assumed.because.map((n) => ctx.plugin.filePaths[n] ?? `${n}.yaml`);
  const unreadable = Object.keys(ctx.plugin.metadata).length === 0;
  ctx.findings.push(
    finding(
      'plugin/package-version-assumed',
      'info',
      `${unreadable ? 'metadata.yaml cannot be read' : 'metadata.yaml names no known package_version'}, so the other files were checked as package ${assumed.version}${files.length > 0 ? `, the newest version that reads ${files.join(', ')}` : ' (the plugin has none of the files a later version introduced)'}; ${unreadable ? "metadata.yaml's fields, its releases and " : 'its releases and '}the rules of one package version were not checked`,
      keyPositionOf(ctx.plugin.metadata, 'package_version') ?? { file: 'metadata.yaml', line: 1, column: 1 },
      'fix metadata.yaml first (render a template, set package_version); then every check runs for the version it names',
    ),
  );
  checkFiles(ctx);
  checkTasks(ctx);
  checkRolesAndVolumes(ctx);
  checkSettingsRestrictions(ctx);
  checkComponents(ctx);
}

export function validatePlugin(dir: string, options: ValidateOptions = {}): ValidationResult {
  return validateLoadedPlugin(dir, loadPlugin(dir), options);
}

/**
 * Validates a plugin folder already read by `loadPlugin(dir)`: the server checks a plugin, then
 * against each release it declares, and keeps the plugin and its releases, from one reading of
 * the folder (it read the folder three times, plus once per release). Nothing here changes `loaded`.
 */
export function validateLoadedPlugin(dir: string, loaded: LoadResult, options: ValidateOptions = {}): ValidationResult {
  const findings: Finding[] = [...loaded.findings];
  // Every link in the folder, not only the files Hearth reads: the folder is served and sent as a
  // whole (issue 24). A plugin file the loader already refused as a link out is not named twice.
  findings.push(...linksLeavingPlugin(dir, new Set(loaded.findings.filter((f) => f.code === 'path/outside-plugin' && f.file).map((f) => f.file as string))));
  const plugin = loaded.plugin;
  if (!plugin) {
    // metadata.yaml cannot be read: check every other file with what can be known (issue 18).
    if (loaded.partial) checkWithAssumedVersion({ plugin: loaded.partial, major: Number(loaded.partial.packageVersion[0]), findings, ...(options.release ? { release: options.release } : {}) });
    return { valid: false, findings: inFileOrder(dedupe(findings)) };
  }
  const summary = { name: plugin.name, version: plugin.version, package_version: plugin.packageVersion };
  let release = options.release;
  if (options.releases && options.releases.length > 1 && !plugin.isReleasePlugin) {
    const chosen = chooseRelease(plugin, options.releases);
    release = chosen?.release ?? release ?? options.releases[0];
    findings.push(chosenNote(plugin, chosen, release, options.releases.length));
  }
  if (!release && !plugin.isReleasePlugin) findings.push(noReleaseNote(plugin));
  const ctx: ValidationContext = { plugin, major: Number(plugin.packageVersion[0]), findings, ...(release ? { release } : {}) };
  if (!checkPackageVersion(ctx)) {
    const assumed = assumePackageVersion(plugin.files);
    checkWithAssumedVersion({ ...ctx, plugin: { ...plugin, packageVersion: assumed.version, assumedPackageVersion: assumed }, major: Number(assumed.version[0]) });
  } else {
    checkMetadata(ctx);
    checkFiles(ctx);
    checkReleaseFiles(ctx);
    checkTasks(ctx);
    checkRolesAndVolumes(ctx);
    checkSettingsRestrictions(ctx);
    checkComponents(ctx);
    checkMultiRelease(ctx);
    checkReleaseGraphs(ctx);
    const ownReleases = plugin.isReleasePlugin ? releasesOfPlugin(loaded).releases : [];
    // A release's task conditions must read settings it defines (issue 16: monitoring tasks ran without Monitoring).
    for (const r of ownReleases) findings.push(...conditionsReadingMissingSettings(r.attributes_metadata, r.graphs));
    checkNetworkRoles(ctx, options.otherPlugins, ownReleases);
  }
  const unique = dedupe(findings);
  return { plugin: summary, valid: !hasErrors(unique), findings: inFileOrder(unique) };
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.code}|${f.file}|${f.line}|${f.column}|${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const rank = { error: 0, warning: 1, info: 2 } as const;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * By file, line, column, severity, code. Plain code-unit comparison on purpose: the first
 * `localeCompare` loads ICU collation data, a noticeable part of a one-plugin CLI run.
 */
function inFileOrder(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      cmp(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      rank[a.severity] - rank[b.severity] ||
      cmp(a.code, b.code),
  );
}
