/**
 * Changing V8's flags while Hearth runs. V8 accepts a code cache only under the flags it was
 * written with: Node's own, for its built-in modules, and bin/hearth's hand-kept cache of the
 * bundle. So bin/hearth writes that cache (in the build's warm-up, or replacing a refused one)
 * before the first change, when it hears this event: written after (as the process exited), the
 * `hearth serve` cache was refused by every restart, which had not changed them yet.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The event bin/hearth listens for (on `process`); the name is spelt there too. */
export const BEFORE_V8_FLAGS_CHANGE = 'hearth:before-v8-flags-change';

export function setV8Flags(flags: string): void {
  (process as NodeJS.EventEmitter).emit(BEFORE_V8_FLAGS_CHANGE);
  setFlagsFromString(flags);
}

/** V8's gc(), reachable once --expose-gc is set: a new context's global then has it. */
type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let gc: Gc | undefined;

/**
 * Collects this thread's garbage as V8 does when memory runs out: every generation, compacted,
 * and the young generation shrunk to its least (1 MB), which no ordinary collection does. The
 * young generation a start-up grew (7 MB on the main thread, 8 on the database's, issue 30) is
 * otherwise kept, empty, for good; it grows again under load. It holds the thread a while (a
 * 34 MB heap took 0.1-0.16 s on a loaded 2-core machine): for an idle moment, once.
 */
export function collectAllGarbage(): void {
  if (!gc) {
    setV8Flags('--expose-gc');
    gc = runInNewContext('gc') as Gc;
  }
  gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
