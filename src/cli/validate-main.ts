/**
 * `hearth plugin validate` alone: what bin/hearth runs when the command line starts with those two
 * words (from dist/bundle/validate.cjs, see scripts/bundle.mjs). main.ts with that command line
 * registers this one command too (commands/index.ts), so the answers are the same; this entry only
 * leaves out the other commands' code, which the full bundle made every run read and load (a
 * third of the run's CPU beyond a bare Node start, issue 30).
 */
import { registerPluginValidate } from './commands/plugin-validate.js';
import { runHearth } from './program.js';

runHearth((program) => registerPluginValidate(program));
