import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listOutput, OutputError, showOutput, type Column } from './output.js';

interface Node {
  id: number;
  name: string;
  roles: string[];
  env: number | null;
}
const COLUMNS: Array<Column<Node>> = [
  { header: 'id', value: (n) => n.id },
  { header: 'name', value: (n) => n.name },
  { header: 'pending roles', value: (n) => n.roles },
  { header: 'env', value: (n) => n.env },
];
const nodes: Node[] = [
  { id: 1, name: 'ctl "one"', roles: ['controller', 'mongo'], env: 7 },
  { id: 2, name: 'cmp', roles: [], env: null },
];

test('csv: a header row of column keys, strings quoted (quotes doubled), numbers bare, empty as ""', async () => {
  assert.equal(await listOutput({ format: 'csv' }, COLUMNS).render(nodes), '"id","name","pending_roles","env"\n1,"ctl ""one""","controller,mongo",7\n2,"cmp","",""\n');
});

test('value: space-separated, no header; -c picks and orders columns by key or header, any case', async () => {
  assert.equal(await listOutput({ format: 'value', column: ['NAME', 'id'] }, COLUMNS).render(nodes), 'ctl "one" 1\ncmp 2\n');
  assert.equal(await listOutput({ format: 'value', column: ['pending roles'] }, COLUMNS).render(nodes), 'controller,mongo\n\n');
});

test('json and yaml: the raw value without -c (what --json printed), objects of the chosen columns with -c', async () => {
  const raw = [{ everything: 'the API sent' }];
  assert.deepEqual(JSON.parse(await listOutput({ json: true }, COLUMNS).render(nodes, raw)), raw);
  assert.deepEqual(JSON.parse(await listOutput({ format: 'json', column: ['id', 'pending_roles'] }, COLUMNS).render(nodes, raw)), [
    { id: 1, pending_roles: ['controller', 'mongo'] },
    { id: 2, pending_roles: [] },
  ]);
  assert.equal(await listOutput({ format: 'yaml', column: ['id', 'env'] }, COLUMNS).render(nodes), '- id: 1\n  env: 7\n- id: 2\n  env: null\n');
});

test('table: the headers as written, absent values as -', async () => {
  assert.equal(await listOutput({}, COLUMNS).render(nodes), 'id  name       pending roles     env\n--  ---------  ----------------  ---\n1   ctl "one"  controller,mongo  7\n2   cmp        -                 -\n');
});

test('bad -f, bad -c and --json beside another format are refused, naming what is valid', () => {
  assert.throws(() => listOutput({ format: 'xml' }, COLUMNS), (e: Error) => e instanceof OutputError && /'xml'.*table, json, yaml, csv, value/.test(e.message));
  assert.throws(() => listOutput({ column: ['mac'] }, COLUMNS), (e: Error) => e instanceof OutputError && /'mac'.*id, name, pending_roles, env/.test(e.message));
  assert.throws(() => listOutput({ json: true, format: 'csv' }, COLUMNS), (e: Error) => e instanceof OutputError && /--json means -f json/.test(e.message));
});

test('show: human text for the table, fields otherwise; values one a line; nested values as JSON', async () => {
  const record = { id: 3, name: 'rel', roles: [{ name: 'controller' }], tags: ['a', 'b'], note: null };
  assert.equal(await showOutput({}, record, () => 'for people\n'), 'for people\n');
  assert.equal(await showOutput({ format: 'value' }, record, () => ''), '3\nrel\n[{"name":"controller"}]\na,b\n\n');
  assert.equal(await showOutput({ format: 'csv', column: ['name', 'id'] }, record, () => ''), '"name","id"\n"rel",3\n');
  assert.equal(await showOutput({ column: ['tags'] }, record, () => ''), 'field  value\n-----  -----\ntags   a,b\n');
  assert.deepEqual(JSON.parse(await showOutput({ format: 'json', column: ['id'] }, record, () => '')), { id: 3 });
  await assert.rejects(showOutput({ column: ['nope'] }, record, () => ''), (e: Error) => e instanceof OutputError && /fields are id, name, roles, tags, note/.test(e.message));
});

test('control characters from the server are escaped in every format', async () => {
  const evil: Node[] = [{ id: 1, name: 'x\u001b[31my', roles: [], env: null }];
  for (const format of ['table', 'json', 'yaml', 'csv', 'value']) {
    const text = await listOutput({ format, column: ['name'] }, COLUMNS).render(evil);
    assert.doesNotMatch(text, /\u001b/, format);
  }
});
