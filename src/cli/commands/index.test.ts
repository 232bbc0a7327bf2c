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

test('`plugin validate` registers that command alone, exactly as among all of them; other plugin commands get the whole group', () => {
  const full = program([]).commands.find((c) => c.name() === 'plugin')!;
  for (const sub of full.commands.map((c) => c.name())) {
    const only = program(['plugin', sub, '--json']);
    const group = only.commands.find((c) => c.name() === 'plugin')!;
    assert.deepEqual(shape(group.commands.find((c) => c.name() === sub)!), shape(full.commands.find((c) => c.name() === sub)!), sub);
  }
  assert.deepEqual(
    program(['plugin', 'validate', 'dir']).commands.flatMap((c) => c.commands.map((s) => `${c.name()} ${s.name()}`)),
    ['plugin validate'],
  );
  assert.deepEqual(shape(program(['plugin', 'valdate']).commands.find((c) => c.name() === 'plugin')!), shape(full), 'a misspelt subcommand gets the group, for commander to suggest from');
});

test('help, a flag first, or an unknown word: every command is registered', () => {
  const all = shape(program([]));
  for (const argv of [['--help'], ['-V'], ['help', 'plugin'], ['plugn', 'validate'], ['--help', 'plugin']]) assert.deepEqual(shape(program(argv)), all, argv.join(' '));
});
