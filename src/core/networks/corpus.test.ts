/**
 * The default configuration made from real releases: Fuel 9's Mitaka fixture and Hearth's bundled
 * release. What Nailgun made of the fixture (its network groups, ranges and gateways) is what an
 * operator moving from Fuel expects to see.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath, needsCorpus } from '../../../test/support/corpus.js';
import { loadReleaseSource } from '../../package/release/source.js';
import { checkConfiguration, checkNetworks, defaultNetworkConfiguration, networkRolesOf, planAddresses, planVips } from './index.js';

const mitaka = () => {
  const source = loadReleaseSource(corpusPath('release/mitaka-eol/fuel-web/nailgun/nailgun/fixtures/openstack.yaml'), { version: 'mitaka-9.0' });
  assert.ok(source.release, source.findings.map((f) => f.message).join('; '));
  return source.release;
};

test('Mitaka fixture: networks as Nailgun created them (VLAN segmentation), and no finding', needsCorpus, () => {
  const release = mitaka();
  const config = defaultNetworkConfiguration(release);
  const byName = Object.fromEntries(config.networks.map((n) => [n.name, n]));
  assert.deepEqual(config.networks.map((n) => n.name), ['fuelweb_admin', 'public', 'management', 'storage', 'private']);
  // notation ip_ranges, use_gateway: the gateway is the CIDR's first address, the range the release's.
  assert.deepEqual([byName.public.cidr, byName.public.gateway, byName.public.ip_ranges, byName.public.vlan_start], ['172.16.0.0/24', '172.16.0.1', [['172.16.0.2', '172.16.0.126']], null]);
  // notation cidr, no gateway: the range is the whole CIDR but network and broadcast (Nailgun's first_idx 1).
  assert.deepEqual([byName.management.ip_ranges, byName.management.vlan_start, byName.management.gateway], [[['192.168.0.1', '192.168.0.254']], 101, null]);
  assert.equal(byName.private.cidr, null);
  assert.equal(byName.private.meta.neutron_vlan_range, true);
  assert.equal(byName.public.meta.assign_vip, true);
  assert.equal(byName.storage.meta.assign_vip, false);
  assert.deepEqual(config.networking_parameters.vlan_range, [1000, 1030]);
  assert.deepEqual(config.networking_parameters.floating_ranges, [['172.16.0.130', '172.16.0.254']]);
  assert.equal(config.networking_parameters.internal_cidr, '192.168.111.0/24');
  assert.deepEqual(checkConfiguration(config), []);
});

test('Mitaka fixture: tunnels take the tun private network; Ironic adds baremetal when its restriction is off', needsCorpus, () => {
  const release = mitaka();
  const tun = defaultNetworkConfiguration(release, { segmentationType: 'tun' });
  const priv = tun.networks.find((n) => n.name === 'private');
  assert.deepEqual([priv?.cidr, priv?.vlan_start, tun.networking_parameters.vlan_range, tun.networking_parameters.gre_id_range], ['192.168.2.0/24', 103, null, [2, 65535]]);
  assert.deepEqual(checkConfiguration(tun), []);
  const ironic = defaultNetworkConfiguration(release, { restricted: () => false });
  const bare = ironic.networks.find((n) => n.name === 'baremetal');
  assert.deepEqual([bare?.ip_ranges, bare?.vlan_start], [[['192.168.3.2', '192.168.3.50']], 104]);
  assert.deepEqual(checkConfiguration(ironic), []);
});

test('Mitaka fixture: 3 controllers and 20 computes are planned without a finding, public only for the controllers', needsCorpus, () => {
  const release = mitaka();
  const config = defaultNetworkConfiguration(release);
  const roles = networkRolesOf(release);
  const nodes = [...Array.from({ length: 3 }, (_, i) => ({ id: String(i + 1), roles: ['controller'] })), ...Array.from({ length: 20 }, (_, i) => ({ id: String(i + 4), roles: ['compute'] }))];
  const vips = planVips(config, roles, [], { presentRoles: ['controller', 'compute'] });
  assert.deepEqual(vips.vips.map((v) => v.name).sort(), ['management', 'public', 'vrouter', 'vrouter_pub']);
  const plan = planAddresses(config, nodes, vips.vips, { roles: release.roles_metadata });
  assert.deepEqual(plan.findings, []);
  assert.equal(plan.addresses.filter((a) => a.network === 'public').length, 3);
  assert.equal(plan.addresses.filter((a) => a.network === 'management').length, 23);
  assert.deepEqual(checkNetworks(config, { nodes, roles: release.roles_metadata, networkRoles: roles }), []);
});

test("Hearth's bundled release: its networks check clean", () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const source = loadReleaseSource(join(here, '../../../release'));
  assert.ok(source.release, source.findings.map((f) => f.message).join('; '));
  const config = defaultNetworkConfiguration(source.release);
  assert.deepEqual(checkConfiguration(config), []);
  assert.equal(config.networking_parameters.segmentation_type, 'tun');
  assert.deepEqual(config.networking_parameters.dns_nameservers, ['8.8.4.4', '8.8.8.8']);
  const admin = config.networks.find((n) => n.name === 'fuelweb_admin');
  assert.deepEqual([admin?.cidr, admin?.ip_ranges, admin?.meta.map_priority], [null, [], 0]);
});
