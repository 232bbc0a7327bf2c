/** Start and stop `serve-child.ts` processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface ChildServer {
  url: string;
  token: string;
  process: ChildProcess;
  stderr: () => string;
}

export function startChild(env: Record<string, string>, timeoutMs = 120_000): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'serve-child.ts')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const { url, token } = JSON.parse(line);
      resolve({ url, token, process: child, stderr: () => err });
    });
  });
}

export function killed(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
