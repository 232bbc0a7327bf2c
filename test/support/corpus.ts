/**
 * Where the shared corpus is. CI sets HEARTH_CORPUS; on a newcomer's clone it may be absent, and
 * tests over it are skipped with a visible note rather than failing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const corpusRoot: string | undefined = process.env.HEARTH_CORPUS && existsSync(process.env.HEARTH_CORPUS) ? process.env.HEARTH_CORPUS : undefined;

/** `{ skip }` options for node:test: a reason when the corpus is missing, false when it is there. */
export const needsCorpus = { skip: corpusRoot ? false : 'HEARTH_CORPUS not set: corpus tests skipped (CI runs them)' };

export function corpusPath(...parts: string[]): string {
  if (!corpusRoot) throw new Error('corpus not available');
  return join(corpusRoot, ...parts);
}
