/**
 * YAML loading with positions: any data written out reads back equal, and the position Hearth
 * records for every value points at that value in the text. Any text at all gives findings, never
 * an exception, and every finding has a line and a column inside the text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseYaml } from '../../src/package/yaml/index.js';
import { positionAt } from '../../src/core/positions.js';
import { runs } from './options.js';

/** Values whose YAML 1.1 reading is unambiguous once written as JSON (JSON is YAML). */
const key = fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString')).filter((k) => k !== '<<');
const scalar = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 12 }));
const data = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
})).value;

function leaves(value: unknown, path: (string | number)[] = []): Array<{ path: (string | number)[]; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [{ path, value }];
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

test('property: data written as indented JSON reads back equal, and each value is where its position says', () => {
  fc.assert(
    fc.property(data, fc.constantFrom(0, 2, 4), (value, indent) => {
      const text = JSON.stringify(value, null, indent);
      const parsed = parseYaml(text, 'data.yaml');
      assert.ok(parsed.ok, JSON.stringify(parsed.findings));
      assert.deepEqual(parsed.value, value);
      if (value === null || typeof value !== 'object') return;
      for (const leaf of leaves(value)) {
        if (leaf.path.length === 0) continue;
        const at = positionAt(parsed.value, leaf.path);
        assert.ok(at && at.line !== undefined && at.column !== undefined, `no position for ${JSON.stringify(leaf.path)}`);
        const written = JSON.stringify(leaf.value);
        assert.equal(text.slice(offsetOf(text, at.line, at.column)).slice(0, written.length), written, `${JSON.stringify(leaf.path)} at ${at.line}:${at.column}`);
      }
    }),
    runs(300),
  );
});

test('property: block YAML of nested mappings reads back, with each key on its own line', () => {
  // Plain words YAML 1.1 reads as booleans or null (`on:` is the key true, as in PyYAML) are left out.
  const reserved = new Set(['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null']);
  const ident = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/).filter((k) => !reserved.has(k));
  fc.assert(
    fc.property(fc.uniqueArray(ident, { minLength: 1, maxLength: 6 }), fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 6, maxLength: 6 }), (keys, numbers) => {
      const text = keys.map((k, i) => `${k}:\n  inner_${i}: ${numbers[i]}\n`).join('');
      const parsed = parseYaml(text, 'block.yaml');
      assert.ok(parsed.ok);
      keys.forEach((k, i) => {
        assert.deepEqual((parsed.value as Record<string, unknown>)[k], { [`inner_${i}`]: numbers[i] });
        const at = positionAt(parsed.value, [k, `inner_${i}`]);
        assert.deepEqual([at?.line, at?.column], [2 * i + 2, `  inner_${i}: `.length + 1]);
      });
    }),
    runs(300),
  );
});

test('property: any text gives findings with a place inside it, never an exception', () => {
  const noise = fc.oneof(
    fc.string({ maxLength: 200, unit: 'binary' }),
    fc.array(fc.constantFrom('a', ':', ' ', '\n', '\t', '-', '[', ']', '{', '}', '&x', '*x', '!!', '"', "'", '<<', '#', '?', '|', '>', '\r\n', '\ufeff', '%YAML 1.1\n', '---\n'), { maxLength: 80 }).map((parts) => parts.join('')),
  );
  fc.assert(
    fc.property(noise, (text) => {
      const parsed = parseYaml(text, 'noise.yaml');
      const lines = text.split('\n').length;
      for (const f of parsed.findings) {
        assert.equal(f.file, 'noise.yaml');
        assert.ok(typeof f.line === 'number' && f.line >= 1 && f.line <= lines + 1, `line ${f.line} of ${lines}: ${f.message}`);
        assert.ok(typeof f.column === 'number' && f.column >= 1, `column ${f.column}: ${f.message}`);
        assert.ok(f.code.startsWith('yaml/'), f.code);
      }
      if (!parsed.ok) assert.ok(parsed.findings.some((f) => f.severity === 'error'), 'a refusal says why');
    }),
    runs(1000),
  );
});
