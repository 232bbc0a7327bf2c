/**
 * Start a real `hearth serve` (the built CLI) on a free loopback port with its own data folder,
 * and stop it afterwards. Used by end-to-end tests of the API, the CLI client and the web UI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const hearthBin = fileURLToPath(new URL('../../bin/hearth', import.meta.url));

export interface RunningServer {
  url: string;
  token: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startServer(options: { env?: Record<string, string>; dataDir?: string; args?: string[] } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
  const token = options.env?.HEARTH_ADMIN_TOKEN ?? `e2e-${Math.random().toString(36).slice(2)}${Date.now()}`;
  const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...(options.args ?? [])], {
    env: { ...process.env, DATABASE_URL: '', ...options.env, HEARTH_ADMIN_TOKEN: token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    // A server that does not start in time is killed, so a slow start never leaves a process behind.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hearth serve did not start in time:\n${out}`));
    }, 60_000);
    const look = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', look);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`hearth serve exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    token,
    dataDir,
    process: child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
