/**
 * A command whose reader goes away (`hearth graph --format dot | head`, `hearth deployment logs 7
 * | head`) ends quietly with status 0, as `cat` does, instead of dying on the write's EPIPE with a
 * stack trace. Every command gets it: `guardTerminalOutput` arms each of stdout and stderr the
 * first time it is made, so a run that never writes to a stream still never makes it.
 */
let readerGone = (): void => process.exit(0);

/**
 * `hearth serve` goes on serving when its log's reader goes away (a `| tee` that died): its output
 * is a log, not its work, and ending with status 0 would tell a supervisor all was well.
 */
export function keepRunningWhenReaderLeaves(): void {
  readerGone = () => undefined;
}

/** What a write whose reader went away does: ends the run (or, for `hearth serve`, nothing). */
export function readerLeft(): void {
  readerGone();
}

export function endQuietlyWhenReaderLeaves(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return readerGone();
    throw err;
  });
}
