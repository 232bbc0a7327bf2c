/**
 * One job in a worker thread, for work whose cost grows with what a user sent (a plugin's files,
 * an environment's graph): the request thread goes on answering everyone else, the worker's heap is
 * capped, and a job that runs too long is given up. The worker script posts `{ result }` or, when
 * it throws, `{ crash }` (its stack).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../../package/root.js';

/**
 * A worker script by its base name: beside this module in dist/ (or its .ts under tsx, whose
 * loader the worker inherits); from the bundle (one file in dist/bundle/), the compiled one in
 * dist/server/domain/. Undefined in a partial install: the caller then does the work itself.
 */
export function workerScript(name: string): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, `${name}.js`), join(here, `${name}.ts`), join(packageRoot(), 'dist', 'server', 'domain', `${name}.js`)];
  return candidates.find((c) => existsSync(c));
}

export interface WorkerJob {
  /** The job's input, cloned into the worker. */
  data: unknown;
  heapMb: number;
  timeoutMs: number;
  /** The error when the job runs past `timeoutMs`. */
  tooSlow: () => Error;
  /** The error when the worker runs out of its heap (default: the worker's own error). */
  tooLarge?: () => Error;
  /** How failures are told: "<what> failed: …", "<who> stopped (exit n) before answering". */
  what: string;
  who: string;
}

export function runInWorker<T>(script: string, job: WorkerJob): Promise<T> {
  return new Promise((resolve, reject) => {
    const options = { workerData: job.data, resourceLimits: { maxOldGenerationSizeMb: job.heapMb } };
    // Under tsx (tests, development) the worker registers tsx's loader first to read TypeScript.
    const worker = script.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(script).href)}); });`, { ...options, eval: true })
      : new Worker(script, options);
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      f();
    };
    const timer = setTimeout(() => settle(() => reject(job.tooSlow())), job.timeoutMs);
    worker.once('message', (m: { result?: T; crash?: string }) => settle(() => (m.crash === undefined ? resolve(m.result as T) : reject(new Error(`${job.what} failed: ${m.crash}`)))));
    worker.once('error', (err: Error & { code?: string }) => settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' && job.tooLarge ? job.tooLarge() : err)));
    worker.once('exit', (code) => settle(() => reject(new Error(`${job.who} stopped (exit ${code}) before answering`))));
  });
}
