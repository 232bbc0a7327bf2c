import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { AREAS, registerCommands } from './index.js';

/** A command as the help shows it: its name, arguments, options and subcommands, recursively. */
function shape(cmd: Command): unknown {
  return {
    name: cmd.name(),
    description: cmd.description(),
    arguments: cmd.registeredArguments.map((a) => a.name()),
    options: cmd.options.map((o) => o.flags),
    commands: cmd.commands.map(shape),
  };
}

const program = (argv: string[]) => {
  const p = new Command('hearth');
  registerCommands(p, ['node', 'hearth', ...argv]);
  return p;
};

test('the command line registers only the areas under its first word, and each command comes out exactly as with all of them', () => {
  const all = program([]);
  const names = all.commands.map((c) => c.name());
  assert.ok(names.length >= 10, names.join(', '));
  for (const name of names) {
    const only = program([name, 'whatever', '--json']);
    // Every top-level name is one an area declares: a command added without its name in AREAS
    // would be missing here (and from `hearth <name> ...`).
    assert.ok(AREAS.some(([areaNames]) => areaNames.includes(name)), `'${name}' is in AREAS`);
    assert.deepEqual(shape(only.commands.find((c) => c.name() === name)!), shape(all.commands.find((c) => c.name() === name)!), name);
    // ...and the other areas were left out.
    assert.ok(only.commands.length < all.commands.length, `${name}: ${only.commands.map((c) => c.name()).join(', ')}`);
  }
});

test('help, a flag first, or an unknown word: every command is registered', () => {
  const all = shape(program([]));
  for (const argv of [['--help'], ['-V'], ['help', 'plugin'], ['plugn', 'validate'], ['--help', 'plugin']]) assert.deepEqual(shape(program(argv)), all, argv.join(' '));
});
