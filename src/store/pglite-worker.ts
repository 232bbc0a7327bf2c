/**
 * The embedded database's own thread (pglite-thread.ts is the other end). PGlite runs PostgreSQL
 * compiled to WebAssembly, synchronously: starting it holds a thread for most of a second (many
 * seconds when it creates a data folder), and every query holds it while it runs. Here it holds
 * this thread instead of the one answering requests.
 */
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import type { ThreadReply, ThreadRequest } from './pglite-thread.js';
import { MIGRATIONS } from './migrations.js';
import { restoreDataFolder } from './pgdata-restore.js';
import { keepNewFilesPrivate } from './private-files.js';
import { schemaStamp, templateFits } from './template-stamp.js';
import { collectAllGarbage } from './v8-flags.js';

const port = parentPort!;
const { path, template } = workerData as { path: string; template?: string };

/**
 * A new data folder is restored from the database made at build time (scripts/pgdata-template.mjs:
 * Hearth's migrations applied, nothing else) when it was made by this PGlite version from this
 * Hearth's migrations (template-stamp.ts): PGlite's initdb takes
 * 8 to 14 s on a busy 2-core machine, the restore about 3 s. Otherwise PGlite creates it. The
 * archive's path, or undefined.
 */
function emptyDatabase(): string | undefined {
  if (!template || existsSync(join(path, 'PG_VERSION'))) return undefined;
  try {
    const made = JSON.parse(readFileSync(join(template, 'meta.json'), 'utf8')) as { pglite?: string; schema?: unknown };
    const installed = (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '..', 'package.json'), 'utf8')) as { version: string }).version;
    const archive = join(template, 'pgdata.tar.gz');
    return made.pglite === installed && templateFits(made.schema, schemaStamp(MIGRATIONS)) && existsSync(archive) ? archive : undefined;
  } catch {
    return undefined; // no template (a development tree before its build): PGlite makes the folder
  }
}

/**
 * PostgreSQL's page cache. initdb writes 128MB, and PGlite touches all of it as it starts: it was
 * 120 MB of an idle server's 330 MB (issue 30), and 16MB still held 8 MB more than 8MB does. A
 * cache only: what is written reaches the data folder's files as before, and a page not cached is
 * read from them (the OS caches them too). bench/deploy.bench.ts (a run's tens of MB of rows) ran
 * as fast with 8MB; with 4MB its database thread spent about a sixth more CPU, for 4 MB less.
 * HEARTH_PGLITE_SHARED_BUFFERS (PostgreSQL's units, e.g. 128MB) sets another size.
 */
function sharedBuffers(): string[] {
  const size = process.env.HEARTH_PGLITE_SHARED_BUFFERS?.trim() || '8MB';
  if (!/^\d+(kB|MB|GB)$/.test(size)) throw new Error(`HEARTH_PGLITE_SHARED_BUFFERS is '${size}', not a size such as 16MB or 256MB (PostgreSQL's shared_buffers)`);
  return ['-c', `shared_buffers=${size}`];
}

/**
 * PGlite is one session (PostgreSQL's single-user mode), but PostgreSQL sizes its shared memory
 * (a slot per backend, the lock table: max_locks_per_transaction slots per backend) for initdb's
 * 100 connections, and touches it all as it starts: 4 MB of an idle server (issue 30). With four,
 * one transaction still locks 1,500 tables (tried), many times every table and index Hearth has.
 */
const ONE_SESSION = ['-c', 'max_connections=4'];

/** The WebAssembly global, as far as used here (this project's TypeScript libraries do not declare it). */
const wasm = (globalThis as unknown as { WebAssembly: { Memory: new (size: { initial: number }) => { buffer: ArrayBuffer }; compile(bytes: Uint8Array): Promise<PGliteOptions['pgliteWasmModule']> } }).WebAssembly;

/**
 * PGlite's WebAssembly module, compiled from bytes read into memory that malloc does not own.
 * PGlite reads pglite.wasm (9 MB) into a Buffer, which is malloc's, and frees it once compiled
 * (V8 keeps its own copy); freeing a block that large raises glibc's trim threshold to twice its
 * size for good (its dynamic mmap threshold), and the malloc arenas of this thread and V8's
 * compiler threads then kept about 17 MB they no longer used (issue 30). A WebAssembly.Memory's
 * pages are V8's own mapping, given back to the OS when collected.
 */
async function compilePglite(): Promise<PGliteOptions['pgliteWasmModule']> {
  const file = fileURLToPath(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite')));
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = new Uint8Array(new wasm.Memory({ initial: Math.ceil(size / 65536) }).buffer, 0, size);
    for (let at = 0; at < size; ) {
      const read = readSync(fd, bytes, at, size - at, at);
      if (read === 0) throw new Error(`${file} is shorter than its size`);
      at += read;
    }
    return await wasm.compile(bytes);
  } finally {
    closeSync(fd);
  }
}

/** An error as plain data: PostgreSQL's fields (code, constraint, detail…) survive the crossing. */
function plain(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const out: Record<string, unknown> = { name: err.name, message: err.message, stack: err.stack };
  for (const [k, v] of Object.entries(err)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  return out;
}

const reply = (message: ThreadReply) => port.postMessage(message);

/** Open transactions: the callback PGlite runs each in waits until the other side commits or rolls back. */
const open = new Map<number, { tx: Transaction; finish: (commit: boolean) => void }>();

let pg: PGlite;
try {
  // The database's files hold the admin token and the SSH private key: its folder is 0700 and
  // every file PGlite makes or chmods in it the owner's alone (private-files.ts says why).
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chmodSync(path, 0o700);
  keepNewFilesPrivate(path);
  const archive = emptyDatabase();
  // Written to disk as a stream (pgdata-restore.ts says why not PGlite's loadDataDir), then
  // opened as any existing data folder is.
  if (archive) await restoreDataFolder(archive, path);
  pg = await PGlite.create(path, { startParams: [...PGlite.defaultStartParams, ...sharedBuffers(), ...ONE_SESSION], pgliteWasmModule: await compilePglite() });
  reply({ id: 0, ok: true });
} catch (err) {
  reply({ id: 0, error: plain(err) });
  port.close();
  throw err;
}

port.on('message', (request: ThreadRequest) => {
  const { id } = request;
  const fail = (err: unknown) => reply({ id, error: plain(err) });
  switch (request.op) {
    case 'query': {
      const target = request.tx === undefined ? pg : open.get(request.tx)?.tx;
      if (!target) return fail(new Error('no such transaction'));
      target.query(request.sql, request.params as unknown[]).then((r) => reply({ id, rows: r.rows }), fail);
      return;
    }
    case 'exec': {
      const target = request.tx === undefined ? pg : open.get(request.tx)?.tx;
      if (!target) return fail(new Error('no such transaction'));
      target.exec(request.sql).then(() => reply({ id, ok: true }), fail);
      return;
    }
    case 'begin': {
      // Settles when the transaction has ended: committed (resolved) or rolled back (rejected).
      let began = false;
      const rolledBack = new Error('rolled back');
      pg.transaction(
        (tx) =>
          new Promise<void>((resolve, reject) => {
            began = true;
            open.set(id, { tx, finish: (commit) => (commit ? resolve() : reject(rolledBack)) });
            reply({ id, ok: true });
          }),
      ).then(
        () => reply({ id: -id, ok: true }),
        (err: unknown) => (began ? reply({ id: -id, ...(err === rolledBack ? { ok: true as const } : { error: plain(err) }) }) : fail(err)),
      );
      return;
    }
    case 'end': {
      // Answered when the transaction has ended (under the negated id of its 'begin', above).
      const entry = open.get(request.tx);
      if (!entry) return reply({ id: -request.tx, error: plain(new Error('no such transaction')) });
      open.delete(request.tx);
      entry.finish(request.commit);
      return;
    }
    case 'settle':
      // The young generation PGlite's start grew (8 MB, kept empty), and what else it left.
      collectAllGarbage();
      reply({ id, ok: true });
      return;
    case 'close':
      pg.close().then(() => reply({ id, ok: true }), fail);
      return;
  }
});
