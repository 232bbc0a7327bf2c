/**
 * How a command's failure that is not commander's becomes an exit status: shared by the program
 * (program.ts) and by `hearth plugin validate` run without commander (validate-main.ts).
 */
import { EXIT_USAGE } from './exit.js';
import { OutputError } from './output.js';

export function failed(err: unknown): void {
  if (err instanceof OutputError) {
    // A bad -f or -c of an offline command (the client's are said by its run()).
    process.stderr.write(`hearth: ${err.message}\n`);
    process.exitCode = EXIT_USAGE;
  } else {
    process.stderr.write(`hearth: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 70;
  }
}
