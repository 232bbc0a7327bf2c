/**
 * Warm workers for small jobs that arrive often (the template routes): starting a worker and
 * loading its modules costs 0.2 s from dist/ and seconds under tsx, more than most answers take,
 * so up to `size` workers are kept and reused. Each job has the same limits as worker-run.ts's
 * one-shot workers: a capped heap, and a time limit past which its worker is stopped (and replaced
 * when next needed). Jobs beyond `size` wait in a bounded queue; past it they are refused.
 *
 * The worker script answers `{ id, data }` messages with `{ id, result }` or `{ id, crash }`.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface PoolOptions {
  script: string;
  /** At most this many workers run at once. */
  size: number;
  heapMb: number;
  /** At most this many jobs wait for a worker; `busy()` is the error past it. */
  queue: number;
  busy: () => Error;
  what: string;
  who: string;
}

export interface PoolJob {
  data: unknown;
  timeoutMs: number;
  tooSlow: () => Error;
  tooLarge?: () => Error;
}

interface Waiting {
  job: PoolJob;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export class WorkerPool {
  private readonly idle: Worker[] = [];
  private running = 0;
  private readonly waiting: Waiting[] = [];
  private nextId = 1;

  constructor(private readonly options: PoolOptions) {}

  run<T>(job: PoolJob): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting: Waiting = { job, resolve: resolve as (value: unknown) => void, reject };
      if (this.running < this.options.size) this.start(waiting);
      else if (this.waiting.length < this.options.queue) this.waiting.push(waiting);
      else reject(this.options.busy());
    });
  }

  /** Stop every idle worker (running jobs finish or time out; their workers then go too). */
  close(): void {
    for (const worker of this.idle.splice(0)) void worker.terminate();
  }

  private spawn(): Worker {
    const { script, heapMb } = this.options;
    const options = { resourceLimits: { maxOldGenerationSizeMb: heapMb } };
    // Under tsx (tests, development) the worker registers tsx's loader first to read TypeScript.
    const worker = script.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(script).href)}); });`, { ...options, eval: true })
      : new Worker(script, options);
    // An idle worker does not keep the process alive; one that fails while idle is dropped.
    worker.unref();
    worker.on('error', () => {});
    worker.on('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return worker;
  }

  private start(waiting: Waiting): void {
    this.running++;
    const worker = this.idle.pop() ?? this.spawn();
    const id = this.nextId++;
    let settled = false;
    const finish = (keep: boolean, f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keep) this.idle.push(worker);
      else void worker.terminate();
      this.running--;
      const next = this.waiting.shift();
      if (next) this.start(next);
      f();
    };
    const { job } = waiting;
    const onMessage = (m: { id: number; result?: unknown; crash?: string }) => {
      if (m.id !== id) return;
      if (m.crash === undefined) finish(true, () => waiting.resolve(m.result));
      else finish(true, () => waiting.reject(new Error(`${this.options.what} failed: ${m.crash}`)));
    };
    const onError = (err: Error & { code?: string }) => finish(false, () => waiting.reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' && job.tooLarge ? job.tooLarge() : err));
    const onExit = (code: number) => finish(false, () => waiting.reject(new Error(`${this.options.who} stopped (exit ${code}) before answering`)));
    const timer = setTimeout(() => finish(false, () => waiting.reject(job.tooSlow())), job.timeoutMs);
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({ id, data: job.data });
  }
}
