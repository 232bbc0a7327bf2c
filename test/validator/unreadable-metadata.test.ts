/**
 * Class 1 of issue 18: a metadata.yaml that cannot be read (a template still holding `@NAME@`
 * placeholders, a Makefile saved under that name, an unknown package_version) no longer stops
 * validation. Its problem is reported, every other file is checked as the newest package version
 * that introduced one of them, and a note says that assumption.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { fixture, place, validateCorpusPlugin, withCode } from './support.js';

const NOTE = 'plugin/package-version-assumed';

test('metadata.yaml with @PLUGIN_NAME@ placeholders: said at the first one, then the other files are checked as package 4.0.0', () => {
  const r = validatePlugin(fixture('template-metadata'));
  assert.equal(r.valid, false);
  assert.equal(r.plugin, undefined, 'name and version are unknown');
  const [bad] = withCode(r.findings, 'plugin/metadata-not-yaml');
  assert.equal(place(bad), 'metadata.yaml:2:7');
  assert.match(bad.message, /build-time placeholders \(@PLUGIN_NAME@, @PLUGIN_TITLE@, @PLUGIN_VERSION@\)/);
  assert.match(bad.hint ?? '', /render it first/);
  const [note] = withCode(r.findings, NOTE);
  assert.equal(note.severity, 'info');
  assert.match(note.message, /checked as package 4\.0\.0, the newest version that reads components\.yaml/);
  // The defects of the other files, each where it is.
  const seen = r.findings.filter((f) => !f.file?.startsWith('metadata')).map((f) => `${f.code} ${place(f)}`);
  for (const expected of [
    'task/unknown-role deployment_tasks.yaml:14:11',
    'task/dependency-cycle deployment_tasks.yaml:22:3',
    'role/unknown-conflict node_roles.yaml:5:15',
    'volumes/unknown-role volumes.yaml:4:3',
    'volumes/unknown-volume volumes.yaml:5:7',
  ]) assert.ok(seen.includes(expected), `${expected} in ${seen.join('; ')}`);
  // Rules of one package version are not judged on an assumed version.
  assert.deepEqual(r.findings.filter((f) => ['plugin/consider-package-5', 'tasks/version-2', 'tasks/no-version-2'].includes(f.code)), []);
});

test('a Makefile saved as metadata.yaml: named as one; clean other files add nothing but the note', () => {
  const r = validatePlugin(fixture('makefile-metadata'));
  const [bad] = withCode(r.findings, 'plugin/metadata-not-yaml');
  assert.match(bad.message, /not YAML \(it looks like a Makefile\)/);
  const [note] = withCode(r.findings, NOTE);
  assert.match(note.message, /checked as package 3\.0\.0, the newest version that reads deployment_tasks\.yaml, node_roles\.yaml, volumes\.yaml/);
  const others = r.findings.filter((f) => f.file !== 'metadata.yaml' && f.severity !== 'info');
  assert.deepEqual(others, []);
});

test("package_version '@PACKAGE_VERSION@': the unknown version is an error, and the files are still checked", () => {
  const r = validatePlugin(fixture('placeholder-version'));
  assert.deepEqual(withCode(r.findings, 'metadata/unknown-package-version').map(place), ['metadata.yaml:4:18']);
  const [note] = withCode(r.findings, NOTE);
  assert.equal(place(note), 'metadata.yaml:4:1');
  assert.match(note.message, /names no known package_version, so the other files were checked as package 3\.0\.0/);
  assert.ok(withCode(r.findings, 'role/unknown-conflict').some((f) => /'computer'/.test(f.message)));
  assert.equal(r.plugin?.name, 'placeholder_version');
});

/** The template-metadata fixture in a temporary copy whose metadata.yaml `spoil` replaces. */
function withMetadata(spoil: (metadata: string, parent: string) => void): ReturnType<typeof validatePlugin> {
  const parent = mkdtempSync(join(tmpdir(), 'hearth-metadata-'));
  try {
    const dir = join(parent, 'plugin');
    cpSync(fixture('template-metadata'), dir, { recursive: true });
    rmSync(join(dir, 'metadata.yaml'));
    spoil(join(dir, 'metadata.yaml'), parent);
    return validatePlugin(dir);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

/** What the template-metadata fixture's other files get wrong, each where it is. */
const OTHER_FILES_DEFECTS = ['task/unknown-role deployment_tasks.yaml:14:11', 'role/unknown-conflict node_roles.yaml:5:15', 'volumes/unknown-volume volumes.yaml:5:7'];

test('a folder named metadata.yaml: that file\'s problem and what to do, then every other file is still checked', () => {
  const r = withMetadata((metadata) => mkdirSync(metadata));
  assert.equal(r.valid, false);
  const [bad] = withCode(r.findings, 'file/not-a-file');
  assert.equal(place(bad), 'metadata.yaml:1:1');
  assert.match(bad.hint ?? '', /make metadata\.yaml the plugin's metadata file .*not a folder/);
  // Not read at all, so not called "not YAML" either.
  assert.deepEqual(withCode(r.findings, 'plugin/metadata-not-yaml'), []);
  assert.match(withCode(r.findings, NOTE)[0].message, /metadata\.yaml cannot be read, so the other files were checked as package 4\.0\.0/);
  const seen = r.findings.map((f) => `${f.code} ${place(f)}`);
  for (const expected of OTHER_FILES_DEFECTS) assert.ok(seen.includes(expected), `${expected} in ${seen.join('; ')}`);
});

test('metadata.yaml linking outside the plugin: refused, and every other file is still checked', () => {
  const r = withMetadata((metadata, parent) => {
    writeFileSync(join(parent, 'elsewhere.yaml'), 'name: elsewhere\n');
    symlinkSync(join(parent, 'elsewhere.yaml'), metadata);
  });
  assert.deepEqual(withCode(r.findings, 'path/outside-plugin').map(place), ['metadata.yaml:1:1']);
  assert.equal(withCode(r.findings, NOTE).length, 1);
  const seen = r.findings.map((f) => `${f.code} ${place(f)}`);
  for (const expected of OTHER_FILES_DEFECTS) assert.ok(seen.includes(expected), `${expected} in ${seen.join('; ')}`);
});

test('a plugin whose metadata.yaml reads gets no assumption note', () => {
  const r = validatePlugin(fixture('no-roles-good'));
  assert.deepEqual(withCode(r.findings, NOTE), []);
});

test('corpus: every plugin\'s metadata.yaml reads and names its format, so no version is assumed', needsCorpus, () => {
  // The corpus README's Makefile-template metadata.yaml is not among the 34 plugins kept here.
  const plugins = readdirSync(corpusPath('plugins')).filter((n) => statSync(corpusPath('plugins', n)).isDirectory());
  for (const name of plugins) assert.deepEqual(withCode(validateCorpusPlugin(name).findings, NOTE), [], name);
});
