/**
 * Helpers for package tests: raw tar headers of any shape (to craft hostile archives the real
 * writer would never produce), temp folders, and a stand-in validator for tests that are about
 * packaging rather than validation.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ValidationOutcome } from '../../src/package/build/index.js';

export interface RawEntry {
  name: string;
  /** tar typeflag: '0' file, '5' dir, '1' hard link, '2' symlink, '3' char dev, '4' block dev, '6' FIFO … */
  type?: string;
  data?: Buffer | string;
  linkname?: string;
  mode?: number;
  /** Size written in the header when it should differ from the data (truncation, lies). */
  sizeField?: number;
  /** Corrupt the header checksum. */
  badChecksum?: boolean;
}

function put(block: Buffer, offset: number, length: number, value: string): void {
  Buffer.from(value, 'utf8').copy(block, offset, 0, length);
}

export function rawHeader(e: RawEntry, size: number): Buffer {
  const b = Buffer.alloc(512);
  put(b, 0, 100, e.name);
  put(b, 100, 8, (e.mode ?? 0o644).toString(8).padStart(7, '0'));
  put(b, 108, 8, '0000000');
  put(b, 116, 8, '0000000');
  put(b, 124, 12, size.toString(8).padStart(11, '0'));
  put(b, 136, 12, '00000000000');
  b.fill(0x20, 148, 156);
  put(b, 156, 1, e.type ?? '0');
  put(b, 157, 100, e.linkname ?? '');
  put(b, 257, 6, 'ustar\0');
  put(b, 263, 2, '00');
  let sum = 0;
  for (const x of b) sum += x;
  if (e.badChecksum) sum += 7;
  put(b, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return b;
}

/** An uncompressed tar of raw entries, with or without the end-of-archive blocks. */
export function rawTar(entries: RawEntry[], end = true): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '');
    parts.push(rawHeader(e, e.sizeField ?? data.length));
    if (data.length) parts.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  if (end) parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export const rawTarGz = (entries: RawEntry[], end = true): Buffer => gzipSync(rawTar(entries, end));

export function tempDir(prefix = 'hearth-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export const isEmptyDir = (path: string): boolean => readdirSync(path).length === 0;

/** Accepts everything: for tests about packaging, not validation. */
export const acceptAll = (): ValidationOutcome => ({ valid: true, findings: [] });
