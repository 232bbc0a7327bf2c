import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowedFailures, toleranceBreaches } from './tolerance.js';

test('fault_tolerance: counts, shares rounded down, nothing by default', () => {
  assert.equal(allowedFailures('10%', 25), 2);
  assert.equal(allowedFailures('10%', 9), 0);
  assert.equal(allowedFailures(' 50 % ', 2), 1);
  assert.equal(allowedFailures(2, 100), 2);
  assert.equal(allowedFailures('3', 100), 3);
  assert.equal(allowedFailures('150%', 4), 4);
  for (const bad of [undefined, null, 'lots', -1, '-5%', {}, '1e9']) assert.equal(allowedFailures(bad, 10), 0, String(bad));
});

test('a failed node fails the run unless each of its roles tolerates it', () => {
  const roles = { compute: { fault_tolerance: '50%' }, controller: {}, storage: { fault_tolerance: 1 } };
  const nodes = [
    { id: '1', roles: ['controller'] },
    { id: '2', roles: ['compute'] },
    { id: '3', roles: ['compute'] },
    { id: '4', roles: ['compute', 'storage'] },
    { id: '5', roles: ['compute'] },
  ];
  assert.deepEqual(toleranceBreaches(roles, nodes, new Set(['2', '3'])), []);
  assert.deepEqual(toleranceBreaches(roles, nodes, new Set(['2', '3', '5'])), [{ role: 'compute', failed: 3, allowed: 2, of: 4 }]);
  assert.deepEqual(toleranceBreaches(roles, nodes, new Set(['1'])), [{ role: 'controller', failed: 1, allowed: 0, of: 1 }]);
  assert.deepEqual(toleranceBreaches(roles, nodes, new Set(['4'])), []);
  assert.deepEqual(toleranceBreaches(roles, nodes, new Set()), []);
});
