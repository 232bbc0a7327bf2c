/**
 * Every command's --help in one voice (issue 31 item 7): a description that starts with a capital
 * and ends without a full stop, option and argument texts that start in lower case, defaults
 * written one way ("(default: X)", as commander prints the defaults it knows), and an Examples
 * section closing each command's help, whose examples run that command.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { registerCommands } from './commands/index.js';
import { addExamples, commandPath, EXAMPLES } from './examples.js';

function program(): Command {
  const p = new Command('hearth');
  registerCommands(p);
  addExamples(p);
  return p;
}

function everyCommand(p: Command): Command[] {
  const out: Command[] = [];
  const walk = (c: Command) => c.commands.forEach((s) => (out.push(s), walk(s)));
  walk(p);
  return out;
}

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

test('every command: a capitalised description without a full stop; options and arguments in lower case; defaults as (default: X)', () => {
  const problems: string[] = [];
  for (const cmd of everyCommand(program())) {
    const path = commandPath(cmd);
    const d = cmd.description();
    if (!/^[A-Z`]/.test(d)) problems.push(`${path}: the description starts with a capital: '${d.slice(0, 40)}'`);
    if (/\.$/.test(d)) problems.push(`${path}: the description ends without a full stop`);
    const texts = [...cmd.options.map((o) => [o.flags, o.description] as const), ...cmd.registeredArguments.map((a) => [a.name(), a.description] as const)];
    for (const [name, text] of texts) {
      if (/^[A-Z][a-z]/.test(text)) problems.push(`${path} ${name}: starts in lower case: '${text.slice(0, 40)}'`);
      if (/\(default [^:]|[^(]default: /.test(text)) problems.push(`${path} ${name}: a default is written '(default: X)': '${text}'`);
    }
  }
  assert.deepEqual(problems, []);
});

test('every command ends its help with Examples, each running that command', () => {
  const problems: string[] = [];
  for (const cmd of everyCommand(program())) {
    if (cmd.commands.length > 0 && !EXAMPLES[commandPath(cmd)]) continue; // a group: its commands have them
    const path = commandPath(cmd);
    const help = helpOf(cmd);
    const at = help.indexOf('\nExamples:\n');
    if (at < 0) {
      problems.push(`${path}: no Examples section`);
      continue;
    }
    const examples = help.slice(at).split('\n').filter((l) => l.startsWith('  $ '));
    if (!examples.length) problems.push(`${path}: an empty Examples section`);
    for (const e of examples) if (!e.includes(`hearth ${path}`)) problems.push(`${path}: the example '${e}' does not run hearth ${path}`);
  }
  assert.deepEqual(problems, []);
});

test('no example names a command that does not exist', () => {
  const paths = new Set(everyCommand(program()).map(commandPath));
  assert.deepEqual(Object.keys(EXAMPLES).filter((p) => !paths.has(p)), []);
});
