import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupOf, inventoryAsIni, inventoryOf, knownHostsOf, withKnownHosts, type InventoryNode } from './index.js';

const node = (id: number, name: string, roles: string[], pendingRoles: string[] = [], extra: Partial<InventoryNode> = {}): InventoryNode => ({
  id,
  name,
  address: `10.0.0.${id}`,
  sshUser: 'root',
  sshPort: 22,
  roles,
  pendingRoles,
  status: roles.length ? 'ready' : 'discovered',
  networkData: [
    { name: 'fuelweb_admin', ip: `10.0.0.${id}/32`, vlan: null, dev: 'eth0', gateway: null, cidr: null },
    { name: 'management', ip: `192.168.0.${id}/24`, vlan: 101, dev: 'eth0', gateway: null, cidr: '192.168.0.0/24' },
  ],
  volumes: [{ name: 'os', size_mb: 51200, disks: ['sda'] }],
  ...extra,
});
const environment = { id: 7, name: 'prod' };

test('groups are roles, deployed and pending; a node without roles is ungrouped; simulated nodes are left out and named', () => {
  const inv = inventoryOf({
    environment,
    keyFile: '/var/lib/hearth/ssh/id_ed25519',
    nodes: [node(3, 'c1', ['compute'], ['ceph-osd']), node(1, 'ctl', ['controller']), node(2, 'spare', []), { id: 4, name: 'sim-1', simulated: true }],
  });
  assert.deepEqual(inv.all.children, ['ceph_osd', 'compute', 'controller', 'ungrouped']);
  assert.deepEqual(inv.compute, { hosts: ['c1'] });
  assert.deepEqual(inv.ceph_osd, { hosts: ['c1'] });
  assert.deepEqual(inv.ungrouped, { hosts: ['spare'] });
  assert.deepEqual(Object.keys(inv._meta.hostvars), ['ctl', 'spare', 'c1']);
  assert.deepEqual(inv._meta.hearth.simulated_nodes, [{ id: 4, name: 'sim-1' }]);
  const c1 = inv._meta.hostvars.c1;
  assert.equal(c1.ansible_host, '10.0.0.3');
  assert.equal(c1.ansible_ssh_private_key_file, '/var/lib/hearth/ssh/id_ed25519');
  assert.equal(c1.hearth_uid, '3');
  assert.deepEqual(c1.hearth_roles, ['compute']);
  assert.deepEqual(c1.hearth_pending_roles, ['ceph-osd']);
  assert.deepEqual(c1.hearth_addresses, { fuelweb_admin: '10.0.0.3', management: '192.168.0.3' });
  // Ansible's play keywords are never host variables here.
  for (const vars of Object.values(inv._meta.hostvars)) for (const reserved of ['name', 'roles', 'environment', 'tags']) assert.ok(!(reserved in vars), reserved);
});

test('a name that is no host name becomes node-<id>; a group never takes Ansible\'s own names', () => {
  const inv = inventoryOf({ environment, nodes: [node(5, 'rack 2 [a]', ['all']), node(6, 'node-5', ['9lives'])] });
  assert.deepEqual(Object.keys(inv._meta.hostvars), ['hearth-node-5', 'node-5']);
  assert.equal(inv._meta.hostvars['hearth-node-5'].hearth_name, 'rack 2 [a]');
  assert.equal(groupOf('all'), 'role_all');
  assert.equal(groupOf('9lives'), 'role_9lives');
  assert.deepEqual(inv.all.children, ['role_9lives', 'role_all']);
});

test('INI: plain values bare, numbers and lists as Python literals, strings that would read as numbers quoted', () => {
  const inv = inventoryOf({ environment: { id: 1, name: "o'brien" }, nodes: [node(1, 'n1', ['controller'], [], { sshUser: '0123', status: 'True' })] });
  const line = inventoryAsIni(inv).split('\n').find((l) => l.startsWith('n1 '))!;
  assert.match(line, / ansible_host=10\.0\.0\.1 ansible_port=22 ansible_user='"0123"' /);
  assert.match(line, / hearth_status='"True"' /);
  assert.match(line, / hearth_roles='\["controller"\]' /);
  assert.match(line, / hearth_environment='\{"id": 1, "name": "o\\x27brien"\}' /);
});

test('known_hosts lines say the port when it is not 22, and the inventory checks keys against that file only', () => {
  const inv = inventoryOf({ environment, nodes: [node(1, 'a', [], [], { hostKey: 'ssh-ed25519 AAAA1' }), node(2, 'b', [], [], { hostKey: 'ssh-ed25519 AAAA2', sshPort: 2222 })] });
  assert.equal(knownHostsOf(inv), '10.0.0.1 ssh-ed25519 AAAA1\n[10.0.0.2]:2222 ssh-ed25519 AAAA2\n');
  assert.equal(withKnownHosts(inv, '/tmp/k h')._meta.hostvars.a.ansible_ssh_common_args, '-o UserKnownHostsFile="/tmp/k h" -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes');
});
