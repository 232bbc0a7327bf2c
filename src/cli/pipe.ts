/**
 * A command whose reader goes away (`hearth deployment logs 7 | head`) ends quietly, as `cat`
 * does, instead of dying on the write's EPIPE with a stack trace. Set up by the commands that print
 * long or endless output; not at start-up, which would make the stdout stream for every command.
 */
let armed = false;

export function endQuietlyWhenReaderLeaves(): void {
  if (armed) return;
  armed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') process.exit(0);
      throw err;
    });
  }
}
