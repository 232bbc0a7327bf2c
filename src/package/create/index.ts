/**
 * `hearth plugin create`: write a plugin skeleton that validates cleanly, for any package version,
 * or a release plugin. An existing path is never touched.
 */
import { lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { PACKAGE_VERSIONS, type PackageVersion } from '../plugin/model.js';
import { releaseSkeleton } from './release-template.js';
import { pluginSkeleton, type Skeleton } from './templates.js';
import { schemaFileFor } from '../validate/files.js';

export { pluginSkeleton, type Skeleton, type SkeletonFile } from './templates.js';
export { releaseSkeleton } from './release-template.js';

export const PLUGIN_NAME_PATTERN = /^[a-z0-9_-]+$/;
export const DEFAULT_PACKAGE_VERSION: PackageVersion = '5.0.0';

export interface CreateOptions {
  packageVersion?: string;
  releasePlugin?: boolean;
  /** Folder the plugin folder is created in (default: the current folder). */
  parentDir?: string;
}

export interface CreateResult {
  ok: boolean;
  /** Absolute path of the new plugin folder. */
  dir?: string;
  /** Relative paths written, sorted. */
  files: string[];
  findings: Finding[];
  /** True when the problem is in the request itself (bad name, version or existing folder): exit 2. */
  usage: boolean;
}

/** The skeleton for a request, or a finding saying why there is none. No I/O. */
export function skeletonFor(name: string, options: CreateOptions = {}): { skeleton?: Skeleton; findings: Finding[] } {
  if (!PLUGIN_NAME_PATTERN.test(name)) {
    return { findings: [finding('create/invalid-name', 'error', `the plugin name '${name}' is invalid`, undefined, 'Use only lower-case letters, digits, "_" and "-" (the name becomes part of file and package names).')] };
  }
  const version = options.packageVersion ?? DEFAULT_PACKAGE_VERSION;
  if (!(PACKAGE_VERSIONS as readonly string[]).includes(version)) {
    return { findings: [finding('create/unknown-package-version', 'error', `there is no package version '${version}'`, undefined, `Choose one of ${PACKAGE_VERSIONS.join(', ')}.`)] };
  }
  if (options.releasePlugin && version !== '5.0.0') {
    return { findings: [finding('create/release-plugin-version', 'error', `release plugins need package version 5.0.0, not ${version}`, undefined, 'Leave out --package-version, or use 5.0.0.')] };
  }
  const pkg = version as PackageVersion;
  if (!options.releasePlugin) return { skeleton: pluginSkeleton(name, pkg), findings: [] };
  // A release plugin keeps the shared files (licence, readme, hook) and defines everything else per release.
  const shared = pluginSkeleton(name, pkg);
  const skeleton: Skeleton = new Map();
  for (const path of ['LICENSE', 'README.md', 'pre_build_hook']) skeleton.set(path, shared.get(path)!);
  for (const [path, file] of releaseSkeleton(name)) skeleton.set(path, file);
  return { skeleton, findings: [] };
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Where Hearth's JSON Schemas are published (the server serves the same files at /schemas/). */
export const PUBLISHED_SCHEMAS = 'https://raw.githubusercontent.com/hearth-cloud/hearth/main/schemas/';

/**
 * A first line that tells editors (the YAML language server in VS Code, Neovim, IntelliJ) which
 * schema each file follows, so authors get completion and hover help as they type.
 */
function withSchemaLines(skeleton: Skeleton, packageVersion: string): void {
  const major = Number(packageVersion.split('.')[0]);
  for (const [path, file] of skeleton) {
    if (file.text === undefined || path.includes('/') || !path.endsWith('.yaml')) continue;
    const schema = schemaFileFor(path.slice(0, -'.yaml'.length), major, packageVersion);
    if (schema) skeleton.set(path, { ...file, text: `# yaml-language-server: $schema=${PUBLISHED_SCHEMAS}${schema}\n${file.text}` });
  }
}

export function createPlugin(name: string, options: CreateOptions = {}): CreateResult {
  const dir = resolve(options.parentDir ?? '.', name);
  // The existing-folder check comes first, as in Fuel's builder: it is the more useful message.
  if (PLUGIN_NAME_PATTERN.test(name) && exists(dir)) {
    return { ok: false, files: [], usage: true, findings: [finding('create/exists', 'error', `'${dir}' already exists; nothing was written`, undefined, 'Choose another name, or another --dir.')] };
  }
  const { skeleton, findings } = skeletonFor(name, options);
  if (!skeleton) return { ok: false, files: [], usage: true, findings };
  try {
    mkdirSync(dir, { recursive: false });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const hint = e.code === 'ENOENT' ? 'The parent folder does not exist; create it first.' : undefined;
    return { ok: false, files: [], usage: true, findings: [finding('create/cannot-write', 'error', `cannot create '${dir}': ${e.message}`, undefined, hint)] };
  }
  const written: string[] = [];
  if (!options.releasePlugin) withSchemaLines(skeleton, options.packageVersion ?? DEFAULT_PACKAGE_VERSION);
  try {
    for (const [path, file] of [...skeleton].sort(([a], [b]) => a.localeCompare(b))) {
      const target = join(dir, ...path.split('/'));
      if (file.text === undefined) {
        mkdirSync(target, { recursive: true });
        // Keep empty folders in git; packages leave hidden files out.
        writeFileSync(join(target, '.gitkeep'), '');
      } else {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, file.text, { mode: file.executable ? 0o755 : 0o644, flag: 'wx' });
      }
      written.push(path);
    }
  } catch (err) {
    // The folder is ours (we just made it), so a half-written skeleton can go.
    rmSync(dir, { recursive: true, force: true });
    return { ok: false, files: [], usage: false, findings: [finding('create/cannot-write', 'error', `writing the skeleton failed: ${(err as Error).message}`)] };
  }
  return { ok: true, dir, files: written, findings: [], usage: false };
}
