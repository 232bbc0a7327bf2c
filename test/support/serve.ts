/**
 * Start a real `hearth serve` (the built CLI) on a free loopback port with its own data folder,
 * and stop it afterwards. Used by end-to-end tests of the API, the CLI client and the web UI.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const hearthBin = fileURLToPath(new URL('../../bin/hearth', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** What a first start's data folder depends on: the built code and the bundled release's files. */
function templateKey(): string {
  const hash = createHash('sha256');
  const stamp = (path: string) => {
    try {
      const st = statSync(path);
      hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
      if (st.isDirectory()) for (const name of readdirSync(path).sort()) stamp(join(path, name));
    } catch {
      hash.update(`${path}\0missing\n`);
    }
  };
  for (const part of ['dist/bundle/hearth.cjs', 'dist/store/migrations.js', 'release']) stamp(join(repoRoot, part));
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | undefined;
const templateCache = join(repoRoot, 'node_modules/.cache/hearth-test');

/**
 * A data folder after a first start (database created, migrated, bundled release installed), made
 * once for the built code and copied for each server: a first start costs 8-12 s on a busy 2-core
 * machine, a copy and a restart a few. Made in a folder of its own and renamed into place, so test
 * processes running at once never see half of one.
 */
function templateDataDir(): Promise<string> {
  template ??= (async () => {
    const key = templateKey();
    // Shared by test processes (and runs) through its key, so no test may remove it: it lives in the
    // project's cache, not the temporary folder a run is expected to leave empty (issue 31).
    mkdirSync(templateCache, { recursive: true });
    const ready = join(templateCache, `template-${key}`);
    if (existsSync(ready)) return ready;
    // Templates of older builds, and folders of builds that died half-way, are of no more use once
    // nobody could still be copying or making them.
    for (const name of readdirSync(templateCache)) {
      const path = join(templateCache, name);
      try {
        if (name !== `template-${key}` && Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
      } catch {
        // another test process removed it first
      }
    }
    const building = mkdtempSync(`${ready}.building-`);
    try {
      const server = await spawnServer(building, { HEARTH_ADMIN_TOKEN: 'template-token-0123456789' }, []);
      await server.stop();
      renameSync(building, ready);
    } catch (err) {
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(ready)) throw err; // else another test process made it first
    }
    return ready;
  })();
  return template;
}

export interface RunningServer {
  url: string;
  token: string;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * The built CLI against a server, as a user's shell runs it (HEARTH_SERVER, HEARTH_TOKEN): its exit
 * status and output. `server` is read at each call (tests start theirs in `before`).
 */
export function cliOf(server: () => RunningServer): (...args: string[]) => { code: number | null; out: string; err: string } {
  return (...args) => {
    const r = spawnSync(process.execPath, [hearthBin, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HEARTH_SERVER: server().url, HEARTH_TOKEN: server().token } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
}

/** The server's API with its admin token: the parsed answer, or an error naming the request and the answer. */
export function apiOf(server: () => RunningServer): <T>(method: string, path: string, body?: unknown) => Promise<T> {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const { url, token } = server();
    const res = await fetch(`${url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/**
 * A server with its own data folder: a copy of the first-start template unless the test gives a
 * folder, or asks for a first start of its own (`firstStart`, or `--no-bundled-release`).
 */
export async function startServer(options: { env?: Record<string, string>; dataDir?: string; args?: string[]; firstStart?: boolean } = {}): Promise<RunningServer> {
  const token = options.env?.HEARTH_ADMIN_TOKEN ?? `e2e-${Math.random().toString(36).slice(2)}${Date.now()}`;
  const args = options.args ?? [];
  let dataDir = options.dataDir;
  let server: RunningServer;
  try {
    if (!dataDir) {
      dataDir = mkdtempSync(join(tmpdir(), 'hearth-e2e-'));
      if (!options.firstStart && !args.includes('--no-bundled-release')) cpSync(await templateDataDir(), dataDir, { recursive: true });
    }
    server = await spawnServer(dataDir, { ...options.env, HEARTH_ADMIN_TOKEN: token }, args);
  } catch (err) {
    // A failed start leaves no folder behind either (issue 31).
    if (!options.dataDir && dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    ...server,
    stop: async () => {
      await server.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function spawnServer(dataDir: string, env: Record<string, string>, args: string[]): Promise<RunningServer> {
  const token = env.HEARTH_ADMIN_TOKEN;
  const child = spawn(process.execPath, [hearthBin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, ...args], {
    env: { ...process.env, DATABASE_URL: '', ...env },
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
    // The address is printed as the server starts listening, the rest of its banner once its
    // start-up work is done: a test gets a server that is ready.
    const look = () => {
      const m = /(http:\/\/\d+\.\d+\.\d+\.\d+:\d+)/.exec(out);
      if (m && out.includes('Press Ctrl-C')) {
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
    },
  };
}
