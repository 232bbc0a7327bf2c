/**
 * Misspelt keys. Fuel stored keys it did not know without a word, so `required_form` or
 * `concflicts` silently did nothing. A key close to a known one is reported with the likely
 * intended name; other unknown keys stay quiet, since plugins carry their own extra data.
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf } from '../../core/positions.js';
import { closest } from './spelling.js';
import { isMapping, type ValidationContext } from './context.js';

/** Keys that look like typos but are real and differently spelt on purpose. */
const NOT_TYPOS = new Set(['role', 'roles', 'tags', 'tasks', 'groups', 'type', 'types', 'version', 'versions', 'mode', 'modes', 'os']);

/** `ignore`: keys read elsewhere (not checked here); the record itself is kept, as its positions are. */
export function checkKnownKeys(ctx: ValidationContext, record: unknown, known: readonly string[], label: string, ignore: (key: string) => boolean = () => false): void {
  if (!isMapping(record)) return;
  for (const key of Object.keys(record)) {
    if (known.includes(key) || NOT_TYPOS.has(key) || ignore(key)) continue;
    const near = closest(key, known);
    if (!near) continue;
    ctx.findings.push(
      finding(
        'key/misspelt',
        'warning',
        `${label} has the key '${key}', which Fuel does not read; did you mean '${near}'?`,
        keyPositionOf(record, key),
        `rename '${key}' to '${near}'`,
      ),
    );
  }
}
