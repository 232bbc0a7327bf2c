/**
 * Imports only point down (docs: ARCHITECTURE.md): `core/` imports none of the other parts, and
 * nothing below the faces (`package/`, `store/`, `deploy/`, `core/`) imports the CLI. A command's
 * code (flags, exit codes, printing) lives in `src/cli/`. Static and lazy imports alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Each relative import of a file, as the part of src/ it lands in (`cli`, `core`, …). */
function importedParts(file: string): Array<{ spec: string; part: string }> {
  const text = readFileSync(file, 'utf8');
  const out: Array<{ spec: string; part: string }> = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = relative(src, resolve(dirname(file), m[1]));
    if (target.startsWith('..')) continue;
    out.push({ spec: m[1], part: target.split(sep)[0] });
  }
  return out;
}

const partOf = (file: string) => relative(src, file).split(sep)[0];

test('nothing below the CLI imports it; core imports no other part', () => {
  const wrong: string[] = [];
  for (const file of sources(src)) {
    const part = partOf(file);
    for (const { spec, part: target } of importedParts(file)) {
      if (['core', 'package', 'store', 'deploy'].includes(part) && target === 'cli') wrong.push(`${relative(src, file)} imports ${spec}`);
      // A core test may read its fixtures through package/; core's own code may not.
      if (part === 'core' && target !== 'core' && !file.endsWith('.test.ts')) wrong.push(`${relative(src, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(wrong, []);
});
