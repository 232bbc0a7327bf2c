/**
 * groupBy, which the wizard (components by pane group), the Deploy tab (tasks by node), the
 * plugins page and the networks form use: each group keeps the items' order, groups come in the
 * order their first item does, and an item without a key is left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupBy } from '../../web/src/components/groupBy.js';

test('groups keep the items in their order, the groups in the order of their first item', () => {
  const items = [
    { node: '2', task: 'a' },
    { node: '10', task: 'a' },
    { node: '2', task: 'b' },
    { node: '1', task: 'a' },
    { node: '10', task: 'b' },
    { node: '2', task: 'c' },
  ];
  const groups = groupBy(items, (t) => t.node);
  assert.deepEqual([...groups.keys()], ['2', '10', '1']);
  assert.deepEqual(groups.get('2')?.map((t) => t.task), ['a', 'b', 'c']);
  assert.deepEqual(groups.get('10')?.map((t) => t.task), ['a', 'b']);
  assert.deepEqual(groups.get('1')?.map((t) => t.task), ['a']);
  // The same as grouping by copying, item by item (what the pages did before).
  const copied = new Map<string, typeof items>();
  for (const t of items) copied.set(t.node, [...(copied.get(t.node) ?? []), t]);
  assert.deepEqual(groups, copied);
});

test('an item without a key is left out; an empty key is a key; nothing in, nothing out', () => {
  const findings = [{ field: 'cidr', m: 1 }, { m: 2 }, { field: '', m: 3 }, { field: 'cidr', m: 4 }];
  assert.deepEqual(groupBy(findings, (f) => f.field), new Map([['cidr', [findings[0], findings[3]]], ['', [findings[2]]]]));
  assert.deepEqual(groupBy(findings, (f) => f.field || undefined), new Map([['cidr', [findings[0], findings[3]]]]));
  assert.equal(groupBy([], () => 'x').size, 0);
});
