/**
 * Where the shared corpus is. CI sets HEARTH_CORPUS; on a newcomer's clone it may be absent, and
 * tests over it are skipped with a visible note rather than failing.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const corpusRoot: string | undefined = process.env.HEARTH_CORPUS && existsSync(process.env.HEARTH_CORPUS) ? process.env.HEARTH_CORPUS : undefined;

/** `{ skip }` options for node:test: a reason when the corpus is missing, false when it is there. */
export const needsCorpus = { skip: corpusRoot ? false : 'HEARTH_CORPUS not set: corpus tests skipped (CI runs them)' };

export function corpusPath(...parts: string[]): string {
  if (!corpusRoot) throw new Error('corpus not available');
  return join(corpusRoot, ...parts);
}

/** Every `.yaml` or `.yml` file under `dir`, sorted. */
export function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFiles(path));
    else if (entry.isFile() && /\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}
