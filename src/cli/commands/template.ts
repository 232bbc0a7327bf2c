import type { Command } from 'commander';

export function registerTemplate(program: Command): void {
  void program;
}
