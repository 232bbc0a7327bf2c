/**
 * The answer of `GET /api/v1/releases` a server left in its PGlite data folder when it stopped
 * cleanly, so that the next server on the folder can give it while PGlite is still starting
 * (most of a second, seconds on a busy machine: issue 30 asks for the first useful answer of a
 * restart within 5x a bare Node start). It is exactly what the database held at that stop:
 * - every open of the folder (claimDataFolder: a server, `hearth db import`, `hearth token`…)
 *   removes it, so a folder written since holds none, and a server that crashed leaves none;
 * - it names the stop's pg_control (PostgreSQL rewrites it at every checkpoint and shutdown): a
 *   pgdata restored or replaced by hand does not match it;
 * - and the Hearth version and schema that wrote it, so an upgrade answers from the database.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'releases-answer.json';

interface Snapshot {
  format: 1;
  hearth: string;
  schema: number;
  control: string;
  body: string;
}

/** pg_control's identity: inode, size and time of its last write. */
function controlStamp(dataDir: string): string | undefined {
  try {
    const s = statSync(join(dataDir, 'pgdata', 'global', 'pg_control'), { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return undefined;
  }
}

/** Removes the snapshot: the folder's database is about to be opened, and may change. */
export function dropReleasesSnapshot(dataDir: string): void {
  rmSync(join(dataDir, FILE), { force: true });
}

/** The answer left by the last clean stop, when it still holds for this folder and this Hearth. */
export function readReleasesSnapshot(dataDir: string, hearth: string, schema: number): string | undefined {
  try {
    const s = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<Snapshot>;
    const control = controlStamp(dataDir);
    if (s.format !== 1 || s.hearth !== hearth || s.schema !== schema || control === undefined || s.control !== control || typeof s.body !== 'string') return undefined;
    return s.body;
  } catch {
    return undefined;
  }
}

/** Written once the database is closed (its pg_control final), owner-only, whole or not at all. */
export function writeReleasesSnapshot(dataDir: string, hearth: string, schema: number, body: string): void {
  const control = controlStamp(dataDir);
  if (control === undefined) return;
  const partial = join(dataDir, `${FILE}.${process.pid}`);
  try {
    writeFileSync(partial, JSON.stringify({ format: 1, hearth, schema, control, body } satisfies Snapshot), { mode: 0o600 });
    renameSync(partial, join(dataDir, FILE));
  } catch {
    rmSync(partial, { force: true });
  }
}
