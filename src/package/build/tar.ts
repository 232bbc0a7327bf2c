/**
 * A small ustar/pax writer that gives byte-identical output for the same input, and a strict
 * reader for packages that may come from anyone.
 *
 * Why our own: packages are installed by the server from uploads, so the reader must refuse every
 * shape that could write outside its folder or exhaust the machine (links, devices, `..`, absolute
 * paths, tar bombs), and the writer must not leak the builder's clock, user or umask into the bytes.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export interface TarEntry {
  /** Relative path with `/` separators, no leading `./`, no trailing `/`. */
  path: string;
  type: 'file' | 'dir';
  /** Only the executable bit matters: files become 0644 or 0755, directories 0755. */
  executable?: boolean;
  data?: Buffer;
}

/** 1980-01-01T00:00:00Z: the fixed mtime when SOURCE_DATE_EPOCH is not set (also zip's epoch). */
export const FIXED_EPOCH = 315532800;

/** The mtime for every entry: `SOURCE_DATE_EPOCH` when it is a whole number of seconds, else the fixed epoch. */
export function reproducibleMtime(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SOURCE_DATE_EPOCH?.trim();
  if (raw && /^\d{1,11}$/.test(raw)) return Number(raw);
  return FIXED_EPOCH;
}

export const BLOCK = 512;

function writeString(block: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, 'utf8');
  bytes.copy(block, offset, 0, Math.min(bytes.length, length));
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  // length-1 octal digits, zero padded, then NUL: the form every tar reads.
  writeString(block, offset, length, value.toString(8).padStart(length - 1, '0') + '\0');
}

function header(name: string, prefix: string, mode: number, size: number, mtime: number, typeflag: string): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, mode);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, mtime);
  block.fill(0x20, 148, 156);
  writeString(block, 156, 1, typeflag);
  writeString(block, 257, 6, 'ustar\0');
  writeString(block, 263, 2, '00');
  writeString(block, 345, 155, prefix);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return block;
}

/** Split a path into ustar's prefix and name fields, or undefined when it needs a pax record. */
function splitUstar(path: string): { prefix: string; name: string } | undefined {
  const length = Buffer.byteLength(path);
  if (length <= 100) return { prefix: '', name: path };
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name.length > 0) return { prefix, name };
  }
  return undefined;
}

function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  // The length prefix counts itself, so find the fixed point.
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

function padded(data: Buffer): Buffer[] {
  const rest = data.length % BLOCK;
  return rest === 0 ? [data] : [data, Buffer.alloc(BLOCK - rest)];
}

/** The tar stream (uncompressed) for the entries, sorted by path. */
export function writeTar(entries: readonly TarEntry[], mtime: number = FIXED_EPOCH): Buffer {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts: Buffer[] = [];
  for (const entry of sorted) {
    const isDir = entry.type === 'dir';
    const stored = isDir ? `${entry.path}/` : entry.path;
    const data = isDir ? Buffer.alloc(0) : (entry.data ?? Buffer.alloc(0));
    const mode = isDir || entry.executable ? 0o755 : 0o644;
    let fields = splitUstar(stored);
    if (!fields) {
      const pax = Buffer.from(paxRecord('path', stored), 'utf8');
      parts.push(header('PaxHeader', '', 0o644, pax.length, mtime, 'x'), ...padded(pax));
      // The ustar name is only a fallback for readers without pax support.
      fields = { prefix: '', name: Buffer.from(stored).subarray(0, 99).toString('latin1') };
    }
    parts.push(header(fields.name, fields.prefix, mode, data.length, mtime, isDir ? '5' : '0'));
    if (data.length > 0) parts.push(...padded(data));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

/** A gzip-compressed tar with a fixed gzip header (no timestamp, OS byte set to Unix on every platform). */
export function writeTarGz(entries: readonly TarEntry[], mtime: number = FIXED_EPOCH): Buffer {
  const gz = gzipSync(writeTar(entries, mtime), { level: 9 });
  gz.writeUInt32LE(0, 4);
  gz[9] = 3;
  return gz;
}

// ---------------------------------------------------------------------------------------------
// Reader

export interface TarLimits {
  /** Largest single file, in bytes. */
  maxEntryBytes: number;
  /** Largest sum of file sizes (and of the decompressed stream), in bytes. */
  maxTotalBytes: number;
  maxEntries: number;
}

export const DEFAULT_TAR_LIMITS: TarLimits = {
  maxEntryBytes: 256 * 1024 * 1024,
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntries: 20_000,
};

/** Why an archive was refused; `code` is a stable finding code. */
export class TarError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly entry?: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export interface ReadEntry {
  path: string;
  type: 'file' | 'dir';
  executable: boolean;
  data: Buffer;
}

export function readString(block: Buffer, offset: number, length: number): string {
  const slice = block.subarray(offset, offset + length);
  const end = slice.indexOf(0);
  return slice.subarray(0, end === -1 ? length : end).toString('utf8');
}

export function readOctal(block: Buffer, offset: number, length: number, field: string): number {
  if (block[offset] & 0x80) throw new TarError('package/bad-header', `the ${field} field uses the base-256 form, which Hearth packages never need`);
  const text = readString(block, offset, length).trim();
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw new TarError('package/bad-header', `the ${field} field is not an octal number (${JSON.stringify(text)})`);
  return parseInt(text, 8);
}

export function checksumOk(block: Buffer): boolean {
  const stored = readOctal(block, 148, 8, 'checksum');
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i];
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  return stored === unsigned || stored === signed;
}

export function parsePax(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) throw new TarError('package/bad-header', 'a pax extended header is malformed');
    const length = Number(data.subarray(at, space).toString('latin1'));
    if (!Number.isInteger(length) || length <= 0 || at + length > data.length) throw new TarError('package/bad-header', 'a pax extended header has a bad record length');
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq === -1) throw new TarError('package/bad-header', 'a pax extended header record has no "="');
    records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}

/**
 * A path from the archive as a safe relative path, or a TarError. `.` (the archive's own root, as
 * `tar -C dir .` writes it) comes back as the empty string.
 */
export function safeRelativePath(raw: string): string {
  const shown = JSON.stringify(raw);
  if (raw.includes('\0')) throw new TarError('package/unsafe-path', `the path ${shown} contains a NUL byte`, raw);
  if (raw.includes('\\')) throw new TarError('package/unsafe-path', `the path ${shown} contains a backslash`, raw, 'Package paths use "/" only.');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) {
    throw new TarError('package/unsafe-path', `the path ${shown} is absolute`, raw, 'Every path in a package is relative to the package root.');
  }
  const parts: string[] = [];
  for (const part of raw.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') throw new TarError('package/unsafe-path', `the path ${shown} climbs out of the package with ".."`, raw, 'A package may only hold files below its own root.');
    parts.push(part);
  }
  return parts.join('/');
}

export const TYPE_NAMES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a FIFO',
  '7': 'a contiguous file',
  g: 'a global pax header',
  K: 'a GNU long link name',
  V: 'a volume label',
  M: 'a multi-volume continuation',
  S: 'a sparse file',
};

export const BOMB_FLOOR_BYTES = 64 * 1024 * 1024;
export const BOMB_RATIO = 200;

function gunzip(gz: Buffer, limits: TarLimits): Buffer {
  if (gz.length < 18 || gz[0] !== 0x1f || gz[1] !== 0x8b) throw new TarError('package/not-gzip', 'the file is not gzip-compressed', undefined, 'A package is a .tar.gz made by `hearth plugin build`.');
  // Room for the headers and padding of every allowed entry on top of the data itself.
  const maxOutputLength = limits.maxTotalBytes + (limits.maxEntries + 2) * BLOCK * 3;
  // Past 64 MiB, a package that grows more than 200-fold is a bomb, not a plugin (text packs
  // 5-10 to 1, repositories of .deb/.rpm hardly at all): refuse it before inflating 512 MiB.
  const ratioLimit = Math.max(BOMB_FLOOR_BYTES, gz.length * BOMB_RATIO);
  try {
    return gunzipSync(gz, { maxOutputLength: Math.min(maxOutputLength, ratioLimit) });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) {
      const why = ratioLimit < maxOutputLength ? `more than ${BOMB_RATIO} times its own size` : `more than ${limits.maxTotalBytes} bytes`;
      throw new TarError('package/too-large', `the package unpacks to ${why}`, undefined, 'This looks like a decompression bomb; it was not unpacked.');
    }
    if (e.code === 'Z_BUF_ERROR') throw new TarError('package/truncated', 'the gzip stream ends early: the file is truncated');
    throw new TarError('package/not-gzip', `the gzip stream is damaged (${e.message})`);
  }
}

/** Every entry of a .tar.gz, checked; throws TarError on the first shape it refuses. */
export function readTarGz(gz: Buffer, limits: TarLimits = DEFAULT_TAR_LIMITS): ReadEntry[] {
  return readTar(gunzip(gz, limits), limits);
}

export function readTar(tar: Buffer, limits: TarLimits = DEFAULT_TAR_LIMITS): ReadEntry[] {
  const entries: ReadEntry[] = [];
  const kinds = new Map<string, 'file' | 'dir'>();
  let total = 0;
  let at = 0;
  let pending: Map<string, string> | undefined;
  let longName: string | undefined;
  let ended = false;
  while (at + BLOCK <= tar.length) {
    const block = tar.subarray(at, at + BLOCK);
    if (block.every((b) => b === 0)) {
      ended = true;
      break;
    }
    if (!checksumOk(block)) throw new TarError('package/bad-header', `the header at byte ${at} has a wrong checksum`, undefined, 'The file is damaged or not a tar archive.');
    const typeflag = String.fromCharCode(block[156] || 0x30);
    let size = readOctal(block, 124, 12, 'size');
    if (pending?.has('size')) size = Number(pending.get('size'));
    if (!Number.isSafeInteger(size) || size < 0) throw new TarError('package/bad-header', `an entry has an invalid size`);
    const dataStart = at + BLOCK;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) throw new TarError('package/truncated', 'the archive ends in the middle of an entry: the file is truncated');
    const data = tar.subarray(dataStart, dataEnd);
    at = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (typeflag === 'x' || typeflag === 'L') {
      if (size > 64 * 1024) throw new TarError('package/bad-header', 'an extended header is implausibly large');
      if (typeflag === 'x') pending = parsePax(data);
      else longName = readString(data, 0, data.length);
      continue;
    }
    const prefix = readString(block, 345, 155);
    const name = readString(block, 0, 100);
    const raw = pending?.get('path') ?? longName ?? (prefix ? `${prefix}/${name}` : name);
    pending = undefined;
    longName = undefined;

    if (typeflag !== '0' && typeflag !== '5') {
      const what = TYPE_NAMES[typeflag] ?? `an entry of unknown type ${JSON.stringify(typeflag)}`;
      const target = typeflag === '1' || typeflag === '2' ? ` pointing to ${JSON.stringify(readString(block, 157, 100))}` : '';
      throw new TarError('package/special-entry', `${JSON.stringify(raw)} is ${what}${target}; packages hold only regular files and folders`, raw, 'Replace links with copies of the files before building.');
    }
    const path = safeRelativePath(raw);
    const type = typeflag === '5' ? 'dir' : 'file';
    if (path === '') {
      if (type === 'dir') continue;
      throw new TarError('package/unsafe-path', 'a file entry has an empty path', raw);
    }
    if (entries.length >= limits.maxEntries) throw new TarError('package/too-many-entries', `the package has more than ${limits.maxEntries} entries`);
    if (type === 'file' && size > limits.maxEntryBytes) {
      throw new TarError('package/entry-too-large', `${path} is ${size} bytes, over the limit of ${limits.maxEntryBytes}`, path);
    }
    total += size;
    if (total > limits.maxTotalBytes) throw new TarError('package/too-large', `the files of the package add up to more than ${limits.maxTotalBytes} bytes`);
    const seen = kinds.get(path);
    if (seen) {
      if (seen === 'dir' && type === 'dir') continue;
      throw new TarError('package/duplicate-entry', `${path} appears more than once in the package`, path, 'A later copy could silently replace the one that was checked.');
    }
    // A file used as a folder by a later entry (or the reverse) would make extraction ambiguous.
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const ancestor = segments.slice(0, i).join('/');
      if (kinds.get(ancestor) === 'file') throw new TarError('package/duplicate-entry', `${path} lies under ${ancestor}, which is a file`, path);
      if (!kinds.has(ancestor)) kinds.set(ancestor, 'dir');
    }
    kinds.set(path, type);
    const mode = readOctal(block, 100, 8, 'mode');
    entries.push({ path, type, executable: type === 'file' && (mode & 0o111) !== 0, data: type === 'file' ? Buffer.from(data) : Buffer.alloc(0) });
  }
  if (!ended) throw new TarError('package/truncated', 'the archive has no end-of-archive marker: the file is truncated');
  return entries;
}
