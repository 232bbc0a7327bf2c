import type { Command } from 'commander';

export function registerPluginValidate(program: Command): void {
  void program;
}
