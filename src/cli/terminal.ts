/**
 * Everything the `hearth` command prints goes through here: control characters that came from
 * plugin files or the server (a title holding `\e]0;…\a\e[2J` set the window title and cleared the
 * screen of `hearth plugin list`) are written as `\uXXXX`. Hearth's own colours and its progress
 * line's erase pass untouched: the only escape sequences let through are those few, exactly.
 */
import { fstatSync, writeSync } from 'node:fs';
import { escapeControls } from '../core/text/controls.js';
import { endQuietlyWhenReaderLeaves, readerLeft } from './pipe.js';

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

/**
 * Route this process's stdout and stderr through `sanitizeForTerminal`, and end quietly when their
 * reader goes away (./pipe.ts). Each stream is wrapped the
 * first time it is asked for, not here: making one loads Node's stream machinery (and a pipe's,
 * net), which a run that never writes to stderr, as most do, has no need of.
 */
export function guardTerminalOutput(): void {
  for (const name of ['stdout', 'stderr'] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name);
    if (!own?.get || !own.configurable) {
      guard(process[name]);
      continue;
    }
    const make = own.get;
    let stream: NodeJS.WriteStream | undefined;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable ?? true,
      get: () => {
        if (!stream) stream = guard(make.call(process) as NodeJS.WriteStream);
        return stream;
      },
    });
  }
}

/** Each guarded stream's own write, for the CLI's own control sequences (`writeOwn`). */
const unguarded = new WeakMap<NodeJS.WritableStream, (text: string | Uint8Array) => boolean>();

/**
 * Hearth's own control sequence (a progress line's "return and erase") and the text after it: the
 * sequence goes out as it is, whatever the filter makes of a lone carriage return, and every
 * control character of the text is escaped. A stream never guarded (a test's) is written to as it is.
 */
export function writeOwn(stream: NodeJS.WritableStream, sequence: '\r\u001b[2K' | '', text: string): void {
  const write = unguarded.get(stream) ?? ((t: string) => stream.write(t));
  write(sequence + escapeControls(text));
}

function guard(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  endQuietlyWhenReaderLeaves(stream);
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  unguarded.set(stream, (chunk) => write(chunk));
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : chunk;
    return write(typeof text === 'string' ? sanitizeForTerminal(text) : text, ...rest);
  }) as typeof stream.write;
  return stream;
}

/**
 * A command's whole answer, printed at once to file descriptor 1, without making process.stdout:
 * that loads Node's stream machinery, and for a pipe or a terminal its net module too, 2 ms of CPU
 * of a `hearth plugin validate` run (issue 30), which writes nothing else. The same text as
 * process.stdout.write would print (sanitised the same way), all of it: a write that takes only
 * part goes on from where it stopped; output Node's stream must wait for (a pipe set non-blocking
 * by another process, full: EAGAIN) is handed to process.stdout, which waits; a reader gone ends
 * the run as it would (./pipe.ts).
 */
export function printAnswer(text: string): void {
  const bytes = Buffer.from(sanitizeForTerminal(text), 'utf8');
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(1, bytes, at);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return readerLeft();
      if (code !== 'EAGAIN') throw err;
      // Bytes, already sanitised, so the stream's own write, not the guarded one (which would
      // decode them again, and could split a character between two writes).
      const stdout = process.stdout;
      (unguarded.get(stdout) ?? ((rest: Uint8Array) => stdout.write(rest)))(bytes.subarray(at));
      return;
    }
  }
}

/**
 * Whether stdout is a terminal, as process.stdout.isTTY says, without making process.stdout when
 * it cannot be one: a terminal is a character device, a file, pipe or socket never is.
 */
export function stdoutIsTerminal(): boolean {
  try {
    if (!fstatSync(1).isCharacterDevice()) return false;
  } catch {
    // Let process.stdout say.
  }
  return process.stdout.isTTY === true;
}
