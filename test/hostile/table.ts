/**
 * Run the whole catalog once and print it as the Markdown table of docs/reliability.md: case,
 * face, expected outcome, and the result measured now (CPU time for CLI and library cases, answer
 * time for API requests). `node --import tsx test/hostile/table.ts` after building dist/.
 */
import { startServer } from '../support/serve.js';
import { apiCases } from './cases/api.js';
import { expectedOutcome } from './case.js';
import { catalog } from './catalog.js';
import { prepare, runApiCase } from './api-run.js';
import { runCase } from './run.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');
const rows: string[] = [];
let passed = 0;
let n = 0;
const row = (face: string, name: string, expected: string, result: string) => rows.push(`| ${++n} | ${cell(face)} | ${cell(name)} | ${cell(expected)} | ${cell(result)} |`);

for (const c of catalog) {
  try {
    const r = await runCase(c);
    passed++;
    row(c.face, c.name, expectedOutcome(c), `pass (${Math.round(r.cpuMs)} ms CPU)`);
  } catch (err) {
    row(c.face, c.name, expectedOutcome(c), `FAIL: ${(err as Error).message.split('\n')[0]}`);
  }
}
const server = await startServer();
try {
  const ids = await prepare(server);
  for (const c of apiCases) {
    const expected = `HTTP ${c.status}${c.code ? `, \`${c.code}\`` : ''}, nothing stored changes`;
    try {
      const ms = await runApiCase(server, ids, c);
      passed++;
      row('API', c.name, expected, `pass (${Math.round(ms)} ms)`);
    } catch (err) {
      row('API', c.name, expected, `FAIL: ${(err as Error).message.split('\n')[0]}`);
    }
  }
} finally {
  await server.stop();
}
console.log('| # | face | case | expected outcome | result |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\n${passed} of ${n} cases pass.`);
