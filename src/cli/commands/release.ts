import type { Command } from 'commander';

export function registerRelease(program: Command): void {
  void program;
}
