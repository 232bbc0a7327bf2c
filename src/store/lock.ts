/**
 * The PGlite data folder's lock. PGlite is one process's database: a second server on the same
 * folder would corrupt it (rows one committed were gone when reopened), so the folder is locked,
 * and a lock left by a killed process (its pid is gone) is taken over. Kept apart from pglite.ts so
 * that a server can take the lock (and refuse to start, saying why) before PGlite is even loaded.
 */
import { linkSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { StoreError } from './database.js';
import { makePrivateFolder, securePrivateTree } from './private-files.js';
import { dropReleasesSnapshot } from './answer-snapshot.js';

/** The lock of Hearth before generations (a server of that version may still hold it). */
const LEGACY_LOCK = 'hearth-server.lock';
/** `hearth-server.lock.<generation>`: the highest generation is the lock; its file holds the owner's pid. */
const LOCK_PREFIX = `${LEGACY_LOCK}.`;

/** Whether a process holds `pid` (EPERM: one of another user does, which counts as alive). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in a lock file; 0 when it holds no pid (damaged: no one owns it); undefined when it is gone. */
const ownerOf = (path: string): number | undefined => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : 0;
};

const generations = (dataDir: string): number[] =>
  readdirSync(dataDir)
    .filter((name) => name.startsWith(LOCK_PREFIX) && /^\d{1,15}$/.test(name.slice(LOCK_PREFIX.length)))
    .map((name) => Number(name.slice(LOCK_PREFIX.length)))
    .sort((a, b) => b - a);

const inUse = (dataDir: string, owner: number) =>
  new StoreError(
    'store/data-dir-in-use',
    `another Hearth server (pid ${owner}) is using the data folder ${dataDir}`,
    'Stop that server, or start this one with another --data-dir; to share one database between servers, use PostgreSQL (DATABASE_URL).',
  );

/**
 * Locks the data folder for this process, or throws `store/data-dir-in-use`. The lock is never
 * deleted and created again, which let two processes starting together after a crash both take it
 * (each deleted the other's fresh lock as stale): the lock is the highest `hearth-server.lock.<n>`,
 * and a process takes over a dead owner's generation n by creating n+1 exclusively (a hard link of
 * a file already holding its pid, so no one ever reads a half-written lock). Of several processes
 * racing for n+1, the kernel lets exactly one create it; the others look again and find it alive.
 */
export function lockDataFolder(dataDir: string): string {
  try {
    const legacy = ownerOf(join(dataDir, LEGACY_LOCK));
    if (legacy && legacy !== process.pid && processAlive(legacy)) throw inUse(dataDir, legacy);
    const mine = join(dataDir, `.hearth-lock-${process.pid}-${randomBytes(6).toString('hex')}`);
    writeFileSync(mine, String(process.pid), { flag: 'wx', mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 50; attempt++) {
        const [top = 0] = generations(dataDir);
        if (top > 0) {
          const owner = ownerOf(join(dataDir, `${LOCK_PREFIX}${top}`));
          // Gone: removed by a newer owner cleaning up after taking over; look again.
          if (owner === undefined) continue;
          if (owner && (owner === process.pid || processAlive(owner))) throw inUse(dataDir, owner);
        }
        const lockPath = join(dataDir, `${LOCK_PREFIX}${top + 1}`);
        try {
          linkSync(mine, lockPath);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue; // another process took n+1 first
          throw err;
        }
        // Older generations belonged to dead owners (or to those who lost to them): no longer needed.
        for (const old of generations(dataDir)) if (old <= top) rmSync(join(dataDir, `${LOCK_PREFIX}${old}`), { force: true });
        return lockPath;
      }
    } finally {
      rmSync(mine, { force: true });
    }
  } catch (err) {
    if (err instanceof StoreError) throw err;
    throw new StoreError('store/data-dir-unwritable', `cannot write to the data folder ${dataDir}: ${(err as Error).message}`, 'Choose a writable folder with --data-dir.');
  }
  throw new StoreError('store/data-dir-in-use', `could not lock the data folder ${dataDir}: other processes kept taking it`, 'Stop the other Hearth servers on this folder.');
}

/**
 * Create the data folder if needed (0700) and lock it: the lock's path, or a StoreError saying what
 * to do. Everything in it is then made the server user's alone (private-files.ts), after the lock
 * so that a folder this process may not write is refused before anything in it is touched;
 * `repaired` hears what was readable by others. A folder or file another user owns is refused.
 */
export function claimDataFolder(dataDir: string, repaired?: (paths: string[]) => void): string {
  try {
    makePrivateFolder(dataDir);
  } catch (err) {
    if (err instanceof StoreError) throw err;
    throw new StoreError('store/data-dir-unwritable', `cannot create the data folder ${dataDir}: ${(err as Error).message}`, 'Choose a writable folder with --data-dir.');
  }
  const lockPath = lockDataFolder(dataDir);
  try {
    // Whoever opens the folder may change its releases: the last stop's answer no longer holds.
    dropReleasesSnapshot(dataDir);
    const paths = securePrivateTree(dataDir);
    if (paths.length) repaired?.(paths);
  } catch (err) {
    rmSync(lockPath, { force: true });
    throw err;
  }
  return lockPath;
}
