import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { SCHEMAS_DIGEST } from './compiled-schemas.js';
import * as compiled from './compiled-schemas.js';
import { schemasDigest, schemasStamp, exportName, AJV_OPTIONS, SCHEMA_BASE } from './schema-names.js';
import { checkSchema, schemasDir, showPath } from './schemas.js';
import { parseYaml } from '../yaml/index.js';

test('the pre-compiled validators were generated from the schemas as they are now', () => {
  assert.equal(SCHEMAS_DIGEST, schemasDigest(schemasDir), 'run: node --import tsx src/package/validate/compile-schemas.ts');
});

test('the schemas digest changes with any byte, a renamed file or an added file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-digest-'));
  try {
    cpSync(schemasDir, dir, { recursive: true });
    const original = schemasDigest(dir);
    assert.equal(original, schemasDigest(schemasDir));
    const file = join(dir, 'volumes.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"type"', '"typf"'));
    assert.notEqual(schemasDigest(dir), original, 'one byte changed');
    writeFileSync(file, text);
    assert.equal(schemasDigest(dir), original);
    renameSync(file, join(dir, 'volumez.json'));
    assert.notEqual(schemasDigest(dir), original, 'a file renamed');
    renameSync(join(dir, 'volumez.json'), file);
    writeFileSync(join(dir, 'extra.json'), '{}');
    assert.notEqual(schemasDigest(dir), original, 'a file added');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the schemas stamp changes with any write, even one that keeps the size and the modification time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-stamp-'));
  try {
    cpSync(schemasDir, dir, { recursive: true });
    const original = schemasStamp(dir);
    assert.equal(schemasStamp(dir), original, 'nothing changed');
    const file = join(dir, 'volumes.json');
    const text = readFileSync(file, 'utf8');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, text.replace('"type"', '"typf"'));
    utimesSync(file, atime, mtime);
    assert.equal(statSync(file).size, Buffer.byteLength(text));
    assert.notEqual(schemasStamp(dir), original, 'same size, modification time set back');
    const edited = schemasStamp(dir);
    renameSync(file, join(dir, 'volumez.json'));
    assert.notEqual(schemasStamp(dir), edited, 'a file renamed');
    renameSync(join(dir, 'volumez.json'), file);
    const back = schemasStamp(dir);
    writeFileSync(join(dir, 'extra.json'), '{}');
    assert.notEqual(schemasStamp(dir), back, 'a file added');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every schema has an $id under the published base and is valid draft-07', () => {
  const ajv = new Ajv({ strict: false });
  for (const name of readdirSync(schemasDir).filter((n) => n.endsWith('.json'))) {
    const schema = JSON.parse(readFileSync(join(schemasDir, name), 'utf8'));
    assert.equal(schema.$id, SCHEMA_BASE + name);
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    assert.ok(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`);
    if (name !== 'common.json') assert.equal(typeof (compiled as Record<string, unknown>)[exportName(name)], 'function', name);
  }
});

test('compiled and runtime-compiled validators agree', () => {
  const ajv = new Ajv({ ...AJV_OPTIONS });
  for (const name of readdirSync(schemasDir)) ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, name), 'utf8')));
  const samples: Array<[string, unknown]> = [
    ['metadata-2.0.0.json', { name: 'x', releases: [{ os: 'windows' }], groups: ['network', 'network'] }],
    ['deployment-tasks-4.0.0.json', [{ id: 'a b', type: 'copy_files', parameters: { files: [] } }, { id: 'x', type: 'puppet', parameters: { strategy: { type: 'one-by-one' } } }]],
    ['environment-config-4.0.0.json', { attributes: { metadata: { group: 'bogus' }, a: { type: 1, value: 5 } } }],
  ];
  for (const [name, data] of samples) {
    const fromCompiled = (compiled as unknown as Record<string, (d: unknown) => boolean & { errors?: unknown }>)[exportName(name)];
    const runtime = ajv.getSchema(SCHEMA_BASE + name)!;
    assert.equal(fromCompiled(data), runtime(data));
    const errs = (fn: { errors?: unknown }) => (fn.errors as Array<{ instancePath: string; keyword: string }>).map((e) => `${e.instancePath} ${e.keyword}`).sort();
    assert.deepEqual(errs(fromCompiled as unknown as { errors?: unknown }), errs(runtime));
  }
});

test('schema findings: positions from the YAML, alternatives pruned to the branch that went furthest', () => {
  const text = "- id: a\n  type: puppet\n  version: 2.0.0\n  cross-depends:\n    - name: x\n      policy: some\n";
  const data = parseYaml(text, 'deployment_tasks.yaml').value;
  const findings = checkSchema('deployment-tasks-4.0.0.json', data, { file: 'deployment_tasks.yaml' });
  assert.deepEqual(
    findings.map((f) => [f.code, f.line, f.column]),
    [['schema/not-allowed', 6, 15]],
  );
  assert.match(findings[0].message, /\[0\]\.cross-depends\[0\]\.policy is 'some'/);
  assert.equal(showPath(['releases', 0, 'os']), 'releases[0].os');
});

test('schema findings: a value of no accepted shape lists the shapes', () => {
  const data = parseYaml('- id: a\n  type: shell\n  roles: 5\n  parameters: {cmd: x}\n', 'deployment_tasks.yaml').value;
  const findings = checkSchema('deployment-tasks-4.0.0.json', data, { file: 'deployment_tasks.yaml' });
  assert.equal(findings.length, 1);
  assert.equal(findings[0].code, 'schema/wrong-shape');
  assert.match(findings[0].message, /\[0\]\.roles is a number \(5\), which is none of the accepted shapes: text, a list/);
  assert.deepEqual([findings[0].line, findings[0].column], [3, 10]);
});
