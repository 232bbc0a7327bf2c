/**
 * Composition over the real corpus: both Fuel release fixtures with the Fuel library tasks, each
 * corpus plugin that targets them alone and all together, and Hearth's default release.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { corpusPath, needsCorpus } from '../support/corpus.js';
import { composeRelease } from '../../src/core/release/compose.js';
import type { PluginContribution } from '../../src/core/release/plugin.js';
import { loadPlugin } from '../../src/package/plugin/index.js';
import { contributionFromPlugin } from '../../src/package/release/contribution.js';
import { loadReleaseSource } from '../../src/package/release/source.js';

function corpusPlugins(): PluginContribution[] {
  const root = corpusPath('plugins');
  const out: PluginContribution[] = [];
  for (const name of readdirSync(root).sort()) {
    if (name.includes('.')) continue;
    const loaded = loadPlugin(join(root, name));
    if (!loaded.plugin || loaded.plugin.isReleasePlugin) continue;
    out.push(contributionFromPlugin(loaded.plugin).contribution);
  }
  return out;
}

const errors = (fs: { severity: string; code: string; message: string }[]) => fs.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`).sort();

const fixtures = {
  master: { fixture: 'release/fuel-web/nailgun/nailgun/fixtures/openstack.yaml', tasks: 'release/fuel-library', version: 'newton-10.0' },
  mitaka: { fixture: 'release/mitaka-eol/fuel-web/nailgun/nailgun/fixtures/openstack.yaml', tasks: 'release/mitaka-eol/fuel-library', version: 'mitaka-9.0' },
};

/** Real defects in corpus plugins that composition finds (role without a disk layout). */
const REAL_ERRORS: Record<string, string[]> = {
  contrail: ['contrail-tsn', 'contrail-vmware', 'dpdk', 'dpdk-on-vf'],
  'fuel-plugin-calico': ['calico-etcd', 'calico-rr'],
  'fuel-plugin-manila': ['manila-data', 'manila-share'],
  fuel_plugin_example_v4: ['fuel_plugin_example_v4'],
  fuel_plugin_example_v5: ['fuel_plugin_example_v5'],
};

for (const [label, spec] of Object.entries(fixtures)) {
  test(`the ${label} fixture composes with its Fuel library tasks, alone, with each plugin, and with all`, needsCorpus, () => {
    const source = loadReleaseSource(corpusPath(spec.fixture), { tasksDir: corpusPath(spec.tasks) });
    const release = source.release!;
    assert.equal(release.version, spec.version);
    assert.equal(release.operating_system, 'Ubuntu');
    assert.ok(release.graphs.default.tasks.length > 180);
    assert.deepEqual(Object.keys(release.graphs).sort(), ['default', 'deletion', 'network_verification', 'provisioning']);
    assert.deepEqual(errors(composeRelease(release, []).findings), []);

    const plugins = corpusPlugins();
    const targeting = plugins.filter((p) => p.releases.some((r) => r.os.toLowerCase() === 'ubuntu' && r.version === spec.version));
    assert.ok(targeting.length >= 10);
    for (const plugin of targeting) {
      const alone = composeRelease(release, [plugin]);
      assert.equal(alone.plugins[0].applied, true, plugin.name);
      const expected = (REAL_ERRORS[plugin.name] ?? []).map((r) => `volume/role-without-mapping: role '${r}' (plugin ${plugin.name}-${plugin.version}) has no disk layout in volumes_roles_mapping`);
      assert.deepEqual(errors(alone.findings), expected.sort(), plugin.name);
    }
    const all = composeRelease(release, plugins);
    assert.deepEqual(all.plugins.filter((p) => p.applied).map((p) => p.name).sort(), [...new Set(targeting.map((p) => p.name))].sort());
  });
}

test('mitaka: the real task conflicts between corpus plugins', needsCorpus, () => {
  const release = loadReleaseSource(corpusPath(fixtures.mitaka.fixture), { tasksDir: corpusPath(fixtures.mitaka.tasks) }).release!;
  const all = composeRelease(release, corpusPlugins());
  const overlaps = all.composed.task_conflicts.map((c) => `${c.id}: ${c.claims.map((x) => x.plugin).join(' + ')}`);
  assert.deepEqual(overlaps, [
    'murano: contrail-5.1.0 + detach-murano-1.2.0',
    'openstack-network-agents-dhcp: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'openstack-network-agents-l3: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'openstack-network-agents-metadata: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'openstack-network-networks: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'openstack-network-plugins-l2: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'openstack-network-routers: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'primary-openstack-network-agents-dhcp: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'primary-openstack-network-agents-l3: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'primary-openstack-network-agents-metadata: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
    'primary-openstack-network-plugins-l2: contrail-5.1.0 + fuel-plugin-calico-3.0.1',
  ]);
  // contrail switches off Neutron's own agents; a composed graph keeps the skip.
  assert.equal(all.composed.graphs.default.tasks.find((t) => t.id === 'openstack-network-agents-l3')?.type, 'skipped');
});

test("Hearth's default release composes alone without findings, and with the mitaka plugins it keeps compatible with", needsCorpus, () => {
  const source = loadReleaseSource(new URL('../../release', import.meta.url).pathname);
  assert.deepEqual(source.findings.filter((f) => f.severity !== 'info'), []);
  const release = source.release!;
  assert.ok(release.graphs.default.tasks.length >= 60);
  assert.ok(release.graphs.default.tasks.some((t) => t.crossDepends.length > 0));
  assert.deepEqual(Object.keys(release.graphs).sort(), ['default', 'deletion', 'network_verification', 'provisioning']);
  assert.deepEqual(composeRelease(release, []).findings, []);
  const all = composeRelease(release, corpusPlugins());
  const applied = all.plugins.filter((p) => p.applied).map((p) => p.name);
  assert.ok(applied.includes('contrail') && applied.includes('detach-murano'));
  assert.ok(all.plugins.filter((p) => !p.applied).every((p) => /does not support Ubuntu 2026\.1-1\.0 or mitaka-9\.0|one version of a plugin/.test(p.reason)));
  assert.deepEqual(all.findings.filter((f) => f.code === 'role/defined-twice' || f.code === 'component/defined-twice'), []);
});
