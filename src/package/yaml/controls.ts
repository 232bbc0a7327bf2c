/**
 * Control characters in YAML values. The reader refuses them written raw (libyaml does), but a
 * double-quoted string spells them as escapes (`"\e]0;pwned\a\e[2J"`), and a plugin title holding
 * one validated cleanly and, printed by `hearth plugin list`, set the terminal's title and cleared
 * its screen. Hearth prints them escaped now; this says where they are, so the author can see them.
 */
import { finding, type Finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { firstControl } from '../../core/text/controls.js';

/** Findings beyond this many per file are summed up in one. */
const MAX_REPORTED = 10;

export function controlCharacterFindings(value: unknown, file: string): Finding[] {
  const found: Finding[] = [];
  let more = 0;
  const report = (what: string, control: string, at: ReturnType<typeof positionOf>) => {
    if (found.length >= MAX_REPORTED) {
      more++;
      return;
    }
    found.push(
      finding(
        'yaml/control-character-value',
        'warning',
        `${what} holds the control character ${control}: printed to a terminal it would act (set the window title, clear the screen, move the cursor) instead of showing`,
        { file, line: 1, column: 1, ...at },
        'remove it; Hearth prints such characters escaped (\\u001b), other tools may not',
      ),
    );
  };
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node); // aliases share nodes: each once
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        const control = typeof item === 'string' ? firstControl(item) : undefined;
        if (control) report(`item ${i + 1} of a list`, control, positionOf(node, i));
        walk(item);
      });
      return;
    }
    for (const [key, item] of Object.entries(node)) {
      const inKey = firstControl(key);
      if (inKey) report(`the key ${JSON.stringify(key)}`, inKey, keyPositionOf(node, key));
      const control = typeof item === 'string' ? firstControl(item) : undefined;
      if (control) report(`the value of '${key.length > 60 ? `${key.slice(0, 60)}…` : key}'`, control, positionOf(node, key));
      walk(item);
    }
  };
  walk(value);
  if (more > 0) found.push(finding('yaml/control-character-value', 'warning', `${more} more value(s) hold control characters`, { file, line: 1, column: 1 }));
  return found;
}
