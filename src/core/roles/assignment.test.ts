import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRoleAssignment, checkTaskConflictsOnNodes } from './assignment.js';
import { canShareNode, rolesReached } from './placement.js';
import type { RoleMetadata } from '../release/model.js';

const roles: Record<string, RoleMetadata> = {
  controller: { name: 'Controller', conflicts: ['compute'], limits: { min: 1, recommended: 3, overrides: [{ condition: "settings:neutron.l3_ha.value == true", min: 2, message: 'Neutron L3 HA needs 2 controllers.' }] }, tags: ['controller', 'database'] },
  compute: { name: 'Compute', conflicts: ['controller'] },
  'base-os': { name: 'Operating System', conflicts: '*' },
  mongo: { name: 'Telemetry DB', limits: { max: 'settings:mongo.max.value' }, restrictions: [{ condition: 'settings:additional.ceilometer.value == false', message: 'Enable Ceilometer to use MongoDB' }] },
};
const settings = { neutron: { l3_ha: { value: false } }, mongo: { max: { value: 1 } }, additional: { ceilometer: { value: true } } };
const codes = (fs: { code: string }[]) => fs.map((f) => f.code).sort();

test('conflicts bind both ways, and "*" keeps a role alone', () => {
  assert.equal(canShareNode(roles, 'compute', 'controller'), false);
  assert.equal(canShareNode(roles, 'mongo', 'controller'), true);
  assert.equal(canShareNode(roles, 'mongo', 'base-os'), false);
  assert.equal(canShareNode(roles, 'base-os', 'base-os'), true);
});

test('selectors: *, regex, primary- names and tags', () => {
  assert.deepEqual(rolesReached(roles, '*'), Object.keys(roles).sort());
  assert.deepEqual(rolesReached(roles, ['/^c/']), ['compute', 'controller']);
  assert.deepEqual(rolesReached(roles, ['primary-controller']), ['controller']);
  assert.deepEqual(rolesReached(roles, ['database'], true), ['controller']);
  assert.deepEqual(rolesReached(roles, ['/[/']), []);
  assert.equal(rolesReached(roles, undefined), undefined);
});

test('a valid assignment has no findings beyond the recommendation', () => {
  const nodes = [{ id: 1, roles: ['controller'] }, { id: 2, roles: ['compute'] }, { id: 3, roles: ['mongo'] }];
  const f = checkRoleAssignment({ roles_metadata: roles }, nodes, settings);
  assert.deepEqual(codes(f), ['role/below-recommended']);
  assert.equal(f[0].severity, 'warning');
});

test('conflicting roles on one node, unknown roles and too many nodes are errors a person can follow', () => {
  const nodes = [
    { id: 1, name: 'node-1', roles: ['controller', 'compute'] },
    { id: 2, roles: ['base-os', 'mongo', 'cinder'] },
    { id: 3, roles: ['mongo'] },
  ];
  const f = checkRoleAssignment({ roles_metadata: roles }, nodes, settings);
  assert.deepEqual(codes(f), ['role/below-recommended', 'role/conflict', 'role/conflict', 'role/too-many', 'role/unknown']);
  assert.equal(f.find((x) => x.code === 'role/conflict')!.message, "node 'node-1' cannot hold both controller (Controller) and compute (Compute): role 'controller' conflicts with 'compute'");
  assert.match(f.find((x) => x.code === 'role/conflict' && x.message.includes('node 2'))!.message, /role 'base-os' must be alone on its node/);
  assert.match(f.find((x) => x.code === 'role/unknown')!.message, /node 2: cinder is not a role/);
  assert.match(f.find((x) => x.code === 'role/too-many')!.message, /At most 1/);
});

test('limit overrides apply when their condition holds; restrictions block a role', () => {
  const s = { ...settings, neutron: { l3_ha: { value: true } }, additional: { ceilometer: { value: false } } };
  const f = checkRoleAssignment({ roles_metadata: roles }, [{ id: 1, roles: ['controller'] }, { id: 2, roles: ['mongo'] }], s);
  assert.deepEqual(codes(f), ['role/below-recommended', 'role/restricted', 'role/too-few']);
  assert.match(f.find((x) => x.code === 'role/too-few')!.message, /Neutron L3 HA needs 2 controllers/);
  assert.match(f.find((x) => x.code === 'role/restricted')!.message, /Enable Ceilometer to use MongoDB/);
});

test('nodes pending deletion do not count towards limits', () => {
  const f = checkRoleAssignment({ roles_metadata: roles }, [{ id: 1, roles: ['controller'], pendingDeletion: true }], settings);
  assert.ok(codes(f).includes('role/too-few'));
});

test('a task claimed by two plugins is an error only on nodes holding roles of both', () => {
  const composed = { task_conflicts: [{ graph: 'default', id: 'x', claims: [{ graph: 'default', id: 'x', plugin: 'a-1', roles: ['mongo'] }, { graph: 'default', id: 'x', plugin: 'b-1', roles: ['controller'] }] }] };
  assert.deepEqual(checkTaskConflictsOnNodes(composed, [{ id: 1, roles: ['mongo'] }, { id: 2, roles: ['controller'] }]), []);
  const f = checkTaskConflictsOnNodes(composed, [{ id: 3, roles: ['controller', 'mongo'] }]);
  assert.equal(f.length, 1);
  assert.equal(f[0].message, "node 3 would run two definitions of task 'x' (graph 'default'): from a-1 (via mongo) and b-1 (via controller)");
});
