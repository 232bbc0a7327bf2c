import type { Command } from 'commander';
import { registerPluginValidate } from './plugin-validate.js';
import { registerPluginPackage } from './plugin-package.js';
import { registerComponents } from './components.js';
import { registerRelease } from './release.js';
import { registerGraph } from './graph.js';
import { registerTemplate } from './template.js';
import { registerServe } from './serve.js';
import { CLIENT_NAMES, registerClient } from './client.js';
import { registerDb } from './db.js';

type Register = (program: Command, only?: string) => void;

/**
 * Every area's registrar, in the order the help lists them, with the top-level names it adds
 * commands under. index.test.ts holds the names to what each one registers.
 */
export const AREAS: ReadonlyArray<readonly [readonly string[], Register]> = [
  [['plugin'], registerPluginValidate],
  [['plugin'], registerPluginPackage],
  [['components'], registerComponents],
  [['release'], registerRelease],
  [['graph'], registerGraph],
  [['template'], registerTemplate],
  [['serve'], registerServe],
  [CLIENT_NAMES, registerClient],
  [['db'], registerDb],
];

/**
 * Every area's subcommands. Registration only declares options; actions load their code lazily.
 * With the command line, only the areas under its first word are registered, when it names one:
 * declaring all sixty commands and their options was a quarter of a `hearth plugin validate` run's
 * own time. Anything else (help, a typo, a flag) gets them all.
 */
export function registerCommands(program: Command, argv: readonly string[] = []): void {
  // The first word only: after a flag (`hearth --help plugin`), commander decides what it means.
  const first = argv[2];
  const known = first !== undefined && AREAS.some(([names]) => names.includes(first));
  for (const [names, register] of AREAS) {
    if (!known) register(program);
    else if (names.includes(first)) register(program, first);
  }
}
