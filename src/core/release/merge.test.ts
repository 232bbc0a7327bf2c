import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepMerge } from './merge.js';

test('a record extending an extended template merges mappings at every depth and changes neither input', () => {
  const shared = { network: { cidr: '10.0.0.0/24', gateway: null } };
  const template = { fields: { attributes: { common: { debug: false, net: shared }, editable: { a: 1 } }, roles: ['controller'] } };
  const middle = deepMerge(template, { fields: { attributes: { common: { debug: true } }, roles: ['compute'] } });
  const record = deepMerge(middle, { fields: { attributes: { common: { net: { network: { gateway: '10.0.0.1' } } } } } });
  assert.deepEqual(record, {
    fields: { attributes: { common: { debug: true, net: { network: { cidr: '10.0.0.0/24', gateway: '10.0.0.1' } } }, editable: { a: 1 } }, roles: ['compute'] },
  });
  // The template (and the mapping a YAML alias shares with other records) is left as it was.
  assert.deepEqual(template, { fields: { attributes: { common: { debug: false, net: shared }, editable: { a: 1 } }, roles: ['controller'] } });
  assert.deepEqual(shared, { network: { cidr: '10.0.0.0/24', gateway: null } });
  assert.equal((middle as { fields: { attributes: { common: { net: { network: { gateway: unknown } } } } } }).fields.attributes.common.net.network.gateway, null);
  assert.notEqual((record as { fields: object }).fields, (middle as { fields: object }).fields);
});
