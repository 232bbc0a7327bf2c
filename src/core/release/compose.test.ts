import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Task } from '../tasks/model.js';
import { composeRelease } from './compose.js';
import type { Release } from './model.js';
import type { PluginContribution } from './plugin.js';

function task(id: string, fields: Partial<Task> = {}): Task {
  return { id, type: 'puppet', version: '2.1.0', requires: [], requiredFor: [], crossDepends: [], crossDependedBy: [], origin: { source: 'release' }, ...fields };
}

function release(over: Partial<Release> = {}): Release {
  return {
    id: 'R@mitaka-9.0',
    name: 'R',
    version: 'mitaka-9.0',
    operating_system: 'Ubuntu',
    roles_metadata: {
      controller: { name: 'Controller', conflicts: ['compute'], tags: ['controller'] },
      compute: { name: 'Compute', conflicts: ['controller'], tags: ['compute'] },
      'base-os': { name: 'Base OS', conflicts: '*' },
    },
    tags_metadata: { controller: { has_primary: true }, compute: { has_primary: false } },
    volumes_metadata: {
      volumes: [{ id: 'os' }, { id: 'vm' }],
      volumes_roles_mapping: { controller: [{ id: 'os', allocate_size: 'min' }], compute: [{ id: 'os' }, { id: 'vm' }], 'base-os': [{ id: 'os' }] },
    },
    network_roles_metadata: [{ id: 'mgmt/api', default_mapping: 'management', properties: { vip: [{ name: 'management' }] } }],
    networks_metadata: {},
    attributes_metadata: { editable: { common: { metadata: { label: 'Common' } } } },
    components: [{ name: 'hypervisor:qemu' }],
    required_component_types: ['hypervisor'],
    graphs: { default: { tasks: [task('hiera', { roles: '*' }), task('netconfig', { roles: ['controller', 'compute'] }), task('nova-compute', { roles: ['compute'] })] } },
    source: 'test',
    ...over,
  };
}

function plugin(name: string, over: Partial<PluginContribution> = {}): PluginContribution {
  return {
    name,
    version: '1.0.0',
    packageVersion: '4.0.0',
    releases: [{ os: 'ubuntu', version: 'mitaka-9.0' }],
    roles: {},
    tags: {},
    volumes: [],
    volumesRolesMapping: {},
    networkRoles: [],
    components: [],
    attributes: {},
    graphs: {},
    ...over,
  };
}

const codes = (findings: { code: string; severity: string }[], severity?: string) =>
  findings.filter((f) => !severity || f.severity === severity).map((f) => f.code).sort();

test('a release alone composes to itself, without findings', () => {
  const r = composeRelease(release(), []);
  assert.deepEqual(r.findings, []);
  assert.deepEqual(Object.keys(r.composed.roles_metadata), ['controller', 'compute', 'base-os']);
  assert.equal(r.composed.graphs.default.tasks.length, 3);
});

test('a plugin for another release or OS is left out with the reason', () => {
  const r = composeRelease(release(), [plugin('old', { releases: [{ os: 'ubuntu', version: '2015.1.0-7.0' }] }), plugin('centos', { releases: [{ os: 'centos', version: 'mitaka-9.0' }] })]);
  assert.deepEqual(r.plugins.map((p) => [p.name, p.applied]), [['centos', false], ['old', false]]);
  assert.match(r.plugins[1].reason, /does not support Ubuntu mitaka-9\.0 \(it lists ubuntu\/2015\.1\.0-7\.0\)/);
});

test("Fuel's prefix rule: a plugin for mitaka-9.0 extends mitaka-9.0.1, not liberty-9.0", () => {
  assert.equal(composeRelease(release({ version: 'mitaka-9.0.1' }), [plugin('p')]).plugins[0].applied, true);
  assert.equal(composeRelease(release({ version: 'liberty-9.0' }), [plugin('p')]).plugins[0].applied, false);
});

test('a release accepts plugins of the Fuel versions it declares compatible', () => {
  const r = composeRelease(release({ version: '2026.1-1.0', compatible_versions: ['mitaka-9.0'] }), [plugin('p')]);
  assert.equal(r.plugins[0].applied, true);
  assert.match(r.plugins[0].reason, /keeps compatible/);
});

test('only one version of a plugin is applied, the newest', () => {
  const r = composeRelease(release(), [plugin('p', { version: '1.2.0' }), plugin('p', { version: '1.10.0' })]);
  assert.deepEqual(r.plugins.map((p) => [p.version, p.applied]), [['1.10.0', true], ['1.2.0', false]]);
});

test('a role defined twice is an error naming both sources', () => {
  const a = plugin('a', { roles: { compute: { name: 'My compute' } }, volumesRolesMapping: { compute: [{ id: 'os' }] } });
  const b = plugin('b', { roles: { storage: { name: 'S' } }, volumesRolesMapping: { storage: [{ id: 'os' }] } });
  const c = plugin('c', { roles: { storage: { name: 'S2' } } });
  const r = composeRelease(release(), [c, b, a]);
  const twice = r.findings.filter((f) => f.code === 'role/defined-twice').map((f) => f.message);
  assert.deepEqual(twice, [
    "role 'compute' is defined by both the release R (mitaka-9.0) and plugin a-1.0.0",
    "role 'storage' is defined by both plugin b-1.0.0 and plugin c-1.0.0",
  ]);
  assert.equal(r.composed.roles_metadata.compute.name, 'Compute');
  assert.equal(r.composed.role_sources.storage, 'b-1.0.0');
});

test('plugin roles get a tag of their own and a restriction on the plugin being enabled', () => {
  const r = composeRelease(release(), [plugin('mon', { roles: { monitor: { name: 'Monitor', has_primary: true } }, volumesRolesMapping: { monitor: [{ id: 'os' }] } })]);
  assert.deepEqual(r.findings, []);
  assert.deepEqual(r.composed.roles_metadata.monitor.tags, ['monitor']);
  assert.deepEqual(r.composed.tags_metadata.monitor, { has_primary: true });
  assert.equal((r.composed.roles_metadata.monitor.restrictions?.[0] as { condition: string }).condition, 'settings:mon.metadata.enabled == false');
});

test('volumes: a role without mapping, an unknown volume, and a volume defined twice are errors', () => {
  const p = plugin('st', {
    roles: { store: { name: 'Store' }, cache: { name: 'Cache' } },
    volumes: [{ id: 'vm' }, { id: 'data' }],
    volumesRolesMapping: { store: [{ id: 'os' }, { id: 'data' }, { id: 'nope' }], ghost: [{ id: 'os' }] },
  });
  const r = composeRelease(release(), [p]);
  assert.deepEqual(codes(r.findings), ['volume/defined-twice', 'volume/mapping-for-unknown-role', 'volume/role-without-mapping', 'volume/unknown-volume']);
  assert.match(r.findings.find((f) => f.code === 'volume/role-without-mapping')!.message, /role 'cache' \(plugin st-1\.0\.0\)/);
  assert.match(r.findings.find((f) => f.code === 'volume/unknown-volume')!.message, /nope/);
  assert.deepEqual(r.composed.volumes_metadata.volumes.map((v) => v.id), ['os', 'vm', 'data']);
});

test('settings: each plugin becomes a section with plugin metadata; a clash with a release section is an error', () => {
  const r = composeRelease(release(), [
    plugin('lbaas', { title: 'LBaaS', version: '2.0.0', isHotpluggable: true, attributes: { metadata: { restrictions: ['cluster:net_provider != "neutron"'] }, vip: { value: '' } } }),
    plugin('common'),
  ]);
  const editable = r.composed.attributes_metadata.editable as Record<string, Record<string, unknown>>;
  assert.deepEqual(editable.lbaas.metadata, { restrictions: ['cluster:net_provider != "neutron"'], class: 'plugin', label: 'LBaaS', enabled: true, toggleable: true, weight: 70, plugin_version: '2.0.0', versions: ['2.0.0'], hot_pluggable: true });
  assert.deepEqual(editable.lbaas.vip, { value: '' });
  assert.deepEqual(codes(r.findings), ['settings/section-clash']);
  assert.deepEqual(editable.common, { metadata: { label: 'Common' } });
});

test('components are added with their plugin; a name taken twice is an error', () => {
  const r = composeRelease(release(), [plugin('n', { components: [{ name: 'network:neutron:contrail' }, { name: 'hypervisor:qemu' }] })]);
  assert.deepEqual(r.composed.components.map((c) => [c.name, c.plugin?.name]), [['hypervisor:qemu', undefined], ['network:neutron:contrail', 'n']]);
  assert.deepEqual(codes(r.findings), ['component/defined-twice']);
});

test('network roles: same id with the same mapping merges VIPs; a different one is an error', () => {
  const same = { id: 'mgmt/api', default_mapping: 'management', properties: { vip: [{ name: 'extra' }] } };
  const other = { id: 'mgmt/api', default_mapping: 'public', properties: {} };
  const ok = composeRelease(release(), [plugin('a', { networkRoles: [same] })]);
  assert.deepEqual(ok.findings, []);
  assert.deepEqual((ok.composed.network_roles_metadata[0].properties as { vip: unknown[] }).vip, [{ name: 'management' }, { name: 'extra' }]);
  assert.deepEqual(codes(composeRelease(release(), [plugin('b', { networkRoles: [other] })]).findings), ['network-role/conflict']);
});

test('tasks: a plugin task overrides the release task of that id, skipped switches it off, new ids are appended', () => {
  const p = plugin('sdn', { graphs: { default: { tasks: [task('netconfig', { type: 'skipped', origin: { source: 'sdn' } }), task('sdn-agent', { roles: ['compute'], origin: { source: 'sdn' } })] } } });
  const r = composeRelease(release(), [p]);
  assert.deepEqual(r.composed.graphs.default.tasks.map((t) => `${t.id}:${t.type}`), ['hiera:puppet', 'netconfig:skipped', 'nova-compute:puppet', 'sdn-agent:puppet']);
  assert.deepEqual(r.composed.task_overrides, [{ graph: 'default', id: 'netconfig', plugin: 'sdn-1.0.0', skipped: true }]);
  assert.deepEqual(r.findings, []);
});

test('two plugins overriding one task: a warning when their roles can share a node, info when conflicts keep them apart', () => {
  const onCompute = plugin('a', { graphs: { default: { tasks: [task('x', { roles: ['compute'], parameters: { cmd: 'a' }, origin: { source: 'a' } })] } } });
  const onController = plugin('b', { graphs: { default: { tasks: [task('x', { roles: ['controller'], parameters: { cmd: 'b' }, origin: { source: 'b' } })] } } });
  const alsoCompute = plugin('c', { graphs: { default: { tasks: [task('x', { roles: ['compute'], parameters: { cmd: 'c' }, origin: { source: 'c' } })] } } });
  const apart = composeRelease(release(), [onCompute, onController]);
  assert.deepEqual(codes(apart.findings), ['task/plugins-share-id']);
  assert.deepEqual(apart.composed.task_conflicts, []);
  // Both definitions stay: each node runs the one its roles reach.
  assert.deepEqual(apart.composed.graphs.default.tasks.filter((t) => t.id === 'x').map((t) => t.origin.source), ['a', 'b']);
  const together = composeRelease(release(), [onCompute, alsoCompute]);
  assert.deepEqual(codes(together.findings), ['task/plugins-overlap']);
  assert.match(together.findings[0].message, /plugins a-1\.0\.0 and c-1\.0\.0 both define the task 'x' in graph 'default' differently, and both reach 'compute' nodes/);
  assert.equal(together.composed.task_conflicts.length, 1);
});

test('two plugins switching one release task off agree; an override without roles reaches no node', () => {
  const a = plugin('a', { graphs: { default: { tasks: [task('nova-compute', { type: 'skipped', origin: { source: 'a' } })] } } });
  const b = plugin('b', { graphs: { default: { tasks: [task('nova-compute', { type: 'skipped', roles: '*', origin: { source: 'b' } })] } } });
  const skips = composeRelease(release(), [a, b]);
  assert.deepEqual(skips.composed.task_conflicts, []);
  assert.deepEqual(codes(skips.findings), ['task/plugins-share-id']);
  assert.match(skips.findings[0].message, /agree/);
  // A skip written without roles runs nowhere (it only removes the release task), so it cannot meet c's definition.
  const c = plugin('c', { graphs: { default: { tasks: [task('nova-compute', { roles: ['compute'], parameters: { cmd: 'c' }, origin: { source: 'c' } })] } } });
  const mixed = composeRelease(release(), [a, c]);
  assert.deepEqual(mixed.composed.task_conflicts, []);
  assert.deepEqual(mixed.composed.graphs.default.tasks.filter((t) => t.id === 'nova-compute').map((t) => t.origin.source), ['a', 'c']);
});

test('composition does not depend on the order plugins are given in', () => {
  const ps = [
    plugin('z', { roles: { zr: { name: 'Z' } }, volumesRolesMapping: { zr: [{ id: 'os' }] }, graphs: { default: { tasks: [task('x', { roles: ['zr'] }), task('z1')] } } }),
    plugin('a', { roles: { ar: { name: 'A' } }, volumesRolesMapping: { ar: [{ id: 'os' }] }, graphs: { default: { tasks: [task('x', { roles: ['ar'] }), task('a1')] } } }),
    plugin('m', { components: [{ name: 'storage:m' }], attributes: { k: { value: 1 } } }),
  ];
  const one = composeRelease(release(), ps);
  const two = composeRelease(release(), [...ps].reverse());
  assert.deepEqual(JSON.stringify(two), JSON.stringify(one));
});

test('group tasks listing tasks that exist nowhere are reported', () => {
  const p = plugin('g', { roles: { gr: { name: 'G' } }, volumesRolesMapping: { gr: [{ id: 'os' }] }, graphs: { default: { tasks: [task('gr', { type: 'group', roles: ['gr'], tasks: ['hiera', 'hieraa'] })] } } });
  const r = composeRelease(release(), [p]);
  assert.deepEqual(codes(r.findings), ['task/unknown-group-member']);
  assert.match(r.findings[0].message, /hieraa/);
});

test('multi-release task records: the best fit for the release is chosen, a group with no fit is dropped', () => {
  const p = plugin('mr', {
    graphs: {
      default: {
        tasks: [
          task('deploy', { extra: { 'fuel-version': '>=7,<=8' }, parameters: { puppet_manifest: 'legacy.pp' } }),
          task('deploy', { extra: { 'fuel-version': '>=9' }, parameters: { puppet_manifest: 'mitaka.pp' } }),
          task('old-only', { extra: { 'fuel-version': '<9' } }),
        ],
      },
    },
  });
  const r = composeRelease(release(), [p]);
  const deploy = r.composed.graphs.default.tasks.filter((t) => t.id === 'deploy');
  assert.deepEqual(deploy.map((t) => t.parameters?.puppet_manifest), ['mitaka.pp']);
  assert.equal(r.composed.graphs.default.tasks.some((t) => t.id === 'old-only'), false);
  assert.deepEqual(codes(r.findings), ['task/no-fit-for-release']);
});
