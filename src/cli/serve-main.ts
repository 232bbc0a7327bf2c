/**
 * `hearth serve` alone: what bin/hearth runs when the command line starts with that word (from
 * dist/bundle/serve.cjs, see scripts/bundle.mjs). main.ts with that command line registers this one
 * command too (commands/index.ts), so the answers are the same. Its bundle holds the server's
 * packages (Fastify and what it loads) where the whole command's leaves them to Node's loader, and
 * its code cache is warmed on a restart: a restart's first answer (issue 30) no longer waits for
 * Node to find, read and compile some two hundred files of node_modules.
 */
import { registerServe } from './commands/serve.js';
import { runHearth } from './program.js';

runHearth((program) => registerServe(program));
