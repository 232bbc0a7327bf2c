/** Run one hostile case and check what every case promises, then what this case expects. */
import assert from 'node:assert/strict';
import type { Finding } from '../../src/core/findings.js';
import type { CliCase, HostileCase, LibraryCase } from './case.js';
import { CPU_BOUND_MS, STACK_TRACE, WALL_BOUND_MS, caseFolders, changes, findingsOfJson, measure, removeFolders, runHearth, snapshot, type CaseFolders } from './harness.js';

export interface CaseResult {
  cpuMs: number;
  wallMs: number;
  codes: string[];
}

export async function runCase(c: HostileCase): Promise<CaseResult> {
  const folders = caseFolders();
  try {
    await c.setup?.(folders);
    const input = snapshot(folders.in);
    const outside = snapshot(folders.outside);
    const result = c.kind === 'cli' ? checkCli(c, folders) : await checkLibrary(c, folders);
    const inputChanges = changes(input, snapshot(folders.in)).filter((x) => !(c.kind === 'cli' && c.mayWrite?.test(x.replace(/^\w+ /, ''))));
    assert.deepEqual(inputChanges, [], 'the input must be left as it was');
    assert.deepEqual(changes(outside, snapshot(folders.outside)), [], 'nothing may change outside the case');
    assert.deepEqual([...snapshot(folders.cwd).keys()], [], 'nothing may be written to the working folder');
    // Node 22+'s own compile cache goes where NODE_COMPILE_CACHE says (runHearth: the project's cache).
    assert.deepEqual([...snapshot(folders.tmp).keys()], [], 'temporary files must be removed');
    return result;
  } finally {
    removeFolders(folders);
  }
}

function checkCli(c: CliCase, folders: CaseFolders): CaseResult {
  const run = runHearth(c.args(folders), folders);
  const shown = `\n--- stdout\n${run.stdout.slice(0, 2000)}\n--- stderr\n${run.stderr.slice(0, 2000)}`;
  assert.equal(run.signal, null, `hearth was killed by ${run.signal} after ${Math.round(run.wallMs)} ms (bound ${WALL_BOUND_MS} ms)${shown}`);
  assert.doesNotMatch(run.stderr, STACK_TRACE, `a stack trace reached the user${shown}`);
  assert.notEqual(run.status, 70, `hearth crashed (exit 70)${shown}`);
  assert.equal(run.status, c.exit, `exit status${shown}`);
  assert.ok(run.cpuMs < CPU_BOUND_MS, `took ${Math.round(run.cpuMs)} ms of CPU (bound ${CPU_BOUND_MS} ms)`);
  const findings = findingsOfJson(run.stdout);
  const text = run.stdout + run.stderr;
  // Commands print JSON on stdout and may still write notes (with `[code]`) on stderr.
  const codes = [...(findings ?? []).map((f) => f.code), ...[...text.matchAll(/\[([a-z0-9-]+\/[a-z0-9-]+)\]/g)].map((m) => m[1])];
  for (const code of c.codes ?? []) {
    const named = codes.includes(code) || (!findings && text.includes(code));
    assert.ok(named, `expected finding ${code}; got ${[...new Set(codes)].join(', ') || 'none'}${shown}`);
  }
  if (findings) checkPlaced(findings.filter((f) => (c.codes ?? []).includes(f.code)), c.where ?? 'line');
  if (c.says) assert.match(text, c.says, `expected the output to say ${c.says}${shown}`);
  if (c.exit !== 0 && !c.codes?.length && !c.says) assert.ok(run.stderr.trim().length > 0 || run.stdout.trim().length > 0, 'a refusal must say why');
  return { cpuMs: run.cpuMs, wallMs: run.wallMs, codes: [...new Set(codes)] };
}

async function checkLibrary(c: LibraryCase, folders: CaseFolders): Promise<CaseResult> {
  const { value: findings, cpuMs, wallMs } = await measure(() => c.run(folders));
  assert.ok(cpuMs < CPU_BOUND_MS, `took ${Math.round(cpuMs)} ms of CPU (bound ${CPU_BOUND_MS} ms)`);
  assert.ok(wallMs < WALL_BOUND_MS, `took ${Math.round(wallMs)} ms (bound ${WALL_BOUND_MS} ms)`);
  const codes = findings.map((f) => f.code);
  const shown = findings.map((f) => `${f.code} ${f.file ?? ''}:${f.line ?? ''} ${f.message}`).join('\n');
  if (c.codes.length === 0) assert.deepEqual(findings.filter((f) => f.severity === 'error'), [], `expected no error\n${shown}`);
  for (const code of c.codes) assert.ok(codes.includes(code), `expected finding ${code}; got:\n${shown || 'none'}`);
  checkPlaced(findings.filter((f) => c.codes.includes(f.code)), c.unplaced ? 'none' : 'line');
  return { cpuMs, wallMs, codes: [...new Set(codes)] };
}

/** A finding about a file names the file, a line and a column, and says something in words. */
function checkPlaced(findings: Finding[], where: 'line' | 'file' | 'none'): void {
  for (const f of findings) {
    assert.ok(f.message && f.message.length >= 10, `finding ${f.code} needs a message in words`);
    if (where === 'none') continue;
    assert.ok(typeof f.file === 'string' && f.file.length > 0, `finding ${f.code} must name its file: ${JSON.stringify(f)}`);
    if (where === 'file') continue;
    assert.ok(typeof f.line === 'number' && f.line >= 1 && typeof f.column === 'number' && f.column >= 1, `finding ${f.code} must have a line and column: ${JSON.stringify(f)}`);
  }
}
