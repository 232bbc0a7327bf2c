/**
 * Load a plugin folder: metadata.yaml, the top-level plugin files, and (package 5.0.0) every
 * `*_path` key of the release records, with `base_release_path` inheritance. Nothing here judges
 * the content; the validator does. Never throws: what cannot be read becomes a finding.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { readFailure, readYamlFile } from '../yaml/index.js';
import { inside, safeRealpath } from './glob.js';
import { isMapping, putWithPosition } from './merge.js';
import { FOLDER_KEYS, PathContext, resolvePathKeys } from './paths.js';
import type { LoadedPlugin, LoadResult, PluginReleaseRecord } from './model.js';
import { assumePackageVersion, templateSigns } from './partial.js';

export * from './model.js';
export { mergeGlobRoots, deepOverride } from './merge.js';
export { globFiles } from './glob.js';

/** The plugin files Fuel knew, by name without extension, for every package version. */
export const PLUGIN_FILES = [
  'environment_config',
  'tasks',
  'deployment_tasks',
  'node_roles',
  'volumes',
  'network_roles',
  'components',
  'node_config',
  'nic_config',
  'bond_config',
] as const;

const METADATA_NAMES = ['metadata.yaml', 'metadata.yml', 'metadata.json'];

/** Findings of a metadata file that could not be read at all, as opposed to read and not understood. */
const NOT_READ = new Set(['file/unreadable', 'file/not-a-file', 'file/too-large']);

/** The top folder's names, or why it cannot be listed. */
function listTop(root: string): string[] | { error: unknown } {
  try {
    return readdirSync(root).sort();
  } catch (error) {
    return { error };
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function loadPlugin(dir: string): LoadResult {
  const root = resolve(dir);
  const findings: Finding[] = [];
  if (!isDir(root)) {
    findings.push(finding('plugin/not-a-folder', 'error', `'${dir}' is not a folder`, { file: dir, line: 1, column: 1 }, 'name the folder that holds metadata.yaml'));
    return { findings };
  }
  const entries = listTop(root);
  if (!Array.isArray(entries)) {
    // Not "no metadata.yaml": the folder is there, Hearth may not list it.
    findings.push(readFailure(entries.error, dir, { file: dir, line: 1, column: 1 }));
    return { findings };
  }
  const metadataFile = METADATA_NAMES.find((name) => entries.includes(name));
  if (!metadataFile) {
    findings.push(
      finding('plugin/missing-metadata', 'error', 'the folder has no metadata.yaml, so it is not a Fuel plugin', { file: 'metadata.yaml', line: 1, column: 1 }, 'run the command on the folder that holds metadata.yaml'),
    );
    return { findings };
  }
  if (!inside(safeRealpath(root) ?? root, join(root, metadataFile))) {
    findings.push(
      finding('path/outside-plugin', 'error', `'${metadataFile}' is a link to a file outside the plugin folder; Hearth reads nothing outside it`, { file: metadataFile, line: 1, column: 1 }, 'copy the file into the plugin folder instead of linking to it'),
    );
    return { findings, partial: partialPlugin(root, entries, findings) };
  }
  const parsed = readYamlFile(join(root, metadataFile), metadataFile);
  if (!parsed.ok && parsed.findings.some((f) => NOT_READ.has(f.code))) {
    // The file's own problem (permissions, a folder of that name, too large) is the one to report;
    // the rest of the plugin is checked all the same, as for metadata that is not YAML (issue 18).
    findings.push(...parsed.findings.map((f) => (f.code === 'file/not-a-file' && !f.hint ? { ...f, hint: `make ${metadataFile} the plugin's metadata file (name, version, package_version, releases), not a folder or a device` } : f)));
    return { findings, partial: partialPlugin(root, entries, findings) };
  }
  findings.push(...parsed.findings);
  if (!parsed.ok) {
    const { placeholders, makefile } = templateSigns(join(root, metadataFile));
    const names = [...new Set(placeholders.map((p) => p.text))];
    findings.push(
      finding(
        'plugin/metadata-not-yaml',
        'error',
        names.length > 0
          ? `${metadataFile} is not YAML: it still holds build-time placeholders (${names.slice(0, 6).join(', ')}${names.length > 6 ? ', ...' : ''}), so the plugin's name, version and package version are unknown`
          : `${metadataFile} is not YAML${makefile ? ' (it looks like a Makefile)' : ''}, so the plugin's name, version and package version are unknown`,
        placeholders[0] ? { file: metadataFile, line: placeholders[0].line, column: placeholders[0].column } : { file: metadataFile, line: 1, column: 1 },
        'if this is a template (for make, Jinja or similar), render it first and validate the result',
      ),
    );
    return { findings, partial: partialPlugin(root, entries, findings) };
  }
  if (!isMapping(parsed.value)) {
    const what = parsed.value === null ? 'empty' : Array.isArray(parsed.value) ? 'a list' : `a single value (${JSON.stringify(parsed.value).slice(0, 40)})`;
    findings.push(
      finding(
        'plugin/metadata-not-mapping',
        'error',
        `${metadataFile} is ${what}, not a mapping of plugin fields`,
        positionOf(parsed.value) ?? { file: metadataFile, line: 1, column: 1 },
        'write metadata.yaml as `name: ...`, `version: ...`, `package_version: ...` and so on; if it is a template, render it first',
      ),
    );
    return { findings, partial: partialPlugin(root, entries, findings) };
  }
  const metadata = parsed.value;
  const packageVersion = metadata.package_version === undefined || metadata.package_version === null ? '1.0.0' : String(metadata.package_version);

  const { files, filePaths } = readTopFiles(root, entries, findings);

  const ctx = new PathContext(root);
  const rawReleases = Array.isArray(metadata.releases) ? metadata.releases : [];
  const releases: PluginReleaseRecord[] = rawReleases.map((raw, index) => {
    const record = isMapping(raw) ? raw : {};
    const resolved = packageVersion.startsWith('5.') ? (resolvePathKeys(ctx, record) as Record<string, unknown>) : checkFolders(ctx, record);
    if (packageVersion.startsWith('5.')) loadConfFolder(ctx, record, resolved);
    return { index, raw: record, resolved, isRelease: record.is_release === true };
  });
  findings.push(...ctx.findings);

  const plugin: LoadedPlugin = {
    root,
    name: metadata.name === undefined || metadata.name === null ? '' : String(metadata.name),
    version: metadata.version === undefined || metadata.version === null ? '' : String(metadata.version),
    packageVersion,
    metadata,
    files,
    filePaths,
    releases,
    isReleasePlugin: releases.some((r) => r.isRelease),
  };
  return { plugin, findings };
}

/** The plugin files beside metadata.yaml (`*.yaml`, `*.yml`, `*.json` at the top), parsed. */
function readTopFiles(root: string, entries: string[], findings: Finding[]): { files: Record<string, unknown>; filePaths: Record<string, string> } {
  const realRoot = safeRealpath(root) ?? root;
  const files: Record<string, unknown> = {};
  const filePaths: Record<string, string> = {};
  for (const name of entries) {
    const m = /^(.+)\.(ya?ml|json)$/i.exec(name);
    if (!m || METADATA_NAMES.includes(name)) continue;
    const key = m[1];
    // `x.yaml` wins over `x.yml`, in sorted order. `__proto__.yaml` would replace the prototype of
    // `files` (and `constructor.yaml` would look present already), so own keys only.
    if (Object.hasOwn(files, key) || key === '__proto__') continue;
    const path = join(root, name);
    if (isDir(path)) continue;
    if (!inside(realRoot, path)) {
      findings.push(
        finding('path/outside-plugin', 'error', `'${name}' is a link to a file outside the plugin folder; Hearth reads nothing outside it`, { file: name, line: 1, column: 1 }, 'copy the file into the plugin folder instead of linking to it'),
      );
      continue;
    }
    const read = readYamlFile(path, name);
    findings.push(...read.findings);
    files[key] = read.ok ? read.value : undefined;
    filePaths[key] = name;
  }
  return { files, filePaths };
}

/**
 * What can be known without metadata.yaml: the other top-level files, under the newest package
 * version that introduced one of them (partial.ts). No release records, so no `*_path` files.
 */
function partialPlugin(root: string, entries: string[], findings: Finding[]): LoadedPlugin {
  const { files, filePaths } = readTopFiles(root, entries, findings);
  const assumed = assumePackageVersion(files);
  return { root, name: '', version: '', packageVersion: assumed.version, metadata: {}, files, filePaths, releases: [], isReleasePlugin: false, assumedPackageVersion: assumed };
}

/** Packages before 5.0.0 only name two folders per release; check they exist, load nothing. */
function checkFolders(ctx: PathContext, record: Record<string, unknown>): Record<string, unknown> {
  for (const key of ['deployment_scripts_path', 'repository_path']) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    const abs = ctx.within(value, record, key);
    if (abs && !isDir(abs)) {
      let exists = true;
      try {
        statSync(abs);
      } catch {
        exists = false;
      }
      if (!exists) {
        ctx.findings.push(
          finding('release/missing-folder', 'error', `the folder '${value}' named by ${key} does not exist`, keyPositionOf(record, key), 'create the folder (it may stay empty until the package is built), or fix the path'),
        );
      }
    }
  }
  return record;
}

/**
 * Per-release folders (plugins-v5 "variant 3"): `conf_path: folder/` holds the release's own copy
 * of any plugin file; files missing there come from the plugin root, as the design says.
 */
function loadConfFolder(ctx: PathContext, raw: Record<string, unknown>, resolved: Record<string, unknown>): void {
  const conf = raw.conf_path;
  if (typeof conf !== 'string' || !FOLDER_KEYS.has('conf_path')) return;
  const abs = ctx.within(conf, raw, 'conf_path');
  if (!abs) return;
  if (!isDir(abs)) {
    ctx.findings.push(finding('path/missing', 'error', `the folder '${conf}' named by conf_path does not exist`, keyPositionOf(raw, 'conf_path'), 'create the folder, or fix the path'));
    return;
  }
  for (const name of PLUGIN_FILES) {
    if (name in resolved) continue;
    for (const ext of ['yaml', 'yml', 'json']) {
      const file = join(abs, `${name}.${ext}`);
      try {
        if (!statSync(file).isFile()) continue;
      } catch {
        continue;
      }
      const read = ctx.readData(file);
      if (read.ok) putWithPosition(resolved, name, read.value, raw, 'conf_path');
      break;
    }
  }
}
