/**
 * The machinery every hostile case shares: a fresh folder per case with the input, an empty
 * working folder, a private TMPDIR and a sentinel folder "outside"; the real `bin/hearth` run with
 * its CPU time measured; and the checks that nothing outside the case changed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../src/core/findings.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const hearthBin = join(repoRoot, 'bin', 'hearth');
export const defaultRelease = join(repoRoot, 'release');

/** The safety bound of every case (CPU seconds of the work, whatever else the machine is doing). */
export const CPU_BOUND_MS = 2000;
/** A case still running after this much wall time is a hang, whatever the load. */
export const WALL_BOUND_MS = 30_000;

/** CPU time (user + system, ms) a process has used so far, from /proc (10 ms ticks). */
export function processCpuMs(pid: number): number {
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Ask the others every 100 ms while `going()` holds: how long each asking waited (ms). */
export async function waitsWhile(askOthers: () => Promise<void>, going: () => boolean): Promise<number[]> {
  const waits: number[] = [];
  while (going()) {
    const asked = performance.now();
    await askOthers();
    waits.push(performance.now() - asked);
    await new Promise((r) => setTimeout(r, 100));
  }
  return waits;
}

/**
 * How long ordinary requests may wait while hostile work runs: a second, as issue 24 asks, or on a
 * machine too busy for that (CI's two shared cores under load), three times the slowest wait of
 * the same requests asked for `calmMs` with nothing hostile running. The failure this guards
 * against is not subtle: a server whose main thread the hostile work holds keeps every other
 * request waiting for all of it (78 s, before issue 24).
 */
export async function allowedWait(askOthers: () => Promise<void>, calmMs = 2000): Promise<{ bound: number; calm: number; describe: (slowest: number) => string }> {
  const started = performance.now();
  const calm = Math.max(0, ...(await waitsWhile(askOthers, () => performance.now() - started < calmMs)));
  const bound = Math.max(1000, 3 * calm);
  return { bound, calm, describe: (slowest) => `other requests waited up to ${Math.round(slowest)} ms (allowed ${Math.round(bound)}: with nothing hostile running they waited up to ${Math.round(calm)})` };
}

export interface CaseFolders {
  /** The case's own input: plugin folders, packages, files. */
  in: string;
  /** An empty working folder for the CLI: it must stay empty. */
  cwd: string;
  /** A sentinel folder beside the input, target of traversal attempts: it must not change. */
  outside: string;
  /** TMPDIR of the CLI: whatever it unpacks there must be gone when it exits. */
  tmp: string;
  root: string;
}

export function caseFolders(): CaseFolders {
  const root = mkdtempSync(join(tmpdir(), 'hearth-hostile-'));
  const folders = { root, in: join(root, 'in'), cwd: join(root, 'cwd'), outside: join(root, 'outside'), tmp: join(root, 'tmp') };
  for (const dir of [folders.in, folders.cwd, folders.outside, folders.tmp]) mkdirSync(dir);
  writeFileSync(join(folders.outside, 'secret.yaml'), 'secret: do-not-read\n');
  return folders;
}

export function removeFolders(folders: CaseFolders): void {
  rmSync(folders.root, { recursive: true, force: true });
}

/** Path → content hash (or link target, or kind) for every entry under `dir`, links not followed. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (path: string) => {
    let entries: string[];
    try {
      entries = readdirSync(path).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      const full = join(path, name);
      const rel = relative(dir, full);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out.set(rel, `link:${readlinkSync(full)}`);
      else if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(full);
      } else if (st.isFile()) out.set(rel, `file:${createHash('sha256').update(readFileSync(full)).digest('hex')}:${st.mode.toString(8)}`);
      else out.set(rel, `special:${st.mode.toString(8)}`);
    }
  };
  walk(dir);
  return out;
}

export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of after) if (before.get(k) !== v) out.push(before.has(k) ? `changed ${k}` : `added ${k}`);
  for (const k of before.keys()) if (!after.has(k)) out.push(`removed ${k}`);
  return out;
}

export interface CliRun {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  cpuMs: number;
  wallMs: number;
}

/**
 * Node 22.1+'s compile cache of bin/hearth (module.enableCompileCache), kept in the project's cache
 * rather than the case's TMPDIR: it is Node's, meant to outlive a run, and the case's TMPDIR must
 * be left empty (issue 31).
 */
const compileCache = process.env.NODE_COMPILE_CACHE || join(repoRoot, 'node_modules/.cache/hearth-test/node-compile-cache');

/**
 * Run `bin/hearth` under bash so that `times` reports the child's CPU time: wall time on a shared
 * two-core machine says more about the neighbours than about Hearth.
 */
export function runHearth(args: readonly string[], folders: CaseFolders, input?: string): CliRun {
  const timesFile = join(folders.root, 'times.txt');
  const started = performance.now();
  const r = spawnSync('bash', ['-c', '"$@"; rc=$?; times > "$HEARTH_TIMES_FILE"; exit $rc', 'hearth-case', process.execPath, hearthBin, ...args], {
    cwd: folders.cwd,
    env: { ...process.env, TMPDIR: folders.tmp, NODE_COMPILE_CACHE: compileCache, HOME: folders.cwd, HEARTH_TIMES_FILE: timesFile, NO_COLOR: '1', DATABASE_URL: '' },
    input: input ?? '',
    encoding: 'utf8',
    timeout: WALL_BOUND_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = performance.now() - started;
  let cpuMs = Number.POSITIVE_INFINITY;
  try {
    // `times` prints the shell's line, then its children's: "0m0.412s 0m0.051s".
    const lines = readFileSync(timesFile, 'utf8').trim().split('\n');
    const seconds = [...lines[lines.length - 1].matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
    cpuMs = (seconds[0] + seconds[1]) * 1000;
    rmSync(timesFile);
  } catch {
    // killed before `times` ran: the bound check reports it
  }
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', cpuMs, wallMs };
}

/** A JavaScript stack trace leaking to the user: "    at fn (file.js:1:2)". */
export const STACK_TRACE = /^\s+at .+(:\d+:\d+\)?|\(native\)|<anonymous>)$/m;

/** The findings a `--json` command printed, wherever its shape keeps them. */
export function findingsOfJson(stdout: string): Finding[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return undefined;
  }
  const out: Finding[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.code === 'string' && typeof o.severity === 'string' && typeof o.message === 'string') out.push(o as unknown as Finding);
    else for (const x of Object.values(o)) visit(x, depth + 1);
  };
  visit(parsed, 0);
  return out;
}

/** CPU time of a synchronous or asynchronous library call, with its wall time. */
export async function measure<T>(fn: () => T | Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const cpu = process.cpuUsage(cpu0);
  return { value, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - t0 };
}
