/**
 * Which files of a plugin folder go into its package. Hidden files, build leftovers and earlier
 * packages stay out so that a rebuild from a working copy gives the same bytes as one from a clean
 * checkout. Symbolic links inside the plugin are followed (packages hold no links); a link that
 * leaves the plugin folder is an error, because the package would silently ship foreign files.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';
import { readFailure } from '../yaml/index.js';
import type { TarEntry } from './tar.js';

export const MANIFEST_FILE = 'hearth-package.json';

/** Names never packaged, at any depth: version control, editors, Python and build droppings. */
const SKIPPED_NAMES = new Set(['__pycache__', 'node_modules', 'Thumbs.db']);
const SKIPPED_SUFFIXES = ['.pyc', '.pyo', '~', '.swp', '.swo', '.orig', '.rej'];
/** Outputs of this builder and of Fuel's, skipped at the plugin's top level only. */
const TOP_LEVEL_PACKAGE_SUFFIXES = ['.tar.gz', '.fp', '.noarch.rpm'];

export interface CollectOptions {
  /** Absolute paths to leave out as well (e.g. the --out folder when it lies inside the plugin). */
  exclude?: string[];
}

export interface CollectedFiles {
  entries: TarEntry[];
  findings: Finding[];
}

export function isSkippedName(name: string, topLevel: boolean): boolean {
  if (name.startsWith('.')) return true;
  if (SKIPPED_NAMES.has(name)) return true;
  if (SKIPPED_SUFFIXES.some((s) => name.endsWith(s))) return true;
  if (topLevel && (name === MANIFEST_FILE || TOP_LEVEL_PACKAGE_SUFFIXES.some((s) => name.endsWith(s)))) return true;
  return false;
}

/** The files and folders to package, with paths relative to `root`, sorted. */
export function collectPluginFiles(root: string, options: CollectOptions = {}): CollectedFiles {
  const entries: TarEntry[] = [];
  const findings: Finding[] = [];
  const realRoot = realpathSync(root);
  const excluded = new Set((options.exclude ?? []).map((p) => safeRealpath(p)).filter((p): p is string => p !== undefined));
  const visiting = new Set<string>([realRoot]);

  const walk = (dir: string, rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      // A folder Hearth may not list is an error to fix, not a crash (nor a package missing it).
      findings.push(readFailure(err, rel || '.', { file: rel || '.' }));
      return;
    }
    for (const name of names) {
      const relPath = rel ? `${rel}/${name}` : name;
      if (isSkippedName(name, rel === '')) continue;
      const full = join(dir, name);
      let link;
      try {
        link = lstatSync(full);
      } catch (err) {
        findings.push(readFailure(err, relPath, { file: relPath }));
        continue;
      }
      let real = full;
      if (link.isSymbolicLink()) {
        const target = safeRealpath(full);
        if (target === undefined) {
          findings.push(finding('build/broken-link', 'error', `'${relPath}' is a symbolic link to nothing`, { file: relPath }, 'Remove the link or restore its target.'));
          continue;
        }
        if (target !== realRoot && !target.startsWith(realRoot + sep)) {
          findings.push(
            finding('build/link-outside-plugin', 'error', `'${relPath}' is a symbolic link to '${target}', outside the plugin folder`, { file: relPath }, 'Copy the file into the plugin instead; packages hold no links.'),
          );
          continue;
        }
        real = target;
      }
      let realStat;
      try {
        realStat = link.isSymbolicLink() ? statSync(real) : link;
      } catch (err) {
        findings.push(readFailure(err, relPath, { file: relPath }));
        continue;
      }
      const realPath = safeRealpath(real) ?? real;
      if (excluded.has(realPath)) continue;
      if (realStat.isDirectory()) {
        if (visiting.has(realPath)) {
          findings.push(finding('build/link-loop', 'error', `'${relPath}' leads back to a folder that contains it`, { file: relPath }, 'Remove the looping link.'));
          continue;
        }
        entries.push({ path: relPath, type: 'dir' });
        visiting.add(realPath);
        walk(real, relPath);
        visiting.delete(realPath);
      } else if (realStat.isFile()) {
        let data: Buffer;
        try {
          data = readFileSync(real);
        } catch (err) {
          findings.push(readFailure(err, relPath, { file: relPath }));
          continue;
        }
        entries.push({ path: relPath, type: 'file', executable: (realStat.mode & 0o111) !== 0, data });
      } else {
        findings.push(finding('build/special-file', 'warning', `'${relPath}' is neither a file nor a folder (a socket, FIFO or device) and is left out`, { file: relPath }));
      }
    }
  };
  walk(realRoot, '');
  return { entries, findings };
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Relative path from `root` to `path` with `/` separators, or undefined when `path` is not inside `root`. */
export function insideRelative(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return undefined;
  return rel.split(sep).join('/');
}
