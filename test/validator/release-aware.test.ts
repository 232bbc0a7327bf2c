/**
 * Class 5 of issue 18: release-aware by default. Without --release a note says what was not
 * checked and the exact flags that check it; with a release source holding several releases and
 * no --release-version, the plugin is checked against the one its metadata.yaml names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadReleaseSource } from '../../src/package/release/source.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { fixture, MITAKA_FIXTURE, MITAKA_TASKS, place, withCode } from './support.js';

const main = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', main, 'plugin', 'validate', ...args, '--json'], { encoding: 'utf8' });
const MINI = ['--release', fixture('mini-release/openstack.yaml'), '--tasks', fixture('mini-release/tasks')];

test('without --release: one note naming what was not checked and the exact flags, with the version metadata.yaml names', () => {
  const r = validatePlugin(fixture('release-aware'));
  const notes = withCode(r.findings, 'plugin/release-not-given');
  assert.equal(notes.length, 1);
  assert.equal(place(notes[0]), 'metadata.yaml:12:1');
  assert.equal(notes[0].severity, 'info');
  assert.match(notes[0].message, /circles that close through the release's tasks/);
  assert.match(notes[0].hint ?? '', /^add --release <fuel-web>\/nailgun\/nailgun\/fixtures\/openstack\.yaml --tasks <fuel-library> --release-version newton-10\.0 \(Fuel's release/);
  assert.match(notes[0].hint ?? '', /or --release \/.*\/release \(Hearth's bundled release/);
});

test('with a source of two releases and no --release-version: checked against the one metadata.yaml names (CLI)', () => {
  const chosen = cli(fixture('release-aware'), ...MINI);
  assert.equal(chosen.status, 0, chosen.stderr);
  const out = JSON.parse(chosen.stdout) as { valid: boolean; findings: Array<{ code: string; message: string }> };
  assert.deepEqual(out.findings.filter((f) => f.code.startsWith('task/')).map((f) => f.code), [], 'storage exists in newton');
  assert.match(withCode(out.findings as never, 'plugin/release-chosen')[0]?.message ?? '', /holds 2 releases; checked against 'Mini Newton on Ubuntu' \(newton-10\.0, Ubuntu\), the one metadata\.yaml's releases\[0\] \(ubuntu, newton-10\.0\) names/);
  assert.deepEqual(withCode(out.findings as never, 'plugin/release-not-given'), []);
  // Asked for mitaka by name: no choice made, and the role is unknown there.
  const asked = cli(fixture('release-aware'), ...MINI, '--release-version', 'mitaka-9.0');
  const named = JSON.parse(asked.stdout) as { findings: Array<{ code: string }> };
  assert.equal(asked.status, 1);
  assert.deepEqual(withCode(named.findings as never, 'plugin/release-chosen'), []);
  assert.ok(named.findings.some((f) => f.code === 'task/runs-nowhere'), named.findings.map((f) => f.code).join());
});

test('a source none of whose releases the plugin names: a note, and the source\'s own pick', () => {
  const source = loadReleaseSource(fixture('mini-release/openstack.yaml'), { tasksDir: fixture('mini-release/tasks') });
  const r = validatePlugin(fixture('no-roles-good'), { release: source.release, releases: source.releases.map((x) => ({ ...x, version: `x-${x.version}` })) });
  const [note] = withCode(r.findings, 'plugin/release-not-declared');
  assert.match(note.message, /holds 2 releases and metadata\.yaml's releases name none of them; checked against 'Mini on Ubuntu'/);
  assert.match(note.hint ?? '', /mitaka-9\.0/);
});

test('a release plugin gets no note about a missing --release (it is the release)', () => {
  const r = validatePlugin(join(import.meta.dirname, '..', '..', 'release'));
  assert.deepEqual(withCode(r.findings, 'plugin/release-not-given'), []);
});

test('corpus: the mitaka fixture (three releases) picks Mitaka on Ubuntu 14.04 for a plugin naming ubuntu mitaka-9.0', needsCorpus, () => {
  const source = loadReleaseSource(corpusPath(...MITAKA_FIXTURE), { tasksDir: corpusPath(...MITAKA_TASKS) });
  const r = validatePlugin(corpusPath('plugins', 'fuel-plugin-lma-collector'), { ...(source.release ? { release: source.release } : {}), releases: source.releases });
  assert.match(withCode(r.findings, 'plugin/release-chosen')[0]?.message ?? '', /holds 3 releases; checked against 'Mitaka on Ubuntu 14\.04' \(mitaka-9\.0, Ubuntu\)/);
});
