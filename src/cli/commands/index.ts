import type { Command } from 'commander';
import { registerPluginValidate } from './plugin-validate.js';
import { registerPluginPackage } from './plugin-package.js';
import { registerComponents } from './components.js';
import { registerRelease } from './release.js';
import { registerGraph } from './graph.js';
import { registerTemplate } from './template.js';
import { registerServe } from './serve.js';
import { registerClient } from './client.js';
import { registerDb } from './db.js';

/** Every area's subcommands. Registration only declares options; actions load their code lazily. */
export function registerCommands(program: Command): void {
  registerPluginValidate(program);
  registerPluginPackage(program);
  registerComponents(program);
  registerRelease(program);
  registerGraph(program);
  registerTemplate(program);
  registerServe(program);
  registerClient(program);
  registerDb(program);
}
