/**
 * The catalog of hostile inputs (issue 10): each case must end in a clear error (a finding code or
 * an exit status), within a bounded CPU time, without a crash, leaving its input as it was and
 * writing nothing outside its own temporary folder. CLI cases run the built `bin/hearth`.
 */
import { test } from 'node:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { catalog } from './catalog.js';
import { expectedOutcome } from './case.js';
import { repoRoot } from './harness.js';
import { runCase } from './run.js';

const built = existsSync(join(repoRoot, 'dist', 'cli', 'main.js'));
const needsBuild = { skip: built ? false : 'dist/ is not built: run `npx tsc -p tsconfig.build.json` (npm test builds first)' };

for (const c of catalog) {
  test(`${c.face}: ${c.name} → ${expectedOutcome(c)}`, c.kind === 'cli' ? needsBuild : {}, async (t) => {
    const result = await runCase(c);
    t.diagnostic(`cpu ${Math.round(result.cpuMs)} ms, wall ${Math.round(result.wallMs)} ms`);
  });
}
