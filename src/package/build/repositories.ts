/**
 * Package repositories shipped inside a plugin (`repositories/ubuntu`, `repositories/centos`, or a
 * release's `repository_path`): when they hold .deb or .rpm files, nodes need an index to install
 * from them. Like Fuel's builder we generate it with the distribution's own tools, and say plainly
 * when those tools are missing rather than shipping a repository nobody can use.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { finding, type Finding } from '../../core/findings.js';

export type RepositoryKind = 'ubuntu' | 'centos';

export interface RepositoryFolder {
  /** Relative to the plugin root, `/` separated, no trailing slash. */
  path: string;
  kind: RepositoryKind;
}

export const INSTALL_HINT =
  'Install the repository tools: on Ubuntu/Debian `sudo apt-get install dpkg-dev createrepo-c`, on CentOS/RHEL `sudo yum install dpkg-dev createrepo_c`.';

export function findTool(names: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** The repository folders a plugin declares or has by convention, each with the kind of packages it serves. */
export function repositoryFolders(metadata: Record<string, unknown>, hasFolder: (rel: string) => boolean): RepositoryFolder[] {
  const found = new Map<string, RepositoryKind>();
  const releases = Array.isArray(metadata.releases) ? metadata.releases : [];
  for (const r of releases) {
    if (typeof r !== 'object' || r === null) continue;
    const record = r as Record<string, unknown>;
    const os = String(record.os ?? record.operating_system ?? '').toLowerCase();
    const path = typeof record.repository_path === 'string' ? normaliseRel(record.repository_path) : undefined;
    if (!path || !hasFolder(path)) continue;
    if (os === 'ubuntu' || os === 'centos') found.set(path, os);
  }
  for (const kind of ['ubuntu', 'centos'] as const) {
    const path = `repositories/${kind}`;
    if (!found.has(path) && hasFolder(path)) found.set(path, kind);
  }
  return [...found].map(([path, kind]) => ({ path, kind })).sort((a, b) => a.path.localeCompare(b.path));
}

function normaliseRel(path: string): string | undefined {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..') || path.startsWith('/')) return undefined;
  return parts.join('/');
}

/** Files ending in `suffix` directly in `dir` (or in its `Packages/` for rpm). */
function packagesIn(dir: string, suffix: string): string[] {
  const names: string[] = [];
  for (const sub of ['', 'Packages']) {
    const d = join(dir, sub);
    if (!existsSync(d) || !statSync(d).isDirectory()) continue;
    for (const name of readdirSync(d)) if (name.endsWith(suffix)) names.push(sub ? `${sub}/${name}` : name);
  }
  return names.sort();
}

export interface IndexOptions {
  name: string;
  version: string;
  env?: NodeJS.ProcessEnv;
  onLine?: (line: string) => void;
}

/** Generate the index of each repository folder (under `stagingRoot`, never the author's folder). */
export function indexRepositories(stagingRoot: string, folders: readonly RepositoryFolder[], options: IndexOptions): Finding[] {
  const findings: Finding[] = [];
  const env = options.env ?? process.env;
  const majorMinor = options.version.split('.').slice(0, 2).join('.');
  for (const folder of folders) {
    const dir = join(stagingRoot, ...folder.path.split('/'));
    if (folder.kind === 'ubuntu') {
      const debs = packagesIn(dir, '.deb');
      if (debs.length === 0) continue;
      const tool = findTool(['dpkg-scanpackages'], env);
      if (!tool) {
        findings.push(
          finding('build/repository-tool-missing', 'warning', `${folder.path} holds ${debs.length} .deb package(s) but dpkg-scanpackages is not installed, so no Packages.gz index was made; nodes cannot install from it`, { file: folder.path }, INSTALL_HINT),
        );
        continue;
      }
      const scan = spawnSync(tool, ['-m', '.'], { cwd: dir, env, maxBuffer: 256 * 1024 * 1024 });
      if (scan.status !== 0) {
        findings.push(finding('build/repository-index-failed', 'error', `dpkg-scanpackages failed in ${folder.path}: ${scan.stderr?.toString().trim() || `status ${scan.status}`}`, { file: folder.path }));
        continue;
      }
      // gzip in-process so the index carries no timestamp and stays reproducible.
      const gz = gzipSync(scan.stdout, { level: 9 });
      gz.writeUInt32LE(0, 4);
      gz[9] = 3;
      writeFileSync(join(dir, 'Packages.gz'), gz);
      writeFileSync(join(dir, 'Release'), `Label: ${options.name}\nVersion: ${majorMinor}\n`);
      options.onLine?.(`indexed ${folder.path} (${debs.length} .deb)`);
    } else {
      const rpms = packagesIn(dir, '.rpm');
      if (rpms.length === 0) continue;
      const tool = findTool(['createrepo_c', 'createrepo'], env);
      if (!tool) {
        findings.push(
          finding('build/repository-tool-missing', 'warning', `${folder.path} holds ${rpms.length} .rpm package(s) but neither createrepo_c nor createrepo is installed, so no repodata/ was made; nodes cannot install from it`, { file: folder.path }, INSTALL_HINT),
        );
        continue;
      }
      mkdirSync(join(dir, 'Packages'), { recursive: true });
      for (const rpm of rpms) if (!rpm.startsWith('Packages/')) renameSync(join(dir, rpm), join(dir, 'Packages', rpm));
      const run = spawnSync(tool, ['-o', dir, dir], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
      if (run.status !== 0) {
        findings.push(finding('build/repository-index-failed', 'error', `${tool} failed in ${folder.path}: ${run.stderr?.toString().trim() || `status ${run.status}`}`, { file: folder.path }));
        continue;
      }
      options.onLine?.(`indexed ${folder.path} (${rpms.length} .rpm)`);
      findings.push(finding('build/repository-not-reproducible', 'info', `${folder.path}/repodata carries the time of the build, so this package is not byte-for-byte reproducible`, { file: folder.path }));
    }
  }
  return findings;
}
