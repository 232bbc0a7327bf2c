/**
 * Changing V8's flags while Hearth runs. V8 accepts a code cache only under the flags it was
 * written with: Node's own, for its built-in modules, and bin/hearth's hand-kept cache of the
 * bundle. So bin/hearth writes that cache (in the build's warm-up, or replacing a refused one)
 * before the first change, when it hears this event: written after (as the process exited), the
 * `hearth serve` cache was refused by every restart, which had not changed them yet.
 */
import { setFlagsFromString } from 'node:v8';

/** The event bin/hearth listens for (on `process`); the name is spelt there too. */
export const BEFORE_V8_FLAGS_CHANGE = 'hearth:before-v8-flags-change';

export function setV8Flags(flags: string): void {
  (process as NodeJS.EventEmitter).emit(BEFORE_V8_FLAGS_CHANGE);
  setFlagsFromString(flags);
}
