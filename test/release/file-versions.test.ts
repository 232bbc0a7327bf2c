/**
 * A file its package version does not read (issue 28 item 10) contributes nothing: Nailgun's
 * loader for 3.0.0 never read components.yaml, nor 2.0.0's node_roles.yaml, so Hearth's
 * composition (what the server installs, the wizard offers, `plugin inspect` lists) ignores them
 * too, while the validator says "Fuel ignores it". Real corpus plugins, with one file added.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlugin } from '../../src/package/plugin/index.js';
import { contributionFromPlugin } from '../../src/package/release/contribution.js';
import { validatePlugin } from '../../src/package/validate/index.js';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { copyWithReleaseFolders } from '../support/plugin-copy.js';

function withFile(plugin: string, file: string, from: string): { dir: string; done: () => void } {
  const parent = mkdtempSync(join(tmpdir(), 'hearth-file-versions-'));
  const dir = copyWithReleaseFolders(corpusPath('plugins', plugin), parent);
  copyFileSync(corpusPath('plugins', from, file), join(dir, file));
  return { dir, done: () => rmSync(parent, { recursive: true, force: true }) };
}

function contributionOf(dir: string) {
  const { plugin } = loadPlugin(dir);
  assert.ok(plugin);
  return contributionFromPlugin(plugin).contribution;
}

test("a 3.0.0 plugin's components.yaml offers no component; the same file in 4.0.0 does", needsCorpus, () => {
  const v3 = withFile('fuel-plugins--fuel_plugin_example_v3', 'components.yaml', 'fuel-plugins--fuel_plugin_example_v4');
  try {
    assert.deepEqual(contributionOf(v3.dir).components, []);
    const ignored = validatePlugin(v3.dir).findings.filter((f) => f.code === 'plugin/file-ignored');
    assert.deepEqual(ignored.map((f) => `${f.file} ${f.message}`), ['components.yaml components.yaml is not read by package version 3.0.0; Fuel ignores it']);
  } finally {
    v3.done();
  }
  const v4 = withFile('fuel-plugins--fuel_plugin_example_v4', 'components.yaml', 'fuel-plugins--fuel_plugin_example_v4');
  try {
    assert.deepEqual(contributionOf(v4.dir).components.map((c) => c.name), ['additional_service:service_plugin_v4_component']);
  } finally {
    v4.done();
  }
});

test("a 2.0.0 plugin's node_roles.yaml and volumes.yaml give no role and no disk layout", needsCorpus, () => {
  const v2 = withFile('fuel-plugins--fuel_plugin_example_v2', 'node_roles.yaml', 'fuel-plugins--fuel_plugin_example_v3');
  try {
    copyFileSync(corpusPath('plugins', 'fuel-plugins--fuel_plugin_example_v3', 'volumes.yaml'), join(v2.dir, 'volumes.yaml'));
    const c = contributionOf(v2.dir);
    assert.deepEqual(Object.keys(c.roles), []);
    assert.deepEqual(c.volumesRolesMapping, {});
    assert.deepEqual(c.volumes, []);
    // Its tasks.yaml, which 2.0.0 reads, is still there.
    assert.ok((c.graphs.default?.tasks.length ?? 0) > 0);
  } finally {
    v2.done();
  }
});
