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
import { registerToken } from './token.js';
import { registerUser } from './user.js';
import { registerAudit } from './audit.js';
import { registerInventory } from './inventory.js';

type Register = (program: Command, only?: string) => void;

/**
 * Every area's registrar, in the order the help lists them, with the top-level names it adds
 * commands under (and, for the command users run most, `plugin validate`, the command itself).
 * index.test.ts holds the names to what each one registers.
 */
export const AREAS: ReadonlyArray<readonly [readonly string[], Register]> = [
  [['plugin', 'plugin validate'], registerPluginValidate],
  [['plugin'], registerPluginPackage],
  [['components'], registerComponents],
  [['release'], registerRelease],
  [['graph'], registerGraph],
  [['template'], registerTemplate],
  [['serve'], registerServe],
  [CLIENT_NAMES, registerClient],
  [['env'], registerInventory],
  [['db'], registerDb],
  [['token'], registerToken],
  [['user'], registerUser],
  [['audit'], registerAudit],
];

/**
 * Every area's subcommands. Registration only declares options; actions load their code lazily.
 * With the command line, only the areas under its first words are registered when they name one
 * (`plugin validate`: that command alone; `plugin`: every area adding to that group): declaring
 * all sixty commands and their options was a quarter of a `hearth plugin validate` run's own
 * time. Anything else (help, a typo, a flag first) gets them all.
 */
export function registerCommands(program: Command, argv: readonly string[] = []): void {
  // The first words only: after a flag (`hearth --help plugin`), commander decides what it means.
  const [first, second] = [argv[2], argv[3]];
  const under = (name: string) => AREAS.filter(([names]) => names.includes(name));
  const command = first !== undefined && second !== undefined ? under(`${first} ${second}`) : [];
  const areas = command.length > 0 ? command : first !== undefined ? under(first) : [];
  if (areas.length === 0) for (const [, register] of AREAS) register(program);
  else for (const [, register] of areas) register(program, first);
}
