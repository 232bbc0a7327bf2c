/**
 * Everything the `hearth` command prints goes through here: control characters that came from
 * plugin files or the server (a title holding `\e]0;…\a\e[2J` set the window title and cleared the
 * screen of `hearth plugin list`) are written as `\uXXXX`. Hearth's own colours and its progress
 * line's erase pass untouched: the only escape sequences let through are those few, exactly.
 */
import { escapeControls } from '../core/text/controls.js';

/** SGR colours the validation report uses (bold, dim, red, green, yellow, cyan, reset) and the build progress line's "return and erase". */
const OWN_SEQUENCES = /\u001b\[(?:0|1|2|31|32|33|36)m|\r\u001b\[2K/g;

export function sanitizeForTerminal(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(OWN_SEQUENCES)) {
    out += escapeControls(text.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return out + escapeControls(text.slice(last));
}

/** Route this process's stdout and stderr through `sanitizeForTerminal`. */
export function guardTerminalOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : chunk;
      return write(typeof text === 'string' ? sanitizeForTerminal(text) : text, ...rest);
    }) as typeof stream.write;
  }
}
