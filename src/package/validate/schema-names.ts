/** Names and options shared by the pre-compiled validators and the runtime fallback. */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The options every compiled and runtime validator shares. */
export const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;
export const SCHEMA_BASE = 'https://hearth.dev/schemas/';

/** A digest of the schema files, so stale compiled code is detected and not used. */
export function schemasDigest(dir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    hash.update(name);
    hash.update(readFileSync(join(dir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Schema file name → export name in the compiled module. */
export const exportName = (file: string): string => 'v_' + file.replace(/\.json$/, '').replace(/[^A-Za-z0-9]/g, '_');

