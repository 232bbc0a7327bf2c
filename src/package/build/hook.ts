/**
 * The plugin's `pre_build_hook`: an executable the author ships to fetch or build what the package
 * needs (repositories, compiled modules). It runs in the plugin folder before validation, as in
 * Fuel's builder, so that what it produces is validated and packaged.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';

export const HOOK_FILE = 'pre_build_hook';

export interface HookResult {
  ran: boolean;
  /** The hook's exit status (0 when it did not run). */
  exitCode: number;
  findings: Finding[];
}

export type OutputSink = (chunk: Buffer, stream: 'stdout' | 'stderr') => void;

export async function runPreBuildHook(pluginDir: string, onOutput: OutputSink): Promise<HookResult> {
  const path = join(pluginDir, HOOK_FILE);
  let mode: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) return { ran: false, exitCode: 0, findings: [] };
    mode = info.mode;
  } catch {
    return { ran: false, exitCode: 0, findings: [] };
  }
  if ((mode & 0o111) === 0) {
    return {
      ran: false,
      exitCode: 0,
      findings: [finding('build/hook-not-executable', 'warning', `${HOOK_FILE} exists but is not executable, so it was not run`, { file: HOOK_FILE }, `Run \`chmod +x ${HOOK_FILE}\` if it should run before each build.`)],
    };
  }
  return new Promise((resolvePromise) => {
    const child = spawn(`./${HOOK_FILE}`, [], { cwd: pluginDir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => onOutput(chunk, 'stdout'));
    child.stderr.on('data', (chunk: Buffer) => onOutput(chunk, 'stderr'));
    child.on('error', (err) => {
      resolvePromise({
        ran: true,
        exitCode: 1,
        findings: [finding('build/hook-failed', 'error', `${HOOK_FILE} could not be started: ${err.message}`, { file: HOOK_FILE, line: 1, column: 1 }, 'Check its first line (e.g. `#!/bin/bash`) and that the interpreter exists.')],
      });
    });
    child.on('close', (code, signal) => {
      const exitCode = code ?? 128;
      if (exitCode === 0) return resolvePromise({ ran: true, exitCode: 0, findings: [] });
      const how = signal ? `was stopped by ${signal}` : `exited with status ${exitCode}`;
      resolvePromise({
        ran: true,
        exitCode,
        findings: [finding('build/hook-failed', 'error', `${HOOK_FILE} ${how}; the build stopped`, { file: HOOK_FILE }, 'Its output is shown above; fix the hook or what it needs, then build again.')],
      });
    });
  });
}
