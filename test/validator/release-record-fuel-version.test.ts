/**
 * A package 5.0.0 `releases` record for Fuel 7.0 is the same mistake as `fuel_version: ['7.0']`
 * (issue 28, item 21): both are errors with the same code, each at its own line. The corpus's
 * fuel_plugin_example_v5, with a record added for Kilo on Fuel 7.0 (none of the real plugins has one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';
import { place, withCode } from './support.js';

function exampleWith(edit: (metadata: string) => string) {
  const parent = mkdtempSync(join(tmpdir(), 'hearth-fuel7-'));
  try {
    const dir = copyWithReleaseFolders(corpusPath('plugins', 'fuel-plugins--fuel_plugin_example_v5'), parent);
    const file = join(dir, 'metadata.yaml');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    return validatePlugin(dir);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
}

const KILO = `releases:
  - os: ubuntu
    version: 2015.1.0-7.0
    mode: ['ha']
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
`;

test('a 5.0.0 releases record for Fuel 7.0 is refused like fuel_version 7.0, at its version', needsCorpus, () => {
  const record = exampleWith((m) => m.replace('releases:\n', KILO));
  const found = withCode(record.findings, 'metadata/fuel-version-too-old');
  assert.deepEqual(found.map(place), ['metadata.yaml:28:14']);
  assert.equal(found[0].severity, 'error');
  assert.match(found[0].message, /releases\[0\] is for Fuel 7\.0 \(version 2015\.1\.0-7\.0\), and package format 5\.0\.0 does not work with Fuel 7\.0: it needs Fuel 8\.0 or newer/);
  assert.equal(record.valid, false);
  // The same Fuel in fuel_version: the same code.
  const listed = exampleWith((m) => m.replace("fuel_version: ['9.0', '10.0']", "fuel_version: ['7.0', '9.0', '10.0']"));
  assert.deepEqual(withCode(listed.findings, 'metadata/fuel-version-too-old').map((f) => f.severity), ['error']);
  // The plugin as published has neither.
  assert.deepEqual(withCode(exampleWith((m) => m).findings, 'metadata/fuel-version-too-old'), []);
});
