import type { Command } from 'commander';

export function registerComponents(program: Command): void {
  void program;
}
