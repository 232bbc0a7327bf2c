/**
 * The published JSON Schemas are what editors read for completion and hover help (the
 * `# yaml-language-server: $schema=` line `plugin create` writes): every field of every plugin file
 * says what it means, and the validators compiled from the same files do not carry that text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../hostile/harness.js';

const schemasDir = join(repoRoot, 'schemas');
const schemaFiles = readdirSync(schemasDir).filter((f) => f.endsWith('.json')).sort();

/** Keywords holding one schema, or a list of them. */
const SUBSCHEMA = ['items', 'additionalItems', 'additionalProperties', 'not', 'contains', 'propertyNames', 'then', 'else', 'allOf', 'anyOf', 'oneOf'];
/** Keywords holding schemas by name. */
const NAMED = ['properties', 'patternProperties', 'definitions', '$defs'];

interface Field {
  pointer: string;
  description: unknown;
}

/**
 * Every property a schema defines (under `properties` and `patternProperties`, at any depth), with
 * its JSON pointer. Properties inside an `if` are left out: they only test a value (`type: {const:
 * puppet}`), and the field is described where it is defined.
 */
function fieldsOf(schema: unknown, pointer = ''): Field[] {
  if (schema === null || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((s, i) => fieldsOf(s, `${pointer}/${i}`));
  const node = schema as Record<string, unknown>;
  const out: Field[] = [];
  for (const keyword of NAMED) {
    const map = node[keyword];
    if (map === null || typeof map !== 'object') continue;
    for (const [name, sub] of Object.entries(map)) {
      const at = `${pointer}/${keyword}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (keyword === 'properties' || keyword === 'patternProperties') out.push({ pointer: at, description: (sub as { description?: unknown } | null)?.description });
      out.push(...fieldsOf(sub, at));
    }
  }
  for (const keyword of SUBSCHEMA) if (keyword in node) out.push(...fieldsOf(node[keyword], `${pointer}/${keyword}`));
  return out;
}

/** What is wrong with a field's description, or undefined. */
function problemWith(description: unknown): string | undefined {
  if (typeof description !== 'string') return 'has no description';
  const text = description.trim();
  if (text.length < 12) return `has a description too short to help: ${JSON.stringify(text)}`;
  if (!/[.)]$/.test(text)) return `has a description that does not end as a sentence: ${JSON.stringify(text.slice(-40))}`;
  return undefined;
}

test('every field of every published schema has a description (hover help in editors)', () => {
  const problems: string[] = [];
  let fields = 0;
  for (const file of schemaFiles) {
    for (const field of fieldsOf(JSON.parse(readFileSync(join(schemasDir, file), 'utf8')))) {
      fields++;
      const problem = problemWith(field.description);
      if (problem) problems.push(`schemas/${file}#${field.pointer} ${problem}`);
    }
  }
  assert.ok(fields > 300, `the walk reached the fields (${fields})`);
  assert.deepEqual(problems, []);
});

test('the walk finds a field without a description wherever it is nested, and skips the tests of an if', () => {
  const schema = {
    type: 'array',
    items: {
      properties: { id: { description: 'The task id, unique in its graph.', type: 'string' }, type: { enum: ['a'] } },
      allOf: [{ if: { properties: { type: { const: 'a' } } }, then: { properties: { parameters: { properties: { cmd: { type: 'string' } } } } } }],
    },
    definitions: { role: { patternProperties: { '^x$': { type: 'string' } } } },
  };
  const missing = fieldsOf(schema).filter((f) => problemWith(f.description)).map((f) => f.pointer);
  assert.deepEqual(missing.sort(), [
    '/definitions/role/patternProperties/^x$',
    '/items/allOf/0/then/properties/parameters',
    '/items/allOf/0/then/properties/parameters/properties/cmd',
    '/items/properties/type',
  ]);
  assert.equal(problemWith('Seconds'), 'has a description too short to help: "Seconds"');
  assert.match(problemWith('Seconds the task may run before it fails') ?? '', /does not end as a sentence/);
});

test('the compiled validators leave the descriptions out (they would only slow every start)', () => {
  const compiled = readFileSync(join(repoRoot, 'src', 'package', 'validate', 'compiled-schemas.ts'), 'utf8');
  const texts = new Set<string>();
  for (const file of schemaFiles) {
    for (const field of fieldsOf(JSON.parse(readFileSync(join(schemasDir, file), 'utf8')))) if (typeof field.description === 'string') texts.add(field.description);
  }
  const kept = [...texts].filter((t) => compiled.includes(JSON.stringify(t)));
  assert.deepEqual(kept, []);
  // ... while what validation reads is there: property names and enums.
  assert.match(compiled, /"puppet_manifest"/);
  assert.match(compiled, /"one_by_one"/);
});
