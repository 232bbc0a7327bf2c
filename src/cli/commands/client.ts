import type { Command } from 'commander';

export function registerClient(program: Command): void {
  void program;
}
