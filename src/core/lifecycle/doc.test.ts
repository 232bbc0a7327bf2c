import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lifecycleTables } from './doc.js';

test('docs/lifecycle.md holds the model\'s tables as they are', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../docs/lifecycle.md', import.meta.url)), 'utf8');
  const tables = lifecycleTables();
  assert.ok(doc.includes(tables), 'docs/lifecycle.md differs from the model: run `node --import tsx scripts/lifecycle-doc.ts` and paste its tables in');
});
