import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYaml } from '../../package/yaml/index.js';
import { deploymentCommon, flattenSettings, nodeDeploymentInfo, shareUnchanged } from './deployment-info.js';

const attributes = {
  editable: {
    common: { metadata: { label: 'Common' }, debug: { value: true, type: 'checkbox' }, libvirt_type: { value: 'kvm' } },
    additional_components: { metadata: {}, sahara: { value: false }, murano: { value: true } },
    storage: { metadata: { label: 'Storage' }, objects_ceph: { value: false }, osd_pool_size: { value: '3' } },
    'my-plugin': { metadata: { enabled: false, plugin_version: '1.0.0' }, flag: { value: 'x' } },
  },
  generated: { mysql: { root_password: { generator: 'password' } }, sahara: { db_password: { generator: 'password' } }, deployed_before: { value: false } },
};

test('settings are flattened as Nailgun did: common lifted, additional components as X.enabled, generated merged', () => {
  const flat = flattenSettings(attributes, undefined);
  assert.equal(flat.debug, true);
  assert.equal(flat.libvirt_type, 'kvm');
  assert.equal('common' in flat || 'additional_components' in flat, false);
  assert.deepEqual(flat.sahara, { db_password: 'generated:password', enabled: false });
  assert.deepEqual(flat.murano, { enabled: true });
  assert.deepEqual(flat.storage, { metadata: { label: 'Storage' }, objects_ceph: false, osd_pool_size: '3' });
  assert.deepEqual(flat.deployed_before, { value: false }, 'a group whose attribute is literally named value keeps it');
  assert.deepEqual(flat.mysql, { root_password: 'generated:password' });
  // The release's metadata is not changed.
  assert.deepEqual(attributes.editable.storage.objects_ceph, { value: false });
});

test('--settings values: both spellings, unknown sections and attributes are positioned warnings', () => {
  const parsed = parseYaml('storage:\n  objects_ceph: true\n  osd_pool_size: {value: "2"}\n  nope: 1\ncommon:\n  debug: false\nadditional_components:\n  sahara: true\nghost: {a: 1}\nbad: 3\n', 'settings.yaml');
  const findings: import('../findings.js').Finding[] = [];
  const flat = flattenSettings(attributes, parsed.value as Record<string, unknown>, findings);
  assert.equal((flat.storage as Record<string, unknown>).objects_ceph, true);
  assert.equal((flat.storage as Record<string, unknown>).osd_pool_size, '2');
  assert.equal(flat.debug, false);
  assert.deepEqual(flat.sahara, { db_password: 'generated:password', enabled: true });
  assert.deepEqual(findings.map((f) => [f.code, f.line]), [['settings/unknown-attribute', 4], ['settings/unknown-section', 9], ['settings/unknown-section', 10]]);
});

test('common part: plugins enabled, network_metadata and legacy nodes from the labelled nodes; per-node overlay', () => {
  const nodes = [
    { input: { id: '1', roles: ['controller'] }, labels: ['primary-controller'] },
    { input: { id: '2', roles: ['compute', 'cinder'] }, labels: ['cinder', 'compute'] },
  ];
  const networks_metadata = { neutron: { networks: [{ name: 'management', cidr: '192.168.0.0/24', notation: 'cidr', map_priority: 2, vlan_start: 101, vips: ['haproxy'] }, { name: 'storage', cidr: '192.168.1.0/24', notation: 'cidr', map_priority: 2, vlan_start: 102 }] } };
  const network_roles_metadata = [
    { id: 'mgmt/api', default_mapping: 'management', properties: { subnet: true, gateway: false, vip: [{ name: 'management', namespace: 'haproxy' }] } },
    { id: 'storage', default_mapping: 'storage', properties: { subnet: true, gateway: false, vip: [] } },
  ];
  const { common, networks } = deploymentCommon({ attributes_metadata: attributes, version: 'mitaka-9.0', applied_plugins: [{ name: 'my-plugin', version: '1.0.0' }], networks_metadata, network_roles_metadata }, nodes);
  assert.deepEqual((common['my-plugin'] as Record<string, unknown>).metadata, { enabled: true, plugin_version: '1.0.0' });
  assert.deepEqual(common.plugins, [{ name: 'my-plugin', version: '1.0.0' }]);
  const metadata = common.network_metadata as { nodes: Record<string, { uid: string; node_roles: string[]; network_roles: Record<string, string> }>; vips: Record<string, { node_roles: string[]; ipaddr: string; network_role: string }> };
  assert.deepEqual(Object.keys(metadata.nodes), ['node-1', 'node-2']);
  assert.deepEqual(metadata.nodes['node-1'].node_roles, ['primary-controller']);
  // Addresses and VIPs come from the release's networks and network roles (core/networks), in the stable order.
  const ofNode = (name: string) => [metadata.nodes[name].network_roles['mgmt/api'], metadata.nodes[name].network_roles.storage];
  assert.deepEqual(ofNode('node-1'), ['192.168.0.2', '192.168.1.1']);
  assert.deepEqual(ofNode('node-2'), ['192.168.0.3', '192.168.1.2']);
  assert.equal(metadata.vips.management.network_role, 'mgmt/api');
  assert.equal(metadata.vips.management.ipaddr, '192.168.0.1', 'VIPs are planned before the nodes: new nodes do not move them');
  assert.deepEqual(metadata.vips.management.node_roles, ['controller', 'primary-controller']);
  assert.deepEqual((common.nodes as Array<{ uid: string; role: string }>).map((n) => `${n.uid}:${n.role}`), ['1:primary-controller', '2:cinder', '2:compute']);
  const overlay = nodeDeploymentInfo({ id: '2', roles: ['compute', 'cinder'], labels: ['cinder', 'compute'], classIndex: 3, base: 0 }, { id: '2', roles: ['compute', 'cinder'], attributes: { fqdn: 'c.example.com' } }, 1, networks);
  assert.equal(overlay.uid, '2');
  assert.deepEqual(overlay.roles, ['cinder', 'compute']);
  assert.equal(overlay.fqdn, 'c.example.com');
  assert.equal(overlay.ip, '192.168.0.3');
  const scheme = overlay.network_scheme as { version: string; endpoints: Record<string, { IP: string[] }>; roles: Record<string, string> };
  assert.equal(scheme.version, '1.1');
  assert.deepEqual(scheme.endpoints['br-mgmt'].IP, ['192.168.0.3/24']);
  assert.equal(scheme.roles['mgmt/api'], 'br-mgmt');
});

test('shareUnchanged: equal sections and network_metadata nodes become the current objects', () => {
  const current = { storage: { a: 1 }, debug: true, network_metadata: { nodes: { 'node-1': { uid: '1' }, 'node-2': { uid: '2' } }, vips: { v: 1 } } };
  const previous = { storage: { a: 1 }, debug: false, network_metadata: { nodes: { 'node-1': { uid: '1' } }, vips: { v: 1 } } };
  const shared = shareUnchanged(previous, current) as typeof current;
  assert.equal(shared.storage, current.storage);
  assert.equal(shared.debug, false);
  assert.equal(shared.network_metadata.nodes['node-1'], current.network_metadata.nodes['node-1']);
  assert.equal(Object.keys(shared.network_metadata.nodes).length, 1);
  assert.equal(shared.network_metadata.vips, current.network_metadata.vips);
});
