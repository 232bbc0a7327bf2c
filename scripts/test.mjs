// Runs every test file (src/**/*.test.ts, test/**/*.test.ts) with Node's own test runner through tsx.
// Node 20's `--test` does not expand globs, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const roots = ['src', 'test'];
const files = [];
function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && name !== 'fixtures') walk(p);
    } else if (name.endsWith('.test.ts')) files.push(p);
  }
}
for (const r of roots) walk(r);
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
if (!process.env.HEARTH_CORPUS) {
  console.log('note: HEARTH_CORPUS is not set; tests over ../shared/corpus are skipped (CI sets it).');
}
// Node 22.1+ keeps the compiled bin/hearth of every run (module.enableCompileCache) under the
// temporary folder unless NODE_COMPILE_CACHE names another: the test processes and the hearth they
// start inherit this one, in the project's cache, so a run leaves nothing in /tmp (issue 31).
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('../node_modules/.cache/hearth-test/node-compile-cache', import.meta.url));
const concurrency = process.env.HEARTH_TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...selected],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
