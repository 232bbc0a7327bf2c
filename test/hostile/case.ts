/**
 * The shape of a hostile case: an input built in a fresh folder, how it is fed to Hearth (the real
 * CLI or a public function), and what must come out. The runner adds the checks every case shares
 * (bounded CPU time, no crash, nothing written outside the case, the input left as it was).
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Finding } from '../../src/core/findings.js';
import { createPlugin } from '../../src/package/create/index.js';
import type { CaseFolders } from './harness.js';

export type Face =
  | 'plugin folder'
  | 'package'
  | 'release plugin'
  | 'release fixture'
  | 'task file'
  | 'graph'
  | 'template'
  | 'environment'
  | 'expression'
  | 'components'
  | 'roles'
  | 'YAML'
  | 'CLI arguments'
  | 'API';

interface CaseBase {
  /** What the input is, in a few words: the catalog's first column. */
  name: string;
  face: Face;
  /** Build the input under `folders.in` (and, for traversal cases, point at `folders.outside`). */
  setup?: (folders: CaseFolders) => void | Promise<void>;
}

export interface CliCase extends CaseBase {
  kind: 'cli';
  args: (folders: CaseFolders) => string[];
  /** 1: the input is wrong (findings); 2: bad usage; 0 only for shapes Hearth must tolerate. */
  exit: 0 | 1 | 2;
  /** Finding codes that must appear (in the JSON findings, or in the text output). */
  codes?: string[];
  /** Text that must appear in stdout or stderr (for usage errors, which carry no code). */
  says?: RegExp;
  /** Paths under `in/` the command may create (e.g. nothing, for a build that must be refused). */
  mayWrite?: RegExp;
  /** How precisely the expected findings are placed: a line and column (default), a file, or nothing (about an argument). */
  where?: 'line' | 'file' | 'none';
}

export interface LibraryCase extends CaseBase {
  kind: 'library';
  run: (folders: CaseFolders) => Finding[] | Promise<Finding[]>;
  /** Finding codes that must appear; an empty list means "accepted without an error". */
  codes: string[];
  /** Findings of these codes may lack a file position (their subject is not a file). */
  unplaced?: boolean;
}

export type HostileCase = CliCase | LibraryCase;

export function expectedOutcome(c: HostileCase): string {
  const codes = c.codes?.length ? c.codes.map((x) => `\`${x}\``).join(', ') : '';
  if (c.kind === 'library') return codes || 'accepted, no error';
  const status = c.exit === 0 ? 'exit 0 (tolerated)' : `exit ${c.exit}`;
  return [status, codes, c.says && !codes ? `says ${c.says.source.replace(/\|/g, '/')}` : ''].filter(Boolean).join(', ');
}

/** Write files under `dir`; a Buffer is written as is, a string as UTF-8. */
export function writeTree(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** A fresh plugin skeleton (it validates cleanly) at `in/<name>`, with `files` written over it. */
export function plugin(folders: CaseFolders, files: Record<string, string | Buffer> = {}, name = 'demo', releasePlugin = false): string {
  const created = createPlugin(name, { parentDir: folders.in, ...(releasePlugin ? { releasePlugin } : {}) });
  if (!created.ok || !created.dir) throw new Error(`could not create the base plugin: ${JSON.stringify(created.findings)}`);
  writeTree(created.dir, files);
  return created.dir;
}

/** Add keys to the first release record of a skeleton's metadata.yaml (its records end the list). */
export function addToFirstRelease(dir: string, lines: string[]): void {
  const path = join(dir, 'metadata.yaml');
  const text = readFileSync(path, 'utf8');
  const marker = '    repository_path: repositories/ubuntu\n';
  const at = text.indexOf(marker);
  if (at < 0) throw new Error('skeleton metadata.yaml changed shape');
  writeFileSync(path, text.slice(0, at + marker.length) + lines.map((l) => `    ${l}\n`).join('') + text.slice(at + marker.length));
}

export function append(path: string, text: string): void {
  appendFileSync(path, text);
}
