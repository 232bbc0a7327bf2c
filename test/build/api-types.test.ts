/**
 * The web UI's and the CLI client's API types (src/api/schema.ts) are generated from the OpenAPI
 * document, and `npm run build` refuses a committed file that no longer matches it: here the check
 * passes on the committed file, and fails, naming the command that regenerates it, on a stale one
 * and on a missing one.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { driftOf, generatedTypes, SCHEMA_FILE } from '../../scripts/api-types.js';

const script = join(import.meta.dirname, '..', '..', 'scripts', 'api-types.ts');
const dir = mkdtempSync(join(tmpdir(), 'hearth-api-types-'));
let expected: string;

before(async () => {
  expected = await generatedTypes();
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The check as `npm run build` runs it, on another file; killed if it outlives its budget. */
function runCheck(file: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--check', '--file', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the check ran over 120 s: ${stderr}`));
    }, 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

test('the committed src/api/schema.ts is what the OpenAPI document gives', () => {
  assert.equal(driftOf(SCHEMA_FILE, expected), undefined, 'run `npm run api:types` and commit src/api/schema.ts');
  assert.match(readFileSync(SCHEMA_FILE, 'utf8'), /GENERATED from \/api\/v1\/openapi\.json by\s+\* `npm run api:types`/);
});

test('a stale file fails the check with its line and the command that regenerates it', { timeout: 150_000 }, async () => {
  // As if a route's answer gained a field after the types were generated: the file lacks it.
  const stale = expected.replace(/\n\s+engine: "pglite" \| "postgres";\n/, '\n');
  assert.notEqual(stale, expected, 'the document has an engine field to drop');
  const file = join(dir, 'schema.ts');
  writeFileSync(file, stale);
  const { code, stderr } = await runCheck(file);
  assert.equal(code, 1, stderr);
  const line = expected.slice(0, [...expected].findIndex((c, i) => stale[i] !== c)).split('\n').length;
  assert.match(stderr, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}: the API's TypeScript types differ from the OpenAPI document`));
  assert.match(stderr, /Run `npm run api:types` and commit the file/);
});

test('a missing file fails the check too', () => {
  const drift = driftOf(join(dir, 'nothing.ts'), expected);
  assert.match(drift ?? '', /nothing\.ts is missing: .* Run `npm run api:types`/);
});
