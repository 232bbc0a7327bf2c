/** Names and options shared by the pre-compiled validators and the runtime fallback. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The options every compiled and runtime validator shares. */
export const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;
export const SCHEMA_BASE = 'https://hearth.dev/schemas/';

/**
 * A digest of the schema files, so stale compiled code is detected and not used. It guards against
 * edits, not attacks, and `hearth plugin validate` computes it on every run, so it is two cheap
 * multiplicative hashes (FNV-1a style) over 32-bit words: loading node:crypto for a sha256 cost
 * more than the hashing, and a byte-wise loop runs cold in V8's interpreter.
 */
export function schemasDigest(dir: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  let length = 0;
  const mix = (word: number): void => {
    a = Math.imul(a ^ word, 0x01000193);
    b = Math.imul(b ^ word, 0x0100019d) ^ (b >>> 15);
  };
  const add = (bytes: Uint8Array): void => {
    const whole = bytes.length >>> 2;
    const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes);
    const words = new Int32Array(aligned.buffer, aligned.byteOffset, whole);
    for (let i = 0; i < whole; i++) mix(words[i]);
    for (let i = whole * 4; i < bytes.length; i++) mix(bytes[i]);
    length += bytes.length;
  };
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    add(Buffer.from(`${name}\0`));
    add(readFileSync(join(dir, name)));
  }
  const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
  return `${hex(a)}${hex(b)}-${length.toString(16)}`;
}

/**
 * What the schema files look like on disk without reading them: name, size, inode and the
 * modification and change times of each. Any write, replacement, rename or touch changes the
 * change time, which no tool can set back, so an equal stamp means the files are the same ones.
 * The bundle (scripts/bundle.mjs) records the stamp of the files it found matching the compiled
 * validators, and a run whose stamp is equal needs no digest: a tenth of the time, no reads.
 */
export function schemasStamp(dir: string): string {
  return readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((name) => {
      const s = statSync(join(dir, name));
      return `${name} ${s.size} ${s.ino} ${s.mtimeMs} ${s.ctimeMs}`;
    })
    .join('\n');
}

/** Schema file name → export name in the compiled module. */
export const exportName = (file: string): string => 'v_' + file.replace(/\.json$/, '').replace(/[^A-Za-z0-9]/g, '_');

