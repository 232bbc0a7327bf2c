import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PLUGIN_NAME_PATTERN, PLUGIN_VERSION_PATTERN, isPluginName, isPluginVersion, pluginIdentityProblem } from './index.js';

test('plugin names and versions: what Fuel plugins use passes, path tricks do not', () => {
  for (const v of ['1.0.0', '0.0.1', '2.0~beta1', '1.0.0-rc.1', '3.0.0+build5', 'v1']) assert.ok(isPluginVersion(v), v);
  for (const v of ['0/../../clusters/2', '..', '.', '.hidden', '1.0 0', '1.0.0/', '1\\0', '%2e%2e', '', 'x'.repeat(65), '1.0.0\n']) assert.equal(isPluginVersion(v), false, JSON.stringify(v));
  for (const n of ['lbaas', 'fuel-plugin-calico', 'fuel_plugin_example_v5']) assert.ok(isPluginName(n), n);
  for (const n of ['Upper', 'a/b', '..', 'a@b', 'a b', '', 'x'.repeat(65)]) assert.equal(isPluginName(n), false, n);
  assert.match(pluginIdentityProblem('demo', '0/../x') ?? '', /version "0\/..\/x" is not a plain version/);
  assert.equal(pluginIdentityProblem('demo', '1.0.0'), undefined);
});

test('the metadata schemas use these same patterns (one pattern everywhere)', () => {
  const common = JSON.parse(readFileSync(new URL('../../../schemas/common.json', import.meta.url), 'utf8')) as { definitions: Record<string, { pattern: string }> };
  assert.equal(common.definitions.plugin_name!.pattern, PLUGIN_NAME_PATTERN);
  assert.equal(common.definitions.plugin_version!.pattern, PLUGIN_VERSION_PATTERN);
  for (const v of ['1.0.0', '2.0.0', '3.0.0', '4.0.0', '5.0.0']) {
    const schema = JSON.parse(readFileSync(new URL(`../../../schemas/metadata-${v}.json`, import.meta.url), 'utf8')) as { properties: Record<string, { $ref?: string }> };
    assert.equal(schema.properties.name?.$ref, 'common.json#/definitions/plugin_name', `metadata-${v}.json: name`);
    assert.equal(schema.properties.version?.$ref, 'common.json#/definitions/plugin_version', `metadata-${v}.json: version`);
  }
});
