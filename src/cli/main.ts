/**
 * The `hearth` command. Each area registers its subcommands from src/cli/commands/; a command's
 * action imports its heavy modules lazily so that `hearth plugin validate` starts fast.
 */
import { registerCommands } from './commands/index.js';
import { runHearth } from './program.js';

runHearth((program) => registerCommands(program, process.argv));
