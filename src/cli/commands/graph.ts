import type { Command } from 'commander';

export function registerGraph(program: Command): void {
  void program;
}
