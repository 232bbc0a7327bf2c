/**
 * Whatever the files hold, validation ends with findings (each placed in a file), never a throw.
 * Random JSON (which is YAML) is written into every plugin file of a random package version.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { validatePlugin } from './index.js';

const FILES = ['environment_config', 'tasks', 'deployment_tasks', 'node_roles', 'volumes', 'network_roles', 'components', 'node_config', 'nic_config', 'bond_config'];
const KEYS = ['id', 'type', 'role', 'roles', 'groups', 'requires', 'required_for', 'cross-depends', 'parameters', 'strategy', 'version', 'name', 'label',
  'attributes', 'restrictions', 'condition', 'volumes', 'volumes_roles_mapping', 'allocate_size', 'generator', 'compatible', 'requires', 'limits', 'releases',
  'is_release', 'graphs', 'tasks', 'tasks_path', 'roles_path', 'base_release_path', 'os-version', 'fuel-version', 'metadata', 'value'];

const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(null, true, 0, -1, 'x', '/[/', '*', 'puppet', 'group', '2.0.0', '>=9', 'a b', '../x.yaml', '*.yaml'), fc.string({ maxLength: 6 }), tie('list'), tie('map')),
  list: fc.array(tie('any'), { maxLength: 4 }),
  map: fc.dictionary(fc.constantFrom(...KEYS), tie('any'), { maxKeys: 5 }),
})).any;

test('property: random file contents never make validation throw', () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-robust-'));
  try {
    fc.assert(
      fc.property(
        fc.constantFrom('1.0.0', '2.0.0', '3.0.0', '4.0.0', '5.0.0'),
        value,
        fc.array(fc.tuple(fc.constantFrom(...FILES), value), { maxLength: 6 }),
        (pv, releases, files) => {
          const dir = mkdtempSync(join(root, 'p-'));
          mkdirSync(join(dir, 'graphs'));
          writeFileSync(join(dir, 'graphs', 'a.yaml'), JSON.stringify(files[0]?.[1] ?? []));
          writeFileSync(join(dir, 'metadata.yaml'), JSON.stringify({ name: 'fuzz', version: '1', package_version: pv, releases }));
          for (const [name, content] of files) writeFileSync(join(dir, `${name}.yaml`), JSON.stringify(content));
          const result = validatePlugin(dir);
          assert.equal(typeof result.valid, 'boolean');
          for (const f of result.findings) assert.ok(f.file && f.line && f.column, JSON.stringify(f));
        },
      ),
      { numRuns: 300 },
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
