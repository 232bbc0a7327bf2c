/**
 * `hearth plugin validate` reads a plain command line itself, without commander
 * (src/cli/commands/plugin-validate-args.ts), and leaves every other line to commander: either
 * way the answer is commander's. Each line below runs twice through the built `bin/hearth`
 * (`npm run build` first): from the command's own bundle, and from tsc's dist/ tree
 * (HEARTH_NO_BUNDLE=1), where commander reads every line. Same stdout, stderr and exit status.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempFolder } from '../support/temp.js';

const hearthBin = fileURLToPath(new URL('../../bin/hearth', import.meta.url));
const release = fileURLToPath(new URL('../../release', import.meta.url));

const hearth = (args: string[], env: NodeJS.ProcessEnv = {}) => spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000, killSignal: 'SIGKILL' });

const dir = tempFolder('hearth-validate-args-');
for (const name of ['good_one', 'other_one']) assert.equal(hearth(['plugin', 'create', name, '--package-version', '5.0.0', '--dir', dir]).status, 0);
const good = join(dir, 'good_one');
const other = join(dir, 'other_one');
// A plugin with errors: exit status 1.
const spoilt = join(dir, 'spoilt_one');
assert.equal(hearth(['plugin', 'create', 'spoilt_one', '--package-version', '4.0.0', '--dir', dir]).status, 0);
appendFileSync(join(spoilt, 'metadata.yaml'), 'descripton: misspelt\n');

const lines: string[][] = [
  // Plain lines: read without commander.
  [good],
  [good, '--json'],
  ['--json', good],
  [spoilt],
  [spoilt, '--json', '--no-color'],
  ['--no-color', spoilt],
  [join(dir, 'no_such_plugin')],
  [good, '--release-version', 'mitaka-9.0'],
  [good, '--tasks', dir, '--json'],
  [good, '--release', release, '--json'],
  [good, '--release', release, '--release-version', 'mitaka-9.0'],
  [good, '--release', join(dir, 'no_such_release')],
  [good, '--with', other, '--json'],
  [good, '--with', other, '--with', spoilt],
  [good, '--with', join(dir, 'no_such_plugin')],
  // Left to commander.
  [],
  ['--help'],
  [good, '--help'],
  [good, '-h'],
  [good, other],
  [good, '--json', '--json'],
  [good, '--release=' + release],
  [good, '--release'],
  [good, '--with', '--json'],
  [good, '--bogus'],
  ['--', good],
  [good, '-'],
  [''],
  [good, '--no-color', '--no-color', '--json'],
];

for (const words of lines) {
  test(`hearth plugin validate ${words.map((w) => w.replace(dir, '<tmp>').replace(release, '<release>')).join(' ')}: commander's answer`, () => {
    const args = ['plugin', 'validate', ...words];
    const own = hearth(args);
    const tree = hearth(args, { HEARTH_NO_BUNDLE: '1' });
    assert.equal(own.stderr, tree.stderr);
    assert.equal(own.stdout, tree.stdout);
    assert.equal(own.status, tree.status);
  });
}
