/**
 * Reading a Fuel plugin RPM's payload as a stream: the cpio "newc" archive is decompressed in
 * chunks (gzip in zlib; xz, lzma, zstd and bzip2 by the machine's own `xz`, `zstd`, `bzip2`, which
 * Node 20 lacks) and only the files under var/www/nailgun/plugins/<name>-<X.Y>/, where Fuel put a
 * plugin, are kept: written under `root` as tar-stream.ts writes a package's files, with the same
 * limits (sizes, entry count, the bomb ratio) and the same refusals (absolute paths, `..`, links,
 * devices). What lies elsewhere in the payload is read past and only counted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { readRpmFront, type RpmFront } from './rpm.js';
import { BOMB_FLOOR_BYTES, BOMB_RATIO, safeRelativePath, TarError, type TarLimits } from './tar.js';
import { abandon, bodyDone, claimPath, finishEntry, openEntry, readPast, takeFrom, type EntryBody, type StreamedEntry } from './unpacked-entry.js';

/** Where Fuel's RPMs install a plugin (fpb's spec: `%files /var/www/nailgun/plugins/<name>-<X.Y>`). */
export const FUEL_PLUGINS_DIR = 'var/www/nailgun/plugins';

export interface RpmContents {
  rpm: RpmFront;
  /** Paths start with the plugin's folder name, `<name>-<X.Y>/…`, as in a package. */
  entries: StreamedEntry[];
  /** How many payload entries lay outside var/www/nailgun/plugins/ (not unpacked), and the first few. */
  ignored: { count: number; some: string[] };
}

const NEWC_BYTES = 110;
const MAX_NAME_BYTES = 4096;
const S_IFMT = 0o170000;
const FILE_TYPES: Record<number, string> = { 0o120000: 'a symbolic link', 0o060000: 'a block device', 0o020000: 'a character device', 0o010000: 'a FIFO', 0o140000: 'a socket' };

/** The decompressors run as programs, with the Debian package that has each. */
const PROGRAMS: Record<string, { command: string; args: string[]; apt: string }> = {
  xz: { command: 'xz', args: ['-dc'], apt: 'xz-utils' },
  lzma: { command: 'xz', args: ['--format=lzma', '-dc'], apt: 'xz-utils' },
  zstd: { command: 'zstd', args: ['-dcq'], apt: 'zstd' },
  bzip2: { command: 'bzip2', args: ['-dc'], apt: 'bzip2' },
};

const pad4 = (n: number): number => (4 - (n % 4)) % 4;

/** Read the RPM at `file`; with `root`, write the plugin's files under it (a fresh folder). Throws TarError. */
export async function streamRpm(file: string, size: number, limits: TarLimits, root?: string): Promise<RpmContents> {
  const rpm = await readRpmFront(file, size);
  const compressedBytes = size - rpm.payloadOffset;
  if (compressedBytes <= 0) throw new TarError('package/truncated', 'the RPM has no payload after its headers: the file is truncated');
  const source = createReadStream(file, { start: rpm.payloadOffset });
  let child: ChildProcess | undefined;
  let input: Readable;
  let childError: Error | undefined;
  if (rpm.compressor === 'gzip') {
    input = source.pipe(createGunzip({ chunkSize: 256 * 1024 }));
    source.on('error', (err) => input.destroy(err));
  } else if (PROGRAMS[rpm.compressor]) {
    const program = PROGRAMS[rpm.compressor];
    child = spawn(program.command, program.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-500)));
    child.on('error', (err: NodeJS.ErrnoException) => {
      childError = err.code === 'ENOENT' ? new TarError('package/unsupported-compressor', `the RPM's payload is ${rpm.compressor}-compressed and the program ${program.command} is not installed`, undefined, `Install it (Debian: apt-get install ${program.apt}) and try again.`) : err;
      child!.stdout!.destroy(childError);
    });
    child.on('close', (code) => {
      if (code && !childError) {
        childError = new TarError(/unexpected end|truncated|premature/i.test(stderr) ? 'package/truncated' : 'package/bad-payload', `the RPM's ${rpm.compressor} payload cannot be decompressed: ${stderr.trim() || `${program.command} exited with ${code}`}`);
      }
    });
    child.stdin!.on('error', () => undefined); // the program stopped reading: its own exit says why
    source.pipe(child.stdin!);
    input = child.stdout!;
  } else {
    source.destroy();
    throw new TarError('package/unsupported-compressor', `the RPM's payload is compressed with ${JSON.stringify(rpm.compressor)}, which Hearth cannot read`, undefined, 'Fuel plugin RPMs use gzip or xz; rebuild the plugin with Fuel Plugin Builder or `hearth plugin build`.');
  }
  const stop = () => {
    source.destroy();
    input.destroy();
    if (child && child.exitCode === null) child.kill();
  };
  const reader = new CpioReader(limits, root, Math.min(limits.maxTotalBytes * 2 + (limits.maxEntries + 2) * 1024, Math.max(BOMB_FLOOR_BYTES, compressedBytes * BOMB_RATIO)), compressedBytes);
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (await reader.push(chunk)) break;
    }
    if (child && child.exitCode === null && !reader.ended) await new Promise((r) => child!.once('close', r));
  } catch (err) {
    await reader.abort();
    stop();
    const e = err as NodeJS.ErrnoException;
    if (err instanceof TarError) throw err;
    if (childError) throw childError;
    if (e.code === 'Z_BUF_ERROR') throw new TarError('package/truncated', 'the RPM\'s gzip payload ends early: the file is truncated');
    if (e.code?.startsWith('Z_')) throw new TarError('package/bad-payload', `the RPM's gzip payload is damaged (${e.message})`);
    throw err;
  }
  stop();
  if (!reader.ended) {
    await reader.abort();
    if (childError) throw childError;
    throw new TarError('package/truncated', 'the RPM\'s cpio payload has no TRAILER!!! entry: the file is truncated');
  }
  return { rpm, entries: reader.entries, ignored: reader.ignored };
}

/** The cpio newc parser, fed chunk by chunk. */
class CpioReader {
  readonly entries: StreamedEntry[] = [];
  readonly ignored = { count: 0, some: [] as string[] };
  private seen = 0;
  ended = false;
  private pending = Buffer.alloc(0);
  private current?: EntryBody;
  private inflated = 0;
  private total = 0;
  private top?: string;
  private readonly kinds = new Map<string, 'file' | 'dir'>();

  constructor(
    private readonly limits: TarLimits,
    private readonly root: string | undefined,
    private readonly streamLimit: number,
    private readonly compressedBytes: number,
  ) {}

  /** Take a chunk; true once the trailer is reached (the rest is not read). */
  async push(chunk: Buffer): Promise<boolean> {
    this.inflated += chunk.length;
    if (this.inflated > this.streamLimit) {
      const why = this.streamLimit < this.limits.maxTotalBytes ? `more than ${BOMB_RATIO} times its own size (${this.compressedBytes} bytes)` : `more than ${this.streamLimit} bytes`;
      throw new TarError('package/too-large', `the RPM's payload unpacks to ${why}`, undefined, 'This looks like a decompression bomb; it was not unpacked.');
    }
    let at = 0;
    while (at < chunk.length && !this.ended) {
      const c = this.current;
      if (c) {
        at = await takeFrom(c, chunk, at);
        if (bodyDone(c)) await this.finish();
        continue;
      }
      // A header (110 bytes), its name and the name's padding are gathered whole before acting.
      const take = Math.min(chunk.length - at, NEWC_BYTES + MAX_NAME_BYTES + 4 - this.pending.length);
      this.pending = Buffer.concat([this.pending, chunk.subarray(at, at + take)]);
      at += take;
      const used = await this.tryHeader();
      if (used === 0) continue;
      // Give back what was gathered past the header and name.
      const extra = this.pending.length - used;
      this.pending = Buffer.alloc(0);
      at -= extra;
    }
    return this.ended;
  }

  /** Parse a header from `pending`; the bytes it used, or 0 when more are needed. */
  private async tryHeader(): Promise<number> {
    const p = this.pending;
    if (p.length < NEWC_BYTES) return 0;
    const magic = p.toString('latin1', 0, 6);
    if (magic !== '070701' && magic !== '070702') throw new TarError('package/bad-payload', `the RPM's payload is not a cpio "newc" archive (header magic ${JSON.stringify(magic)} after ${this.inflated - p.length} bytes)`);
    const field = (i: number): number => {
      const text = p.toString('latin1', 6 + i * 8, 14 + i * 8);
      if (!/^[0-9a-fA-F]{8}$/.test(text)) throw new TarError('package/bad-payload', 'a cpio header has a field that is not hexadecimal');
      return parseInt(text, 16);
    };
    const mode = field(1);
    const nlink = field(4);
    const size = field(6);
    const nameSize = field(11);
    if (nameSize < 1 || nameSize > MAX_NAME_BYTES) throw new TarError('package/bad-payload', `a cpio entry's name is ${nameSize} bytes long`);
    const used = NEWC_BYTES + nameSize + pad4(NEWC_BYTES + nameSize);
    if (p.length < used) return 0;
    const raw = p.toString('utf8', NEWC_BYTES, NEWC_BYTES + nameSize - 1);
    if (raw === 'TRAILER!!!') {
      this.ended = true;
      return used;
    }
    await this.start(raw, mode, nlink, size);
    return used;
  }

  private async start(raw: string, mode: number, nlink: number, size: number): Promise<void> {
    const padding = pad4(size);
    const path = safeRelativePath(raw);
    // Every entry counts, kept or not: a payload of millions of tiny entries elsewhere is refused too.
    if (++this.seen > this.limits.maxEntries) throw new TarError('package/too-many-entries', `the RPM has more than ${this.limits.maxEntries} entries`);
    const kind = mode & S_IFMT;
    const type = kind === 0o040000 ? 'dir' : kind === 0o100000 ? 'file' : undefined;
    const inside = path === FUEL_PLUGINS_DIR ? undefined : path.startsWith(`${FUEL_PLUGINS_DIR}/`) ? path.slice(FUEL_PLUGINS_DIR.length + 1) : undefined;
    if (inside === undefined) {
      // Not the plugin: read past it, unwritten (a link or device there is never made either).
      if (path !== '' && !FUEL_PLUGINS_DIR.startsWith(path) && this.ignored.count++ < 5) this.ignored.some.push(path);
      this.current = readPast(size, padding);
      return this.settle();
    }
    if (!type) {
      throw new TarError('package/special-entry', `/${path} is ${FILE_TYPES[kind] ?? `an entry of unknown type ${kind.toString(8)}`}; a plugin holds only regular files and folders`, inside, 'Replace links with copies of the files and rebuild the RPM.');
    }
    if (type === 'file' && nlink > 1) throw new TarError('package/special-entry', `/${path} is a hard link; a plugin holds only regular files and folders`, inside, 'Replace links with copies of the files and rebuild the RPM.');
    const top = inside.split('/')[0];
    if (this.top === undefined) this.top = top;
    else if (top !== this.top) throw new TarError('package/layout', `the RPM holds two plugins under /${FUEL_PLUGINS_DIR}/: ${this.top} and ${top}`, inside, 'A Fuel plugin RPM installs one plugin folder.');
    if (type === 'file' && !inside.includes('/')) throw new TarError('package/layout', `/${path} is a file directly under /${FUEL_PLUGINS_DIR}/, not in a plugin's folder`, inside);
    if (type === 'file' && size > this.limits.maxEntryBytes) throw new TarError('package/entry-too-large', `/${path} is ${size} bytes, over the limit of ${this.limits.maxEntryBytes}`, inside);
    this.total += type === 'file' ? size : 0;
    if (this.total > this.limits.maxTotalBytes) throw new TarError('package/too-large', `the plugin's files add up to more than ${this.limits.maxTotalBytes} bytes`);
    const twice = () => new TarError('package/duplicate-entry', `/${path} appears more than once in the RPM`, inside, 'A later copy could silently replace the one that was checked.');
    // A folder listed twice too: rpmbuild never writes one twice.
    if (claimPath(this.kinds, inside, type, { twice, underFile: (ancestor) => new TarError('package/duplicate-entry', `/${path} lies under ${ancestor}, which is a file`, inside) }) === 'again') throw twice();
    const entry: StreamedEntry = { path: inside, type, executable: type === 'file' && (mode & 0o111) !== 0, size: type === 'file' ? size : 0, sha256: '' };
    this.current = await openEntry(entry, type === 'file' ? padding : pad4(size) + size, this.root);
    return this.settle();
  }

  private async settle(): Promise<void> {
    if (this.current && bodyDone(this.current)) await this.finish();
  }

  private async finish(): Promise<void> {
    const c = this.current!;
    this.current = undefined;
    const entry = await finishEntry(c);
    if (entry) this.entries.push(entry);
  }

  async abort(): Promise<void> {
    await abandon(this.current);
  }
}
