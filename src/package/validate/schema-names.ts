/** Names and options shared by the pre-compiled validators and the runtime fallback. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The options every compiled and runtime validator shares. */
export const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;
export const SCHEMA_BASE = 'https://hearth.dev/schemas/';

/**
 * A digest of the schema files, so stale compiled code is detected and not used. It guards against
 * edits, not attacks, so two FNV-1a hashes do: `hearth plugin validate` computes it on every run,
 * and loading node:crypto for a sha256 cost more than the hashing itself.
 */
export function schemasDigest(dir: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  let length = 0;
  const add = (bytes: Uint8Array): void => {
    for (let i = 0; i < bytes.length; i++) {
      a = Math.imul(a ^ bytes[i], 0x01000193);
      b = Math.imul(b ^ bytes[i], 0x0100019d) ^ (b >>> 15);
    }
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

