/**
 * `hearth plugin build`: hook → validate → collect files → index repositories → write one
 * reproducible `<name>-<version>.tar.gz` with its manifest. The author's folder is only read; the
 * hook is the one thing allowed to change it, and repository indexes are made in a staging copy.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isPluginName, isPluginVersion } from '../../core/names/index.js';
import { finding, hasErrors, type Finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import { readYamlFile } from '../yaml/index.js';
import { collectPluginFiles, MANIFEST_FILE } from './files.js';
import { runPreBuildHook, type OutputSink } from './hook.js';
import { hearthVersion, manifestReleases, MANIFEST_FORMAT, serialiseManifest, sha256, type PackageManifest } from './manifest.js';
import { indexRepositories, repositoryFolders } from './repositories.js';
import { reproducibleMtime, writeTarGz, type TarEntry } from './tar.js';

export interface ValidationOutcome {
  valid: boolean;
  findings: Finding[];
}
export type PluginValidator = (dir: string) => Promise<ValidationOutcome> | ValidationOutcome;

export type BuildStep = 'hook' | 'validate' | 'collect' | 'repositories' | 'package';
export interface BuildEvent {
  step: BuildStep;
  state: 'start' | 'done' | 'skipped' | 'failed';
  detail?: string;
}

export interface BuildOptions {
  /** Folder for the package (created if missing); default: the plugin folder, as Fuel's builder did. */
  outDir?: string;
  /** SOURCE_DATE_EPOCH and PATH are read from here (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Default: the plugin validator of src/package/validate. */
  validate?: PluginValidator;
  /** Set false to skip pre_build_hook (tests, and rebuilding what a hook already produced). */
  runHook?: boolean;
  onEvent?: (event: BuildEvent) => void;
  /** Where the hook's output goes (default: this process's stderr). */
  onHookOutput?: OutputSink;
}

export interface BuildResult {
  ok: boolean;
  /** Absolute path of the written package. */
  path?: string;
  size?: number;
  sha256?: string;
  manifest?: PackageManifest;
  findings: Finding[];
  /** Set when pre_build_hook failed: its exit status, for the CLI to pass on. */
  hookExitCode?: number;
}


async function defaultValidator(dir: string): Promise<ValidationOutcome> {
  const { validatePlugin } = await import('../validate/index.js');
  const result = validatePlugin(dir);
  return { valid: result.valid, findings: result.findings };
}

export async function buildPlugin(pluginDir: string, options: BuildOptions = {}): Promise<BuildResult> {
  const root = resolve(pluginDir);
  const env = options.env ?? process.env;
  const emit = options.onEvent ?? (() => {});
  const findings: Finding[] = [];
  const stop = (step: BuildStep, extra: Partial<BuildResult> = {}): BuildResult => {
    emit({ step, state: 'failed' });
    return { ok: false, findings, ...extra };
  };

  if (!existsSync(join(root, 'metadata.yaml'))) {
    findings.push(finding('build/not-a-plugin', 'error', `'${pluginDir}' has no metadata.yaml, so it is not a plugin folder`, { file: 'metadata.yaml' }, 'Give the folder that holds metadata.yaml, or create one with `hearth plugin create`.'));
    return { ok: false, findings };
  }

  if (options.runHook === false) emit({ step: 'hook', state: 'skipped', detail: 'not requested' });
  else {
    emit({ step: 'hook', state: 'start' });
    const hook = await runPreBuildHook(root, options.onHookOutput ?? ((chunk) => process.stderr.write(chunk)));
    findings.push(...hook.findings);
    if (hasErrors(hook.findings)) return stop('hook', { hookExitCode: hook.exitCode });
    emit({ step: 'hook', state: hook.ran ? 'done' : 'skipped', detail: hook.ran ? undefined : 'no executable pre_build_hook' });
  }

  emit({ step: 'validate', state: 'start' });
  const validation = await (options.validate ?? defaultValidator)(root);
  findings.push(...validation.findings);
  if (!validation.valid || hasErrors(validation.findings)) return stop('validate');
  emit({ step: 'validate', state: 'done', detail: `${validation.findings.length} finding(s), no errors` });

  const meta = readYamlFile(join(root, 'metadata.yaml'), 'metadata.yaml');
  const metadata = (meta.value ?? {}) as Record<string, unknown>;
  const name = metadata.name;
  const version = metadata.version === undefined || metadata.version === null ? undefined : String(metadata.version);
  if (!isPluginName(name)) {
    findings.push(finding('build/bad-name', 'error', `the plugin name ${JSON.stringify(name)} cannot name a package`, { file: 'metadata.yaml', ...positionOf(metadata, 'name') }, 'Use lower-case letters, digits, "_" and "-".'));
    return stop('validate');
  }
  if (!isPluginVersion(version)) {
    findings.push(finding('build/bad-version', 'error', `the plugin version ${JSON.stringify(version)} cannot name a package file`, { file: 'metadata.yaml', ...positionOf(metadata, 'version') }, 'Use a version such as 1.0.0.'));
    return stop('validate');
  }

  emit({ step: 'collect', state: 'start' });
  const outDir = resolve(options.outDir ?? root);
  const collected = collectPluginFiles(root, { exclude: outDir === root ? [] : [outDir] });
  findings.push(...collected.findings);
  if (hasErrors(collected.findings)) return stop('collect');
  let entries = collected.entries;
  emit({ step: 'collect', state: 'done', detail: `${entries.filter((e) => e.type === 'file').length} files` });

  const folders = repositoryFolders(metadata, (rel) => entries.some((e) => e.type === 'dir' && e.path === rel));
  const needsIndex = folders.some((f) => entries.some((e) => e.type === 'file' && e.path.startsWith(`${f.path}/`) && /\.(deb|rpm)$/.test(e.path)));
  if (!needsIndex) emit({ step: 'repositories', state: 'skipped', detail: 'no .deb or .rpm packages' });
  else {
    emit({ step: 'repositories', state: 'start' });
    const staging = mkdtempSync(join(tmpdir(), 'hearth-build-'));
    try {
      writeEntries(staging, entries);
      const repoFindings = indexRepositories(staging, folders, { name, version, env, onLine: (detail) => emit({ step: 'repositories', state: 'start', detail }) });
      findings.push(...repoFindings);
      if (hasErrors(repoFindings)) return stop('repositories');
      entries = collectPluginFiles(staging).entries;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    emit({ step: 'repositories', state: 'done' });
  }

  emit({ step: 'package', state: 'start' });
  const top = `${name}-${version}`;
  const files: Record<string, string> = {};
  for (const e of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) if (e.type === 'file') files[e.path] = sha256(e.data ?? Buffer.alloc(0));
  const manifest: PackageManifest = {
    format: MANIFEST_FORMAT,
    name,
    version,
    package_version: String(metadata.package_version ?? '1.0.0'),
    releases: manifestReleases(metadata),
    files,
    builder: { name: 'hearth', version: hearthVersion() },
  };
  const tarEntries: TarEntry[] = [
    { path: top, type: 'dir' },
    ...entries.map((e) => ({ ...e, path: `${top}/${e.path}` })),
    { path: `${top}/${MANIFEST_FILE}`, type: 'file', data: serialiseManifest(manifest) },
  ];
  const bytes = writeTarGz(tarEntries, reproducibleMtime(env));
  const path = join(outDir, `${top}.tar.gz`);
  mkdirSync(outDir, { recursive: true });
  // Write beside the target and rename, so a reader never sees half a package.
  const partial = join(dirname(path), `.${top}.tar.gz.partial-${process.pid}`);
  writeFileSync(partial, bytes);
  renameSync(partial, path);
  const digest = sha256(bytes);
  emit({ step: 'package', state: 'done', detail: path });
  return { ok: true, path, size: statSync(path).size, sha256: digest, manifest, findings };
}

function writeEntries(root: string, entries: readonly TarEntry[]): void {
  for (const e of entries) {
    const target = join(root, ...e.path.split('/'));
    if (e.type === 'dir') mkdirSync(target, { recursive: true });
    else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, e.data ?? Buffer.alloc(0), { mode: e.executable ? 0o755 : 0o644 });
    }
  }
}
