/**
 * The `hearth` program around its commands: the top-level flags, the examples in help, and how a
 * commander or output error becomes an exit status. Shared by the whole command (main.ts) and by
 * `hearth plugin validate`'s own entry (validate-main.ts), so that both answer alike.
 */
import { Command, CommanderError } from 'commander';
import { addExamples } from './examples.js';
import { EXIT_USAGE } from './exit.js';
import { failed } from './failure.js';
import { guardTerminalOutput } from './terminal.js';
import { hearthVersion } from '../package/root.js';

/** Runs `hearth` on process.argv with the commands `register` declares. */
export function runHearth(register: (program: Command) => void): void {
  // Text from plugin files and the server may hold terminal control sequences: print them escaped.
  guardTerminalOutput();

  const program = new Command();
  program
    .name('hearth')
    .description('Compose OpenStack-style clouds from a release and plugins; write, check and package plugins.')
    // Commander's .version() wants the text up front, which would read package.json at every start;
    // this flag reads it only when asked. Hearth's own package.json, not npm_package_version: under
    // an npm script that is the user's project.
    .option('-V, --version', 'output the version number')
    .on('option:version', () => {
      const version = hearthVersion();
      process.stdout.write(`${version}\n`);
      throw new CommanderError(0, 'commander.version', version);
    })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  register(program);
  // Examples close each command's help; only a run asking for help needs them.
  if (process.argv.length <= 2 || process.argv[2] === 'help' || process.argv.some((a) => a === '--help' || a === '-h')) addExamples(program);

  // No top-level await: the bundle (scripts/bundle.mjs) is a CommonJS script so that V8 can reuse
  // its compiled code from one run to the next.
  program.parseAsync(process.argv).catch((err: unknown) => {
    if (err instanceof CommanderError) {
      // --help and --version end here with code 0; every other commander error is bad usage.
      process.exitCode = err.exitCode === 0 ? 0 : EXIT_USAGE;
    } else failed(err);
  });
}
