import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlugin, skeletonFor } from '../../src/package/create/index.js';
import { PACKAGE_VERSIONS } from '../../src/package/plugin/model.js';
import { parseYaml } from '../../src/package/yaml/index.js';
import { tempDir } from './support.js';

const work = tempDir();
after(() => work.remove());

test('names outside ^[a-z0-9_-]+$ are refused before anything is written', () => {
  for (const name of ['My_Plugin', 'plugin name', 'plügin', '../escape', 'a/b', '', '.hidden']) {
    const result = createPlugin(name, { parentDir: work.path });
    assert.equal(result.ok, false, name);
    assert.equal(result.usage, true);
    assert.equal(result.findings[0].code, 'create/invalid-name', name);
  }
  assert.equal(existsSync(join(work.path, 'My_Plugin')), false);
});

test('an existing folder (or file) is never overwritten', () => {
  const dir = join(work.path, 'taken');
  mkdirSync(dir);
  writeFileSync(join(dir, 'metadata.yaml'), 'mine');
  const result = createPlugin('taken', { parentDir: work.path });
  assert.equal(result.ok, false);
  assert.equal(result.findings[0].code, 'create/exists');
  assert.equal(readFileSync(join(dir, 'metadata.yaml'), 'utf8'), 'mine');
  writeFileSync(join(work.path, 'afile'), 'x');
  assert.equal(createPlugin('afile', { parentDir: work.path }).findings[0].code, 'create/exists');
});

test('unknown package versions, and release plugins below 5.0.0, are refused', () => {
  assert.equal(createPlugin('v6', { parentDir: work.path, packageVersion: '6.0.0' }).findings[0].code, 'create/unknown-package-version');
  assert.equal(createPlugin('v41', { parentDir: work.path, packageVersion: '4.1.0' }).findings[0].code, 'create/unknown-package-version');
  assert.equal(createPlugin('r4', { parentDir: work.path, packageVersion: '4.0.0', releasePlugin: true }).findings[0].code, 'create/release-plugin-version');
});

test('a missing parent folder is a clear error', () => {
  const result = createPlugin('orphan', { parentDir: join(work.path, 'no', 'such') });
  assert.equal(result.findings[0].code, 'create/cannot-write');
  assert.match(result.findings[0].hint!, /parent folder/);
});

test('every skeleton file parses as YAML with the plugin name substituted, and scripts are executable', () => {
  for (const version of PACKAGE_VERSIONS) {
    const { skeleton } = skeletonFor('sk_name', { packageVersion: version });
    for (const [path, file] of skeleton!) {
      if (file.text === undefined || !path.endsWith('.yaml')) continue;
      const parsed = parseYaml(file.text, path);
      assert.deepEqual(parsed.findings, [], `${version} ${path}`);
      assert.ok(parsed.value !== null && parsed.value !== undefined, `${version} ${path} is empty`);
    }
    assert.match(skeleton!.get('metadata.yaml')!.text!, new RegExp(`package_version: '${version.replace(/\./g, '\\.')}'`));
  }
  const dir = createPlugin('exec_check', { parentDir: work.path }).dir!;
  assert.ok(statSync(join(dir, 'pre_build_hook')).mode & 0o100);
  assert.ok(statSync(join(dir, 'deployment_scripts', 'deploy.sh')).mode & 0o100);
});

test('the files each package version brings follow the format: tasks.yaml up to 2.0.0, components from 4.0.0, node/NIC/bond attributes in 5.0.0', () => {
  const has = (v: string, p: string): boolean => skeletonFor('x', { packageVersion: v }).skeleton!.has(p);
  assert.ok(has('1.0.0', 'tasks.yaml') && has('2.0.0', 'tasks.yaml') && !has('3.0.0', 'tasks.yaml') && !has('5.0.0', 'tasks.yaml'));
  assert.ok(!has('2.0.0', 'deployment_tasks.yaml') && has('3.0.0', 'deployment_tasks.yaml'));
  assert.ok(!has('3.0.0', 'components.yaml') && has('4.0.0', 'components.yaml'));
  for (const f of ['node_config.yaml', 'nic_config.yaml', 'bond_config.yaml']) assert.ok(has('5.0.0', f) && !has('4.0.0', f));
  for (const v of PACKAGE_VERSIONS) for (const f of ['pre_build_hook', 'README.md', 'repositories/ubuntu', 'repositories/centos', 'environment_config.yaml']) assert.ok(has(v, f), `${v} ${f}`);
});

test('a release plugin has one release folder, is_release, and the four graph types, default first', () => {
  const { skeleton } = skeletonFor('rel', { releasePlugin: true });
  const meta = parseYaml(skeleton!.get('metadata.yaml')!.text!, 'metadata.yaml').value as { releases: Array<Record<string, unknown>> };
  assert.equal(meta.releases.length, 1);
  assert.equal(meta.releases[0].is_release, true);
  assert.equal(meta.releases[0].release_name, 'rel');
  const graphs = meta.releases[0].graphs as Array<{ type: string; tasks_path: string }>;
  // Deploy runs the `default` graph; a `deployment` type would never run.
  assert.deepEqual(graphs.map((g) => g.type), ['default', 'provisioning', 'deletion', 'network_verification']);
  for (const g of graphs) assert.ok(skeleton!.has(g.tasks_path), g.tasks_path);
  for (const [key, value] of Object.entries(meta.releases[0])) if (key.endsWith('_path') && key !== 'deployment_scripts_path' && key !== 'repository_path') assert.ok(skeleton!.has(value as string), `${key} → ${value}`);
});
