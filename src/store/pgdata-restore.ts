/**
 * Restores the empty database made at build time (dist/pgdata-template/pgdata.tar.gz, PGlite's
 * own dump: a gzipped ustar archive of a data folder) into a new data folder, as a stream.
 *
 * Why not PGlite's `loadDataDir`: it holds the whole archive in memory, unpacked (40 MB, one WAL
 * segment of 16 MB in one piece), and once those buffers are freed glibc raises its trim threshold
 * to twice the largest (its dynamic mmap threshold), so the threads' malloc arenas that grew
 * meanwhile never shrink again: a first start stayed at 290 MB idle against a restart's 162
 * (issue 30). Here no piece is larger than zlib's output chunk. The files are written into a
 * sibling folder that is renamed into place once complete, so a start interrupted half-way leaves
 * no data folder that looks whole.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, utimesSync, writeSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { createGunzip } from 'node:zlib';

const BLOCK = 512;

/** A ustar header's field: NUL- (or space-) terminated text. */
const text = (block: Buffer, at: number, length: number) => {
  const field = block.subarray(at, at + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
};
const octal = (block: Buffer, at: number, length: number) => parseInt(text(block, at, length).trim() || '0', 8);

/** Extracts `archive` (a .tar.gz of a data folder) as the folder `target`, which must not hold a database yet. */
export async function restoreDataFolder(archive: string, target: string): Promise<void> {
  const part = `${target}.part`;
  rmSync(part, { recursive: true, force: true });
  mkdirSync(part, { mode: 0o700 });
  let pending = Buffer.alloc(0);
  let file: { fd: number; left: number; pad: number; path: string; mtime: number } | undefined;
  let ended = false;
  const inside = (name: string) => {
    const relative = normalize(name.replace(/^\/+/, ''));
    if (relative.startsWith('..') || relative === '.') throw new Error(`the database template holds an unexpected path: ${name}`);
    return join(part, relative);
  };
  const finishFile = () => {
    if (!file) return;
    closeSync(file.fd);
    utimesSync(file.path, file.mtime, file.mtime);
  };
  try {
    for await (const chunk of createReadStream(archive).pipe(createGunzip())) {
      let data = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
      pending = Buffer.alloc(0);
      while (data.length && !ended) {
        if (file && file.left > 0) {
          const piece = data.subarray(0, Math.min(file.left, data.length));
          writeSync(file.fd, piece);
          file.left -= piece.length;
          data = data.subarray(piece.length);
          continue;
        }
        if (file && file.pad > 0) {
          const skip = Math.min(file.pad, data.length);
          file.pad -= skip;
          data = data.subarray(skip);
          if (file.pad > 0) continue;
        }
        if (file) {
          finishFile();
          file = undefined;
          continue;
        }
        if (data.length < BLOCK) {
          pending = Buffer.from(data);
          break;
        }
        const header = data.subarray(0, BLOCK);
        data = data.subarray(BLOCK);
        if (header.every((b) => b === 0)) {
          ended = true; // the archive's end: two zero blocks
          break;
        }
        const name = [text(header, 345, 155), text(header, 0, 100)].filter(Boolean).join('/');
        const size = octal(header, 124, 12);
        const mtime = octal(header, 136, 12);
        const type = String.fromCharCode(header[156] || 0x30);
        const path = inside(name);
        if (type === '5') {
          mkdirSync(path, { recursive: true, mode: 0o700 });
        } else if (type === '0') {
          mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
          file = { fd: openSync(path, 'w', 0o600), left: size, pad: (BLOCK - (size % BLOCK)) % BLOCK, path, mtime };
          if (size === 0 && file.pad === 0) {
            finishFile();
            file = undefined;
          }
        } else {
          throw new Error(`the database template holds an entry of type '${type}' (${name}), not a file or folder`);
        }
      }
    }
    if (file) {
      if (file.left > 0) throw new Error('the database template ends inside a file');
      finishFile();
      file = undefined;
    }
    rmSync(target, { recursive: true, force: true }); // the empty folder the caller made (and locked the parent of)
    renameSync(part, target);
  } catch (err) {
    if (file) closeSync(file.fd);
    rmSync(part, { recursive: true, force: true });
    throw err;
  }
}
