/**
 * Plain-text tables for people; `--json` prints the server's JSON instead.
 *
 * What the server answers is text from plugins and operators: a control character in it is
 * written as `\uXXXX` here, before it reaches the terminal filter (cli/terminal.ts), which lets
 * Hearth's own colours through and could not tell a plugin title's `\x1b[31m` from one of them.
 */
import { escapeControls } from '../../core/text/controls.js';

export function table(headers: string[], rows: Array<Array<unknown>>): string {
  const text = rows.map((r) => r.map((c) => escapeControls(c === null || c === undefined ? '-' : Array.isArray(c) ? c.join(',') || '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n') + '\n';
}

/** The client's commands print no colours of their own: every control character in their text is the server's data, escaped. */
export function print(json: boolean | undefined, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : escapeControls(human()));
}
