import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../tasks/model.js';
import { composeRelease } from './compose.js';
import { releaseTarget } from './for-release.js';
import type { Release } from './model.js';
import type { PluginContribution } from './plugin.js';

const release = (version: string, compatible?: string[]): Release => ({
  id: `R@${version}`,
  name: 'R',
  version,
  operating_system: 'Ubuntu',
  roles_metadata: { controller: { name: 'Controller' } },
  tags_metadata: {},
  volumes_metadata: { volumes: [{ id: 'os' }], volumes_roles_mapping: { controller: [{ id: 'os' }] } },
  network_roles_metadata: [],
  networks_metadata: {},
  attributes_metadata: { editable: {} },
  components: [],
  required_component_types: [],
  graphs: { default: { tasks: [] } },
  source: 'test',
  ...(compatible ? { compatible_versions: compatible } : {}),
});

const task = (id: string, fields: Partial<Task>): Task => ({ id, type: 'puppet', version: '2.0.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], roles: ['controller'], origin: { source: 'p' }, ...fields });

const plugin = (version: string): PluginContribution => ({
  name: 'p',
  version: '1.0.0',
  packageVersion: '5.0.0',
  releases: [{ os: 'ubuntu', version }],
  roles: {},
  tags: {},
  volumes: [],
  volumesRolesMapping: {},
  networkRoles: [],
  components: [],
  attributes: {},
  graphs: { default: { tasks: [task('t', { fuelVersion: '<9', parameters: { m: 'old' } }), task('t', { fuelVersion: '>=9', osVersion: '>=liberty', parameters: { m: 'new' } })] } },
});

test('the target: a Fuel release is its own version; a compatible version is taken whole; a release line of its own gets the newest compatible Fuel version', () => {
  assert.deepEqual(releaseTarget(release('newton-10.0'), 'newton-10.0'), { release: 'newton-10.0' });
  assert.deepEqual(releaseTarget(release('2026.1-1.0', ['liberty-8.0', 'mitaka-9.0']), 'mitaka-9.0'), { release: 'mitaka-9.0' });
  assert.deepEqual(releaseTarget(release('2026.1-1.0', ['mitaka-9.0', 'liberty-8.0']), '2026.1-1.0'), { os: '2026.1', fuel: '9.0' });
});

test('a plugin written for the release line itself still reads its Fuel constraints against Fuel 9.0', () => {
  const r = composeRelease(release('2026.1-1.0', ['mitaka-9.0']), [plugin('2026.1-1.0')]);
  assert.deepEqual(r.composed.graphs.default.tasks.map((t) => t.parameters?.m), ['new']);
  assert.deepEqual(r.findings, []);
});
