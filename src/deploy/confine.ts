/**
 * What the deploy layer may read on the Hearth server and send to a node: a file or folder whose
 * real path (after every link) is inside a source's own real folder or the deployment's, never
 * anything of the server's data folder but the plugins' own unpacked files, and no folder holding
 * a link that leads out of it. A plugin folder with `key -> <data>/ssh/id_ed25519` once sent the
 * server's private key to a node through copy_files (issue 24). The plugin validator refuses such
 * links at registration (package/plugin/links.ts); these checks hold when a folder changed since.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';

/** The server's data folder (its SSH key, its database): nothing in it is sent, except under `pluginFiles`. */
export interface DataFolder {
  dir: string;
  /** Where packages are unpacked: the plugins' own files, sent like a registered folder's. */
  pluginFiles?: string;
}

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Entries a sent folder may hold before Hearth refuses to check (and send) it. */
export const MAX_SENT_ENTRIES = 200_000;

const within = (root: string, real: string): boolean => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);

const realOrNothing = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/** Why nothing under `real` may be sent because of the data folder (in it, or for a folder, holding it), or undefined. */
function sealedBy(real: string, data: DataFolder | undefined, folder = false): string | undefined {
  const dir = data && realOrNothing(data.dir);
  if (!dir) return undefined;
  if (folder && within(real, dir)) return "it holds the Hearth server's data folder, which is never sent";
  if (!within(dir, real)) return undefined;
  const pluginFiles = data.pluginFiles && realOrNothing(data.pluginFiles);
  if (pluginFiles && within(pluginFiles, real) && real !== pluginFiles) return undefined;
  return "it is in the Hearth server's data folder, which is never sent";
}

/** Is `path`, after every link, inside `root`, after every link? False when either is missing. */
export function insideReal(root: string, path: string): boolean {
  const [r, p] = [realOrNothing(root), realOrNothing(path)];
  return r !== undefined && p !== undefined && within(r, p);
}

export type Confined = { real: string } | { refused: string };

/**
 * The real path of `p` (relative to each root in turn, or absolute) when it lies inside one of
 * `roots` after every link and outside the data folder; else why not, in words that name no
 * target (task output can be read by anyone the server lets read).
 */
export function confinedPath(roots: readonly string[], p: string, data?: DataFolder): Confined {
  const realRoots = roots.map(realOrNothing).filter((r): r is string => r !== undefined);
  const candidates = isAbsolute(p) ? [resolve(p)] : roots.map((r) => resolve(r, p));
  let exists = false;
  for (const candidate of candidates) {
    const real = realOrNothing(candidate);
    if (!real) continue;
    exists = true;
    if (!realRoots.some((r) => within(r, real))) continue;
    const sealed = sealedBy(real, data, isDirectory(real));
    if (sealed) return { refused: sealed };
    return { real };
  }
  return { refused: exists ? "it leads outside the plugin's folder and the deployment's (through a link, or by its path)" : 'it does not exist on the Hearth server' };
}

/**
 * Why the folder `dir` may not be sent, or undefined: it is in the data folder, or a link under it
 * leads out of it (named, relative to `dir`), or it is too large to check. Links inside it are fine.
 */
export function unsendableFolder(dir: string, data?: DataFolder): string | undefined {
  const root = realOrNothing(dir);
  if (!root) return `${dir} does not exist on the Hearth server`;
  const sealed = sealedBy(root, data, true);
  if (sealed) return sealed;
  let entries = 0;
  const seen = new Set<string>();
  const walk = (at: string, rel: string, depth: number): string | undefined => {
    if (seen.has(at)) return undefined;
    seen.add(at);
    if (depth > 64) return `'${rel}' is more than 64 folders deep, too deep to check`;
    let list: Dirent[];
    try {
      list = readdirSync(at, { withFileTypes: true });
    } catch (err) {
      return `'${rel || '.'}' cannot be listed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
    }
    for (const entry of list) {
      if (++entries > MAX_SENT_ENTRIES) return `it holds more than ${MAX_SENT_ENTRIES.toLocaleString('en')} files and folders, too many to check`;
      const path = join(at, entry.name);
      const shown = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        let target = realOrNothing(path);
        if (target === undefined) {
          try {
            target = resolve(dirname(path), readlinkSync(path));
          } catch {
            target = path;
          }
        }
        if (!within(root, target)) return `'${shown}' is a link leading out of the folder`;
      } else if (entry.isDirectory()) {
        const why = walk(path, shown, depth + 1);
        if (why) return why;
      }
    }
    return undefined;
  };
  return walk(root, '', 0);
}

/**
 * The bytes of the regular file `real` (from confinedPath), checked once more after it is open,
 * where the system says which file was opened (Linux's /proc/self/fd): a link swapped in between
 * the check and the read is caught. `Error` with a plain message when it is not such a file.
 */
export function readConfined(real: string, roots: readonly string[], data?: DataFolder): Buffer {
  const fd = openSync(real, 'r');
  try {
    if (!fstatSync(fd).isFile()) throw new Error('it is not a regular file');
    if (process.platform === 'linux') {
      const opened = realOrNothing(`/proc/self/fd/${fd}`);
      const realRoots = roots.map(realOrNothing).filter((r): r is string => r !== undefined);
      if (!opened || !realRoots.some((r) => within(r, opened)) || sealedBy(opened, data)) throw new Error('it changed into a link leading out while it was read');
    }
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
