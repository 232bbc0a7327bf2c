/**
 * Plain-text tables for people (one table for every command: ../output.ts); `--json` prints the server's JSON instead.
 *
 * What the server answers is text from plugins and operators: a control character in it is
 * written as `\uXXXX` here, before it reaches the terminal filter (cli/terminal.ts), which lets
 * Hearth's own colours through and could not tell a plugin title's `\x1b[31m` from one of them.
 */
import { escapeControls } from '../../core/text/controls.js';

export { table } from '../output.js';

/** The client's commands print no colours of their own: every control character in their text is the server's data, escaped. */
export function print(json: boolean | undefined, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : escapeControls(human()));
}
