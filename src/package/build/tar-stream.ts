/**
 * Reading a package as a stream: inflated in chunks (zlib runs on libuv's threads, so the event loop
 * keeps answering), each file written to disk or only hashed as its bytes arrive, never the whole
 * archive in memory. The reader of tar.ts inflated a package whole first: a package compressed a
 * little under the bomb ratio (176-fold) made 2.8 MB into 500 MB in one synchronous call, stalling a
 * server 5 s and holding 1.5 GB. The checks are the same as tar.ts's, entry by entry.
 */
import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { BLOCK, BOMB_FLOOR_BYTES, BOMB_RATIO, checksumOk, parsePax, readOctal, readString, safeRelativePath, TarError, TYPE_NAMES, type TarLimits } from './tar.js';
import { abandon, bodyDone, claimPath, finishEntry, openEntry, readPast, takeFrom, type EntryBody, type StreamedEntry } from './unpacked-entry.js';

export type { StreamedEntry } from './unpacked-entry.js';

/** An entry being read; an extended header (pax 'x', GNU long name 'L') is kept to name the next entry. */
type Current = EntryBody & { meta?: 'x' | 'L' };

/**
 * Read the .tar.gz at `file` entry by entry; with `root`, write each file under it (which must be a
 * fresh folder: files are created exclusively). Throws TarError on the first shape it refuses; the
 * caller removes `root` then.
 */
export async function streamTarGz(file: string, gzipBytes: number, limits: TarLimits, root?: string): Promise<StreamedEntry[]> {
  const entries: StreamedEntry[] = [];
  const kinds = new Map<string, 'file' | 'dir'>();
  // Past 64 MiB, a package that grows more than 200-fold is a bomb; and never more than the limit in all.
  const ratioLimit = Math.max(BOMB_FLOOR_BYTES, gzipBytes * BOMB_RATIO);
  const streamLimit = Math.min(limits.maxTotalBytes + (limits.maxEntries + 2) * BLOCK * 3, ratioLimit);
  let inflated = 0;
  let total = 0;
  let header = Buffer.alloc(0);
  let current: Current | undefined;
  let pending: Map<string, string> | undefined;
  let longName: string | undefined;
  let ended = false;

  const finish = async (c: Current) => {
    if (c.meta) {
      const data = Buffer.concat(c.kept);
      if (c.meta === 'x') pending = parsePax(data);
      else longName = readString(data, 0, data.length);
      return;
    }
    const entry = await finishEntry(c);
    if (entry) entries.push(entry);
  };

  const startEntry = async (block: Buffer): Promise<Current> => {
    if (!checksumOk(block)) throw new TarError('package/bad-header', `the header at byte ${inflated} has a wrong checksum`, undefined, 'The file is damaged or not a tar archive.');
    const typeflag = String.fromCharCode(block[156] || 0x30);
    let size = readOctal(block, 124, 12, 'size');
    if (pending?.has('size')) size = Number(pending.get('size'));
    if (!Number.isSafeInteger(size) || size < 0) throw new TarError('package/bad-header', 'an entry has an invalid size');
    const padding = Math.ceil(size / BLOCK) * BLOCK - size;
    if (typeflag === 'x' || typeflag === 'L') {
      if (size > 64 * 1024) throw new TarError('package/bad-header', 'an extended header is implausibly large');
      return { remaining: size, padding, keep: true, kept: [], meta: typeflag };
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
      if (type === 'dir') return readPast(0, Math.ceil(size / BLOCK) * BLOCK);
      throw new TarError('package/unsafe-path', 'a file entry has an empty path', raw);
    }
    if (entries.length >= limits.maxEntries) throw new TarError('package/too-many-entries', `the package has more than ${limits.maxEntries} entries`);
    if (type === 'file' && size > limits.maxEntryBytes) throw new TarError('package/entry-too-large', `${path} is ${size} bytes, over the limit of ${limits.maxEntryBytes}`, path);
    total += size;
    if (total > limits.maxTotalBytes) throw new TarError('package/too-large', `the files of the package add up to more than ${limits.maxTotalBytes} bytes`);
    const refuse = {
      twice: () => new TarError('package/duplicate-entry', `${path} appears more than once in the package`, path, 'A later copy could silently replace the one that was checked.'),
      underFile: (ancestor: string) => new TarError('package/duplicate-entry', `${path} lies under ${ancestor}, which is a file`, path),
    };
    if (claimPath(kinds, path, type, refuse) === 'again') return readPast(0, Math.ceil(size / BLOCK) * BLOCK);
    const mode = readOctal(block, 100, 8, 'mode');
    const entry: StreamedEntry = { path, type, executable: type === 'file' && (mode & 0o111) !== 0, size: type === 'file' ? size : 0, sha256: '' };
    return openEntry(entry, type === 'file' ? padding : Math.ceil(size / BLOCK) * BLOCK, root);
  };

  const head = await open(file, 'r');
  const magic = Buffer.alloc(2);
  try {
    await head.read(magic, 0, 2, 0);
  } finally {
    await head.close();
  }
  if (gzipBytes < 18 || magic[0] !== 0x1f || magic[1] !== 0x8b) throw new TarError('package/not-gzip', 'the file is not gzip-compressed', undefined, 'A package is a .tar.gz made by `hearth plugin build`.');
  const source = createReadStream(file);
  const input = source.pipe(createGunzip({ chunkSize: 256 * 1024 }));
  // pipe() does not pass a read error on: without this the loop below would wait for ever.
  source.on('error', (err) => input.destroy(err));
  const stop = () => {
    source.destroy();
    input.destroy();
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (inflated > streamLimit) {
        const why = ratioLimit < limits.maxTotalBytes ? `more than ${BOMB_RATIO} times its own size` : `more than ${limits.maxTotalBytes} bytes`;
        throw new TarError('package/too-large', `the package unpacks to ${why}`, undefined, 'This looks like a decompression bomb; it was not unpacked.');
      }
      // After the end-of-archive marker the rest of the stream is only counted: trailing bytes
      // are bounded by the same limit as the archive (a bomb may hide there).
      let at = 0;
      while (at < chunk.length && !ended) {
        if (current) {
          at = await takeFrom(current, chunk, at);
          if (bodyDone(current)) {
            await finish(current);
            current = undefined;
          }
          continue;
        }
        const need = BLOCK - header.length;
        header = Buffer.concat([header, chunk.subarray(at, at + need)]);
        at += Math.min(need, chunk.length - at);
        if (header.length < BLOCK) continue;
        const block = header;
        header = Buffer.alloc(0);
        if (block.every((b) => b === 0)) {
          ended = true;
          break;
        }
        current = await startEntry(block);
        if (bodyDone(current)) {
          await finish(current);
          current = undefined;
        }
      }
    }
  } catch (err) {
    await abandon(current);
    stop();
    const e = err as NodeJS.ErrnoException;
    if (err instanceof TarError) throw err;
    if (e.code === 'Z_BUF_ERROR') throw new TarError('package/truncated', 'the gzip stream ends early: the file is truncated');
    if (e.code?.startsWith('Z_') || e.code === 'ERR_INVALID_ARG_VALUE') throw new TarError('package/not-gzip', `the gzip stream is damaged (${e.message})`);
    throw err;
  }
  stop();
  if (current) {
    await abandon(current);
    throw new TarError('package/truncated', 'the archive ends in the middle of an entry: the file is truncated');
  }
  if (!ended) throw new TarError('package/truncated', 'the archive has no end-of-archive marker: the file is truncated');
  return entries;
}
