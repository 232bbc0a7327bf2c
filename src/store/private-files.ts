/**
 * The data folder is the server user's alone: the embedded database's files (its WAL holds the
 * admin token and Hearth's SSH private key), the key's copy, the lock, unpacked plugins. Folders
 * are 0700 and files 0600 (issue 24, item 1), whatever the umask.
 *
 * PGlite (Emscripten's NODEFS) creates each file with `writeFileSync(path, '', { mode: 0o777 })`
 * and then `chmodSync(path, mode)` with the mode the WebAssembly side asked for: 0666 for every
 * file initdb or a template restore makes, 0600 or 0644 later. The explicit chmod makes the umask
 * useless for files (folders it does honour). So: the data folder is 0700 before PGlite opens (no
 * one else can reach anything below, whatever its mode), every mode under it is repaired when it
 * is claimed and when the database closes, and PGlite's own chmods under `pgdata` are masked to
 * the owner's bits (keepNewFilesPrivate) so a new WAL segment or relation file is 0600 at once.
 */
import fs from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { StoreError } from './database.js';

/** Below these folders of the data folder (the package copies plugin-files unpacks) modes stay. */
const PACKAGE_COPIES = 'plugin-files';

const OTHERS = 0o077;

const ownerOnly = (mode: number): number => mode & ~OTHERS & 0o7777;

function notOurs(dataDir: string, path: string, uid: number): StoreError {
  const me = process.getuid?.();
  return new StoreError(
    'store/data-dir-not-private',
    `the data folder ${dataDir} holds ${path === dataDir ? 'itself' : path}, owned by user ${uid}, not by this server's user (${me}): that user could read or change the database, its admin token and Hearth's SSH private key`,
    `make the server's user own all of it (chown -R ${me} ${dataDir}), or start with another --data-dir`,
  );
}

/**
 * Creates the data folder (its parents as the umask says, itself 0700), or checks an existing one
 * is this user's. Throws `store/data-dir-not-private` when someone else owns it.
 */
export function makePrivateFolder(dir: string): void {
  const parent = dirname(dir);
  if (!fs.existsSync(parent)) fs.mkdirSync(parent, { recursive: true });
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const st = fs.statSync(dir);
  if (st.uid !== uid) throw notOurs(dir, dir, st.uid);
}

/**
 * Takes group and others' bits off every folder and file under `dataDir` (and itself), without
 * following links; the unpacked package copies under plugin-files/ keep the package's modes (rsync
 * carries them to nodes) below their own 0700 folder. Returns the paths repaired. Throws
 * `store/data-dir-not-private` on an entry another user owns (it could make it readable again):
 * nothing is changed then.
 */
export function securePrivateTree(dataDir: string): string[] {
  const uid = process.getuid?.();
  if (uid === undefined) return []; // not a POSIX system: modes mean nothing
  const wrong: Array<{ path: string; mode: number }> = [];
  const visit = (path: string, depth: number, inPackages: boolean) => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(path);
    } catch {
      return; // gone while we looked (a file PGlite removed)
    }
    if (st.isSymbolicLink()) return;
    if (st.uid !== uid) throw notOurs(dataDir, path, st.uid);
    if (st.mode & OTHERS) wrong.push({ path, mode: st.mode });
    // Under plugin-files/: the folder and each copy's own folder are private; their insides stay.
    if (!st.isDirectory() || (inPackages && depth >= 2)) return;
    let names: string[];
    try {
      names = fs.readdirSync(path);
    } catch {
      return;
    }
    // Joined by hand: the paths are already normal (resolved below, names from readdir), and
    // path.join normalised each of a data folder's thousand paths again on every start (issue 30).
    const prefix = path.endsWith(sep) ? path : path + sep;
    for (const name of names) visit(prefix + name, depth + 1, inPackages || (depth === 0 && name === PACKAGE_COPIES));
  };
  visit(resolve(dataDir), 0, false);
  for (const { path, mode } of wrong) {
    try {
      fs.chmodSync(path, ownerOnly(mode));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new StoreError('store/data-dir-not-private', `cannot make ${path} private to this server's user: ${(err as Error).message}`, `run chmod -R go-rwx ${dataDir} as its owner, or start with another --data-dir`);
    }
  }
  return wrong.map((w) => w.path);
}

/** A short line for a log or a terminal: how many entries were repaired, and a few of them. */
export function describeRepair(dataDir: string, repaired: readonly string[]): string {
  const shown = repaired.slice(0, 3).map((p) => relative(dataDir, p) || '.');
  return `made ${repaired.length} file${repaired.length === 1 ? '' : 's'} and folders of the data folder ${dataDir} private to this server's user (others could read or change them): ${shown.join(', ')}${repaired.length > 3 ? ', …' : ''}`;
}

const masked = new Set<string>();

/**
 * From now on, in this thread, folders made and modes set under `root` (PGlite's chmodSync and
 * mkdirSync calls) keep only the owner's bits. fs is per thread: in PGlite's worker this touches
 * nothing else; on a caller's thread it touches only paths under `root`.
 */
export function keepNewFilesPrivate(root: string): void {
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  if (masked.size === 0) {
    const under = (path: fs.PathLike) => {
      const p = typeof path === 'string' ? path : path instanceof URL ? path.pathname : path.toString();
      for (const r of masked) if (p.startsWith(r) || `${p}${sep}` === r) return true;
      return false;
    };
    const chmodSync = fs.chmodSync;
    fs.chmodSync = (path: fs.PathLike, mode: fs.Mode) => chmodSync(path, under(path) && typeof mode === 'number' ? ownerOnly(mode) : mode);
    const mkdirSync = fs.mkdirSync;
    fs.mkdirSync = ((path: fs.PathLike, options?: fs.Mode | fs.MakeDirectoryOptions | null) => {
      if (!under(path)) return mkdirSync(path, options as fs.MakeDirectoryOptions);
      if (typeof options === 'number') return mkdirSync(path, ownerOnly(options));
      return mkdirSync(path, { ...(typeof options === 'object' && options ? options : {}), mode: 0o700 });
    }) as typeof fs.mkdirSync;
  }
  masked.add(prefix);
}
