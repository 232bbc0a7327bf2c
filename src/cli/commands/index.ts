import type { Command } from 'commander';

/** Every area's subcommands. Registration only declares options; actions load their code lazily. */
export function registerCommands(program: Command): void {
  void program;
}
