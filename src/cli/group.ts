import type { Command } from 'commander';

/** The named command group (`plugin`, `release`, …), created on first use so several files can add to it. */
export function group(program: Command, name: string, description: string): Command {
  const existing = program.commands.find((c) => c.name() === name);
  if (existing) return existing;
  return program.command(name).description(description);
}
