/**
 * What the two streaming readers share (tar-stream.ts for packages, cpio-stream.ts for Fuel RPMs):
 * an entry's bytes, as they arrive, hashed, written under the unpacking folder and, for a small
 * file, kept in memory; then its padding read past; and the check that a path is new and lies
 * under no file. Only the archive formats' headers differ between the two.
 */
import { createHash, type Hash } from 'node:crypto';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { TarError } from './tar.js';

export interface StreamedEntry {
  path: string;
  type: 'file' | 'dir';
  executable: boolean;
  size: number;
  /** sha256 of the file's bytes, in hex. */
  sha256: string;
  /** The bytes of a file up to 1 MiB (the manifest and metadata.yaml are read from here). */
  data?: Buffer;
}

/** Files up to this size are kept in memory as they stream by (a package's manifest, metadata.yaml). */
export const KEEP_BYTES = 1024 * 1024;

/** An entry being read: its bytes still to come, then its padding. */
export interface EntryBody {
  /** Absent for what is read past and not kept (a tar's root folder, an RPM's files outside the plugin). */
  entry?: StreamedEntry;
  remaining: number;
  padding: number;
  /** Whether the bytes are kept in memory as they pass (small files; tar's extended headers). */
  keep: boolean;
  kept: Buffer[];
  hash?: Hash;
  file?: FileHandle;
}

/** `bytes` of data and `padding` after them, read past and forgotten. */
export const readPast = (bytes: number, padding: number): EntryBody => ({ remaining: bytes, padding, keep: false, kept: [] });

/**
 * The body of `entry` (its path already checked by the reader): a file is hashed and, with
 * `root`, created there exclusively; a folder is made there.
 */
export async function openEntry(entry: StreamedEntry, padding: number, root: string | undefined): Promise<EntryBody> {
  const file = entry.type === 'file';
  const body: EntryBody = { entry, remaining: entry.size, padding, keep: file && entry.size <= KEEP_BYTES, kept: [], ...(file ? { hash: createHash('sha256') } : {}) };
  if (root) {
    const target = resolve(root, ...entry.path.split('/'));
    // Paths were checked already; this second look guards the write itself.
    if (!target.startsWith(root + sep)) throw new Error(`refusing to write outside the temporary folder: ${entry.path}`);
    if (!file) await mkdir(target, { recursive: true, mode: 0o755 });
    else {
      await mkdir(dirname(target), { recursive: true, mode: 0o755 });
      // 'wx' refuses to follow or replace anything already there.
      body.file = await open(target, 'wx', entry.executable ? 0o755 : 0o644);
    }
  }
  return body;
}

/** Takes the body's bytes, then its padding, from `chunk` at `at`; returns where it stopped. */
export async function takeFrom(body: EntryBody, chunk: Buffer, at: number): Promise<number> {
  if (body.remaining > 0) {
    const piece = chunk.subarray(at, at + Math.min(body.remaining, chunk.length - at));
    body.hash?.update(piece);
    if (body.file) await body.file.write(piece);
    if (body.keep) body.kept.push(Buffer.from(piece));
    body.remaining -= piece.length;
    return at + piece.length;
  }
  const skip = Math.min(body.padding, chunk.length - at);
  body.padding -= skip;
  return at + skip;
}

export const bodyDone = (body: EntryBody): boolean => body.remaining === 0 && body.padding === 0;

/** Closes the body's file; its entry with the bytes' digest (and a small file's bytes), if it has one. */
export async function finishEntry(body: EntryBody): Promise<StreamedEntry | undefined> {
  if (body.file) await body.file.close();
  const { entry } = body;
  if (!entry) return undefined;
  entry.sha256 = (body.hash ?? createHash('sha256')).digest('hex');
  if (entry.type === 'file' && body.keep) entry.data = Buffer.concat(body.kept);
  return entry;
}

/** Closes the file of a body given up half-read (the reader refused the archive). */
export const abandon = async (body: EntryBody | undefined): Promise<void> => {
  await body?.file?.close().catch(() => undefined);
};

/**
 * Records `path` as a file or folder among those seen, with its ancestors as folders: 'again' for
 * a folder listed twice (harmless); a file listed twice, or anything under a file, is refused with
 * the reader's own words.
 */
export function claimPath(kinds: Map<string, 'file' | 'dir'>, path: string, type: 'file' | 'dir', refuse: { twice: () => TarError; underFile: (ancestor: string) => TarError }): 'new' | 'again' {
  const seen = kinds.get(path);
  if (seen) {
    if (seen === 'dir' && type === 'dir') return 'again';
    throw refuse.twice();
  }
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const ancestor = segments.slice(0, i).join('/');
    if (kinds.get(ancestor) === 'file') throw refuse.underFile(ancestor);
    if (!kinds.has(ancestor)) kinds.set(ancestor, 'dir');
  }
  kinds.set(path, type);
  return 'new';
}
