/**
 * Conformance with the reference Fuel Plugin Builder (4.2.0, `fpb --check`) over every corpus
 * plugin. Each plugin is validated in a temporary copy where its release folders exist, as the
 * reference was run (corpus/expected/README.md). Every plugin the reference accepts, Hearth
 * accepts, unless Hearth reports a real defect named below; every plugin it rejects, Hearth rejects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpusPath, corpusRoot, needsCorpus } from '../support/corpus.js';
import { tempFolder } from '../support/temp.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';
import { validatePlugin } from '../../src/package/validate/index.js';

/**
 * Plugins the reference accepts and Hearth rejects, with the finding codes that explain why.
 * Each is a defect by the plugins-v5 design, which the reference builder never implemented.
 */
export const KNOWN_DISAGREEMENTS: Record<string, { codes: string[]; reason: string }> = {
  'fuel-plugins--fuel_plugin_example_v5': {
    codes: ['task/needs-version-2', 'task/group-in-deployment-tasks'],
    reason: 'package 5.0.0 requires version: 2.0.0 on every task and replaces group tasks with node_roles.yaml tasks: lists (plugins-v5 design); the official example still ships a 1.0-style group task',
  },
};

function withReleaseFolders(source: string): string {
  return copyWithReleaseFolders(source, tempFolder('hearth-fpb-'));
}

const plugins = corpusRoot
  ? readdirSync(corpusPath('plugins')).filter((name) => statSync(corpusPath('plugins', name)).isDirectory())
  : [];
const expected: Record<string, { valid: boolean; stderr: string }> = corpusRoot
  ? JSON.parse(readFileSync(corpusPath('expected', 'fpb-check.json'), 'utf8'))
  : {};

test('every corpus plugin has a reference verdict', needsCorpus, () => {
  assert.equal(plugins.length, 34);
  for (const name of plugins) assert.ok(name in expected, name);
});

for (const name of plugins) {
  test(`fpb conformance: ${name}`, needsCorpus, () => {
    const copy = withReleaseFolders(corpusPath('plugins', name));
    try {
      const result = validatePlugin(copy);
      const errors = result.findings.filter((f) => f.severity === 'error');
      const reference = expected[name];
      if (reference.valid) {
        const known = KNOWN_DISAGREEMENTS[name];
        if (known) {
          assert.equal(result.valid, false, `${name}: the named defect is no longer found`);
          const unexplained = errors.filter((f) => !known.codes.includes(f.code));
          assert.deepEqual(unexplained, [], `${name}: errors beyond the named defect`);
        } else {
          assert.deepEqual(errors, [], `${name}: the reference accepts it`);
          assert.equal(result.valid, true);
        }
      } else {
        assert.equal(result.valid, false, `${name}: the reference rejects it (${reference.stderr.split('\n').at(-2) ?? ''})`);
      }
      for (const f of result.findings) {
        assert.ok(f.file && f.line && f.column, `${name}: finding without a place: ${JSON.stringify(f)}`);
        assert.match(f.code, /^[a-z0-9-]+\/[a-z0-9-]+$/);
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
}

test('with a real release (mitaka fixture and its Fuel library tasks), corpus plugins name no unknown role or task', needsCorpus, async () => {
  const { loadReleaseSource } = await import('../../src/package/release/source.js');
  const base = corpusPath('release', 'mitaka-eol');
  const source = loadReleaseSource(join(base, 'fuel-web', 'nailgun', 'nailgun', 'fixtures', 'openstack.yaml'), { tasksDir: join(base, 'fuel-library') });
  assert.ok(source.release, 'the fixture gives a release');
  for (const name of ['fuel-plugin-lma-collector', 'fuel-plugin-murano', 'fuel-plugin-calico']) {
    const result = validatePlugin(corpusPath('plugins', name), { release: source.release });
    const unknown = result.findings.filter((f) => f.code === 'task/unknown-role' || f.code === 'task/unknown-dependency');
    assert.deepEqual(unknown, [], name);
  }
  // The same plugin with one role misspelt: now it is found.
  const copy = withReleaseFolders(corpusPath('plugins', 'fuel-plugin-lma-collector'));
  try {
    const { readFileSync: read, writeFileSync: write } = await import('node:fs');
    const file = join(copy, 'deployment_tasks.yaml');
    write(file, read(file, 'utf8').replace('role: [controller, primary-controller]', 'role: [controller, primary-controler]'));
    const result = validatePlugin(copy, { release: source.release });
    assert.ok(result.findings.some((f) => f.code === 'task/unknown-role' && f.message.includes('primary-controler')), JSON.stringify(result.findings.map((f) => f.code)));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
