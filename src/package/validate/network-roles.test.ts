/**
 * The validator's network-role checks (issue 27): against the release's networks and against the
 * network roles of the release and of other plugins, each finding at its file:line:col.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { validatePlugin } from './index.js';
import type { Release } from '../../core/release/model.js';
import { packageRoot } from '../root.js';

const METADATA = `name: netdemo
title: Net demo
version: '1.0.0'
package_version: '4.0.0'
description: A plugin with network roles
fuel_version: ['9.0']
licenses: ['Apache License Version 2.0']
authors: ['Someone']
homepage: 'https://example.org'
groups: []
is_hotpluggable: false
releases:
  - os: ubuntu
    version: mitaka-9.0
    mode: ['ha']
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
`;

const roots: string[] = [];
function plugin(networkRoles: string): string {
  const root = mkdtempSync(join(tmpdir(), 'hearth-netroles-'));
  roots.push(root);
  const files: Record<string, string> = { 'metadata.yaml': METADATA, 'environment_config.yaml': 'attributes: {}\n', 'deployment_tasks.yaml': '[]\n', 'network_roles.yaml': networkRoles, 'deployment_scripts/.keep': '', 'repositories/ubuntu/.keep': '' };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
test.after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Fuel 9's networks: VIPs on public and management only; a release network role to clash with. */
const release = {
  id: 'Mitaka@mitaka-9.0', name: 'Mitaka', version: 'mitaka-9.0', operating_system: 'Ubuntu', source: 'test',
  roles_metadata: { controller: { name: 'Controller' } }, tags_metadata: {}, volumes_metadata: { volumes: [], volumes_roles_mapping: {} },
  networks_metadata: { neutron: { networks: [{ name: 'public', vips: ['haproxy'] }, { name: 'management', vips: ['haproxy'] }, { name: 'storage' }, { name: 'private' }] } },
  network_roles_metadata: [{ id: 'ironic/api', default_mapping: 'management', properties: { subnet: true, gateway: false, vip: [] } }],
  attributes_metadata: {}, components: [], required_component_types: [], graphs: {},
} as unknown as Release;

const netFindings = (dir: string, options = {}) => validatePlugin(dir, options).findings.filter((f) => f.code.startsWith('network-role/')).map((f) => [f.severity, f.code, `${f.file}:${f.line}:${f.column}`]);

test('a default_mapping to a network the release does not have is an error at its place; without a release, a warning', () => {
  const dir = plugin(`- id: demo/api
  default_mapping: managment
  properties: {subnet: true, gateway: false, vip: []}
`);
  assert.deepEqual(netFindings(dir, { release }), [['error', 'network-role/unknown-network', 'network_roles.yaml:2:20']]);
  const [f] = validatePlugin(dir, { release }).findings.filter((x) => x.code === 'network-role/unknown-network');
  assert.match(f.message, /'managment', which release Mitaka does not have; closest: 'management'/);
  assert.match(f.hint ?? '', /fuelweb_admin, public, management, storage, private/);
  assert.deepEqual(netFindings(dir), [['warning', 'network-role/unknown-network', 'network_roles.yaml:2:20']]);
});

test('a VIP on a network that takes none is a warning (Fuel 9 allocated it, the release did not plan for it)', () => {
  const dir = plugin(`- id: demo/storage
  default_mapping: storage
  properties:
    subnet: true
    gateway: false
    vip:
      - name: demo_storage
- id: demo/vip
  default_mapping: public
  properties:
    subnet: true
    gateway: false
    vip:
      - name: demo_public
`);
  assert.deepEqual(netFindings(dir, { release }), [['warning', 'network-role/vip-without-assign-vip', 'network_roles.yaml:7:7']]);
});

test("a role the release or another plugin defines differently is an error; adding only VIPs to one is fine", () => {
  const clash = plugin(`- id: ironic/api
  default_mapping: management
  properties: {subnet: true, gateway: true, vip: []}
- id: shared/api
  default_mapping: public
  properties: {subnet: true, gateway: false, vip: []}
`);
  const others = [{ name: 'other-plugin', networkRoles: [{ id: 'shared/api', default_mapping: 'management', properties: { subnet: true, gateway: false, vip: [] } }] }];
  const findings = validatePlugin(clash, { release, otherPlugins: others }).findings.filter((f) => f.code === 'network-role/conflict');
  assert.deepEqual(findings.map((f) => `${f.file}:${f.line}:${f.column}`), ['network_roles.yaml:1:7', 'network_roles.yaml:4:7']);
  assert.match(findings[0].message, /sets properties\.gateway \(true, not false\) differently from release Mitaka/);
  assert.match(findings[1].message, /maps it to 'public' where plugin other-plugin maps it to 'management'/);
  const addsVip = plugin(`- id: ironic/api
  default_mapping: management
  properties: {subnet: true, gateway: false, vip: [{name: ironic_api}]}
`);
  assert.deepEqual(netFindings(addsVip, { release, otherPlugins: others }), []);
});

test("a release plugin's network roles are checked against its own networks: Hearth's bundled release is clean, a misspelt mapping is not", () => {
  const r = validatePlugin(join(packageRoot(), 'release'));
  assert.deepEqual(r.findings.filter((f) => f.code.startsWith('network-role/')), []);
  const root = mkdtempSync(join(tmpdir(), 'hearth-netroles-'));
  roots.push(root);
  const files: Record<string, string> = {
    'metadata.yaml': `name: my-release
title: R
version: '1.0.0'
package_version: '5.0.0'
description: d
licenses: [x]
authors: [y]
homepage: h
groups: []
releases:
  - release_name: my-release
    is_release: true
    description: A release
    operating_system: ubuntu
    version: newton-10.0
    networks_path: meta/networks.yaml
    network_roles_path: meta/network_roles.yaml
    deployment_scripts_path: deployment_scripts/
    repository_path: repositories/ubuntu
    graphs:
      - type: default
        tasks_path: graphs/default.yaml
`,
    'meta/networks.yaml': 'neutron:\n  networks:\n    - {name: public, vips: [haproxy]}\n    - {name: management}\n',
    'meta/network_roles.yaml': '- id: mgmt/api\n  default_mapping: managment\n  properties: {subnet: true, gateway: false, vip: []}\n- id: mgmt/vip\n  default_mapping: management\n  properties: {subnet: true, gateway: false, vip: [{name: management}]}\n',
    'graphs/default.yaml': '- {id: start, type: stage}\n',
    'environment_config.yaml': '',
    'deployment_tasks.yaml': '[]\n',
    'deployment_scripts/.keep': '',
    'repositories/ubuntu/.keep': '',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  assert.deepEqual(netFindings(root), [
    ['error', 'network-role/unknown-network', 'meta/network_roles.yaml:2:20'],
    ['warning', 'network-role/vip-without-assign-vip', 'meta/network_roles.yaml:6:51'],
  ]);
});
