/**
 * `npm run bench` runs every bench/*.bench.ts; `npm run bench -- graph` runs the ones whose name
 * contains "graph". Each benchmark runs in its own process so one's memory does not skew another's.
 */
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
if (!process.env.HEARTH_CORPUS) {
  const guess = join(here, '..', '..', 'shared', 'corpus');
  process.env.HEARTH_CORPUS = guess;
  console.log(`note: HEARTH_CORPUS not set; using ${guess}`);
}
let failed = 0;
for (const bench of benches) {
  console.log(`\n# ${bench}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(here, bench)], { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
