/**
 * `hearth plugin validate` alone: what bin/hearth runs when the command line starts with those two
 * words (from dist/bundle/validate.cjs, see scripts/bundle.mjs). main.ts with that command line
 * registers this one command too (commands/index.ts), so the answers are the same; this entry only
 * leaves out the other commands' code, which the full bundle made every run read and load (a
 * third of the run's CPU beyond a bare Node start, issue 30). A plain command line (one folder,
 * the command's flags) runs the command without commander (commands/plugin-validate-args.ts);
 * any other is commander's, loaded then.
 */
import { plainValidateCall } from './commands/plugin-validate-args.js';
import { registerPluginValidate, validateAction } from './commands/plugin-validate.js';
import { failed } from './failure.js';
import { guardTerminalOutput } from './terminal.js';

const plain = plainValidateCall(process.argv.slice(2));
if (plain) {
  guardTerminalOutput();
  validateAction(plain.dir, plain.flags).catch(failed);
} else {
  // No top-level await: the bundle is a CommonJS script (program.ts says why).
  void import('./program.js').then(({ runHearth }) => runHearth((program) => registerPluginValidate(program)));
}
