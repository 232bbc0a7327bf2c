/** Names and options shared by the pre-compiled validators and the runtime fallback. */
import { readFileSync, readdirSync } from 'node:fs';
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

/** Schema file name → export name in the compiled module. */
export const exportName = (file: string): string => 'v_' + file.replace(/\.json$/, '').replace(/[^A-Za-z0-9]/g, '_');

