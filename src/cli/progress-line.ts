/**
 * The progress of a long operation (a deployment, a package upload, a database export or import)
 * as people and scripts read it. On a terminal one line is redrawn in place ("\r" and erase, written
 * as Hearth's own sequence: ./terminal.ts); anywhere else (a pipe, a file, a CI log) each step is a
 * line of its own, printed when it changes and at most once a second, so a log holds steps, not a
 * wall of repaints. Text is escaped: a step may quote the server's words.
 */
import { writeOwn } from './terminal.js';

export interface ProgressLine {
  /** The current step. */
  update(text: string): void;
  /** Ends the redrawn line (a terminal); the next output starts on a line of its own. */
  end(): void;
}

export function progressLine(stream: NodeJS.WriteStream = process.stderr, options: { minIntervalMs?: number } = {}): ProgressLine {
  const tty = stream.isTTY === true;
  const every = options.minIntervalMs ?? 1000;
  let open = false;
  let last = '';
  let lastAt = 0;
  let pending: string | undefined;
  return {
    update(text) {
      if (tty) {
        writeOwn(stream, '\r\u001b[2K', text);
        open = true;
        return;
      }
      if (text === last) return;
      const now = Date.now();
      if (now - lastAt < every) {
        pending = text;
        return;
      }
      writeOwn(stream, '', `${text}\n`);
      last = text;
      lastAt = now;
      pending = undefined;
    },
    end() {
      if (open) writeOwn(stream, '', '\n');
      // A step held back by the once-a-second rule is the latest one: the log ends with it.
      else if (pending !== undefined && pending !== last) writeOwn(stream, '', `${pending}\n`);
      open = false;
      pending = undefined;
    },
  };
}
