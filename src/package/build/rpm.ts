/**
 * The front of a Fuel plugin RPM (what Fuel Plugin Builder 2.0.0+ made with rpmbuild): the lead,
 * the signature header and the main header are read, bounded, to learn where the payload starts
 * and how it is compressed. The payload itself (cpio "newc") is read by cpio-stream.ts.
 *
 * Layout: a 96-byte lead (magic ED AB EE DB); then headers, each `8E AD E8 01`, 4 reserved bytes,
 * the count of index entries and the size of the data store (big-endian 32-bit), 16 bytes per
 * index entry (tag, type, offset, count), then the store. The signature header is padded to 8.
 */
import { open } from 'node:fs/promises';
import { TarError } from './tar.js';

export const RPM_MAGIC = Buffer.from([0xed, 0xab, 0xee, 0xdb]);
const HEADER_MAGIC = Buffer.from([0x8e, 0xad, 0xe8, 0x01]);
const LEAD_BYTES = 96;
// rpm itself refuses headers past 64k entries and 256 MiB; a plugin's header is a few KiB.
const MAX_INDEX_ENTRIES = 65_536;
const MAX_STORE_BYTES = 32 * 1024 * 1024;

const TAG = { name: 1000, version: 1001, release: 1002, payloadFormat: 1124, payloadCompressor: 1125 } as const;
const STRING_TYPES = new Set([6, 8, 9]); // STRING, STRING_ARRAY, I18NSTRING

export interface RpmFront {
  name?: string;
  version?: string;
  release?: string;
  /** `gzip`, `xz`, `lzma`, `zstd` or `bzip2` as the header says (an RPM without the tag is gzip). */
  compressor: string;
  /** Byte offset of the compressed payload. */
  payloadOffset: number;
}

const truncated = (what: string) => new TarError('package/truncated', `the RPM ends inside its ${what}: the file is truncated`, undefined, 'Download the RPM again.');

/** Read the lead and both headers of the RPM at `file` (`size` bytes). Throws TarError. */
export async function readRpmFront(file: string, size: number): Promise<RpmFront> {
  const handle = await open(file, 'r');
  try {
    const readAt = async (position: number, length: number, what: string): Promise<Buffer> => {
      if (position + length > size) throw truncated(what);
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (bytesRead < length) throw truncated(what);
      return buffer;
    };
    const lead = await readAt(0, LEAD_BYTES, 'lead');
    if (!lead.subarray(0, 4).equals(RPM_MAGIC)) throw new TarError('package/not-rpm', 'the file is not an RPM (no RPM lead)');
    if (lead[4] !== 3 && lead[4] !== 4) throw new TarError('package/not-rpm', `the RPM format version is ${lead[4]}.${lead[5]}, which Hearth does not read`, undefined, 'Fuel plugin RPMs are format 3.0.');
    const signature = await readHeader(readAt, LEAD_BYTES, 'signature header');
    const mainAt = LEAD_BYTES + Math.ceil(signature.length / 8) * 8;
    const main = await readHeader(readAt, mainAt, 'header');
    const format = main.strings.get(TAG.payloadFormat) ?? 'cpio';
    if (format !== 'cpio') throw new TarError('package/unsupported-rpm', `the RPM payload is in the ${JSON.stringify(format)} format; Hearth reads cpio payloads only`, undefined, 'Fuel Plugin Builder makes cpio payloads; rebuild the plugin with it or with `hearth plugin build`.');
    return {
      name: main.strings.get(TAG.name),
      version: main.strings.get(TAG.version),
      release: main.strings.get(TAG.release),
      compressor: main.strings.get(TAG.payloadCompressor) ?? 'gzip',
      payloadOffset: mainAt + main.length,
    };
  } finally {
    await handle.close();
  }
}

type ReadAt = (position: number, length: number, what: string) => Promise<Buffer>;

async function readHeader(readAt: ReadAt, at: number, what: string): Promise<{ length: number; strings: Map<number, string> }> {
  const intro = await readAt(at, 16, what);
  if (!intro.subarray(0, 4).equals(HEADER_MAGIC)) throw new TarError('package/not-rpm', `the RPM's ${what} at byte ${at} has no header magic: the file is damaged`);
  const count = intro.readUInt32BE(8);
  const storeBytes = intro.readUInt32BE(12);
  if (count > MAX_INDEX_ENTRIES || storeBytes > MAX_STORE_BYTES) throw new TarError('package/too-large', `the RPM's ${what} claims ${count} entries and ${storeBytes} bytes, far more than any plugin needs`);
  const index = await readAt(at + 16, count * 16, what);
  const store = await readAt(at + 16 + count * 16, storeBytes, what);
  const strings = new Map<number, string>();
  for (let i = 0; i < count; i++) {
    const tag = index.readUInt32BE(i * 16);
    const type = index.readUInt32BE(i * 16 + 4);
    const offset = index.readUInt32BE(i * 16 + 8);
    if (!STRING_TYPES.has(type) || offset >= storeBytes) continue;
    const end = store.indexOf(0, offset);
    strings.set(tag, store.subarray(offset, end === -1 ? storeBytes : end).toString('utf8'));
  }
  return { length: 16 + count * 16 + storeBytes, strings };
}
