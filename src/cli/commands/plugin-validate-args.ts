/**
 * `hearth plugin validate`'s command line read without commander, for the plain lines nearly every
 * run has: one folder and the command's own flags, each written out in full as its own word. Its
 * own bundle (validate-main.ts) then never loads commander nor builds the program (issue 30).
 * Anything else (help, --version, `--flag=value`, a flag twice, a value or a folder starting with
 * `-`, `--`, an unknown word, a missing or second folder) is left to commander, which answers it,
 * errors and exit statuses included, as it always has: this reader gives up, as the simple YAML
 * reader does, rather than answer differently. The flags it builds are commander's for that line.
 */
import type { ValidateFlags } from './plugin-validate.js';

/** The flags that take a value, and their names in ValidateFlags. */
const WITH_VALUE = { '--release': 'release', '--release-version': 'releaseVersion', '--tasks': 'tasks' } as const;

/** `args` are the words after `hearth` (process.argv from its third). */
export function plainValidateCall(args: readonly string[]): { dir: string; flags: ValidateFlags } | undefined {
  if (args[0] !== 'plugin' || args[1] !== 'validate') return undefined;
  // commander's defaults: --with collects into [], --no-color makes `color` true unless given.
  const flags: ValidateFlags = { with: [], color: true };
  const seen = new Set<string>();
  let dir: string | undefined;
  for (let i = 2; i < args.length; i++) {
    const word = args[i];
    if (!word.startsWith('-')) {
      if (dir !== undefined || word === '') return undefined;
      dir = word;
      continue;
    }
    if (word !== '--with' && seen.has(word)) return undefined;
    seen.add(word);
    if (word === '--json') flags.json = true;
    else if (word === '--no-color') flags.color = false;
    else if (word === '--with' || Object.hasOwn(WITH_VALUE, word)) {
      const value = args[++i];
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      if (word === '--with') flags.with.push(value);
      else flags[WITH_VALUE[word as keyof typeof WITH_VALUE]] = value;
    } else return undefined;
  }
  return dir === undefined ? undefined : { dir, flags };
}
