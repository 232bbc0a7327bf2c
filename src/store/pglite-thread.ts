/**
 * PGlite in a worker thread (pglite-worker.ts), for a server: the thread that answers requests
 * never waits while PostgreSQL starts, creates a data folder or runs a query, so `/healthz`
 * answers at once and requests are parsed while queries run. Queries and transactions cross as
 * messages; errors keep PostgreSQL's fields (code, constraint, detail), which conflicts.ts and
 * the disk-full answer read.
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { conflictsAsErrors } from './conflicts.js';
import { type Database, type Presence, type Queryable, StoreError, soleProcessPresence } from './database.js';
import { securePrivateTree } from './private-files.js';
import { setV8Flags } from './v8-flags.js';

export type ThreadRequest =
  | { id: number; op: 'query'; sql: string; params: readonly unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'settle' }
  | { id: number; op: 'close' };

/** A reply to request `id`; `-id` ends the transaction `begin` `id` opened. */
export interface ThreadReply {
  id: number;
  ok?: true;
  rows?: unknown[];
  error?: Record<string, unknown>;
}

type Request = ThreadRequest extends infer R ? (R extends ThreadRequest ? Omit<R, 'id'> : never) : never;

/**
 * How much of a WebAssembly function must run before V8 compiles it again with its optimising
 * compiler (V8's default: 13,000,000). PostgreSQL's start-up runs enough code to send hundreds of
 * functions up at the default, and those compilations leave about 55 MB of the process's malloc
 * memory behind: an idle server held 230 MB instead of 175 (issue 30, bench/start.bench.ts). At 30x
 * the default, start-up tiered almost nothing up, but a first start's install of the bundled release
 * still sent PGlite's largest hot function up (42 MB of compiler memory, kept by glibc): an idle
 * server after its first start held 175-189 MB, 153-155 at 90x. A steady load (bench/deploy.bench.ts,
 * bench/load.bench.ts) still gets its hot functions optimised and runs as fast (five runs of each
 * budget alternating: 1,000 x 200 bookkeeping 3.06-3.41 s against 2.98-3.44; load 196 against 198
 * requests a second). The flag is a 32-bit integer: past 2^31 it wraps, and everything tiers up.
 * V8's flags are the process's: set here, before the thread that compiles PGlite's module starts.
 */
const WASM_TIERING_BUDGET = 1_200_000_000;

/**
 * The worker script: beside this module (dist/store, or src/store under tsx), or, from the bundle
 * (dist/bundle/), tsc's copy in dist/store. Undefined in a partial install: PGlite then runs on the
 * caller's thread, as it always did for tests.
 */
export function pgliteWorkerScript(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, 'pglite-worker.js'), join(here, 'pglite-worker.ts'), join(here, '..', 'store', 'pglite-worker.js')].find((c) => existsSync(c));
}

function revive(fields: Record<string, unknown>): Error {
  const err = new Error(String(fields.message ?? 'the embedded database failed'));
  Object.assign(err, fields);
  return err;
}

export class PgliteThread {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (reply: ThreadReply) => void; reject: (err: Error) => void }>();
  private stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: ThreadReply) => {
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (reply.error) waiting.reject(revive(reply.error));
      else waiting.resolve(reply);
    });
    const stop = (err: Error) => {
      this.stopped ??= err;
      for (const waiting of this.pending.values()) waiting.reject(this.stopped);
      this.pending.clear();
    };
    worker.on('error', (err) => stop(new Error(`the embedded database stopped: ${err.message}`)));
    worker.on('exit', (code) => stop(new Error(`the embedded database stopped (its thread exited with ${code})`)));
  }

  /** Starts PGlite on `path` in a new thread; rejects with PGlite's own error when it cannot. */
  static async start(script: string, path: string): Promise<PgliteThread> {
    // The empty database made at build time, from src/store, dist/store or dist/bundle alike.
    const template = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'pgdata-template');
    const options = { workerData: { path, template } };
    setV8Flags(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
    // Under tsx (tests, development) the worker registers tsx's loader first to read TypeScript.
    const worker = script.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(script).href)}); });`, { ...options, eval: true })
      : new Worker(script, options);
    const thread = new PgliteThread(worker);
    try {
      await thread.wait(0);
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    return thread;
  }

  private wait(id: number): Promise<ThreadReply> {
    if (this.stopped) return Promise.reject(this.stopped);
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  private send(request: Request): Promise<ThreadReply> {
    const id = this.next++;
    const answer = this.wait(id);
    if (!this.stopped) this.worker.postMessage({ ...request, id });
    return answer;
  }

  async query<T>(sql: string, params: readonly unknown[] = [], tx?: number): Promise<T[]> {
    return (await this.send({ op: 'query', sql, params, ...(tx === undefined ? {} : { tx }) })).rows as T[];
  }

  async exec(sql: string, tx?: number): Promise<void> {
    await this.send({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) });
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const id = this.next;
    await this.send({ op: 'begin' });
    const ended = this.wait(-id);
    const end = async (commit: boolean) => {
      this.worker.postMessage({ id: this.next++, op: 'end', tx: id, commit } satisfies ThreadRequest);
      await ended;
    };
    let result: T;
    try {
      result = await work({ query: (sql, params) => this.query(sql, params, id), exec: (sql) => this.exec(sql, id) });
    } catch (err) {
      await end(false).catch(() => undefined);
      throw err;
    }
    await end(true);
    return result;
  }

  /** Has the thread collect its garbage once (v8-flags.ts: collectAllGarbage). */
  async settle(): Promise<void> {
    await this.send({ op: 'settle' });
  }

  async close(): Promise<void> {
    if (!this.stopped) await this.send({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}

/** The Database over a PGlite thread: one process per data folder, as pglite.ts. */
class ThreadedPglite implements Database {
  readonly engine = 'pglite' as const;
  private closed = false;
  private me: Presence | undefined;
  constructor(
    private readonly thread: PgliteThread,
    readonly location: string,
    private readonly lockPath: string | undefined,
  ) {}

  query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return conflictsAsErrors(() => this.thread.query<T>(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.thread.exec(sql);
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return conflictsAsErrors(() => this.thread.transaction(work));
  }

  /** One process per data folder: any other owner is a server that is gone. */
  async presence(): Promise<Presence> {
    this.me ??= soleProcessPresence();
    return this.me;
  }

  settle(): Promise<void> {
    return this.closed ? Promise.resolve() : this.thread.settle();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.thread.close();
    // What PGlite wrote is private already (keepNewFilesPrivate in its thread); this checks it.
    if (this.lockPath) {
      try {
        securePrivateTree(this.location);
      } catch {
        // found again, and refused or repaired, at the next start
      }
      rmSync(this.lockPath, { force: true });
    }
  }
}

/** PGlite on `dataDir` (already locked, `lockPath`) in its own thread. */
export async function openPgliteThread(script: string, dataDir: string, lockPath: string | undefined): Promise<Database> {
  try {
    return new ThreadedPglite(await PgliteThread.start(script, join(dataDir, 'pgdata')), dataDir, lockPath);
  } catch (err) {
    if (lockPath) rmSync(lockPath, { force: true });
    throw new StoreError('store/open-failed', `cannot open the embedded database in ${dataDir}: ${(err as Error).message}`, 'Check the folder is writable and not damaged.');
  }
}
