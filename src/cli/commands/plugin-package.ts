import type { Command } from 'commander';

export function registerPluginPackage(program: Command): void {
  void program;
}
