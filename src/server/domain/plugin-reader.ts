/**
 * Reading and validating a plugin folder off the request thread. Validation is synchronous and
 * its cost grows with what an uploader sends (a 3 MB package once held a 15 MB settings file of
 * 1.27 million keys: a minute of one core); in a worker it no longer stops the server answering
 * everyone else, and the worker's heap is capped, so one upload cannot grow the server without bound.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { packageRoot } from '../../package/root.js';
import { HttpError } from '../errors.js';
import type { Release } from '../../core/release/model.js';
import { readPluginFolderData, type PluginFolderData } from './plugin-folder.js';

/**
 * The worker's script: beside this module in dist/ (or its .ts under tsx, whose loader the worker
 * inherits); from the bundle (one file in dist/bundle/), the compiled one in dist/server/domain/.
 */
function workerScript(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'plugin-reader-worker.js'), join(here, 'plugin-reader-worker.ts'), join(packageRoot(), 'dist', 'server', 'domain', 'plugin-reader-worker.js')];
  return candidates.find((c) => existsSync(c));
}

/** A read that takes longer than this is given up (the worker is stopped). */
export const PLUGIN_READ_TIMEOUT_MS = 120_000;
/** The worker's heap, in MiB. */
export const PLUGIN_READ_HEAP_MB = 768;

export function readPluginFolderDataOffThread(dir: string, installed: ReadonlyArray<{ id: string; release: Release }> = []): Promise<PluginFolderData> {
  const script = workerScript();
  // No worker script (a partial install): read here, as before, rather than not at all.
  if (!script) return Promise.resolve(readPluginFolderData(dir, installed));
  return new Promise((resolve, reject) => {
    // Under tsx (tests, development) the worker registers tsx's loader first to read TypeScript.
    const options = { workerData: { dir, installed }, resourceLimits: { maxOldGenerationSizeMb: PLUGIN_READ_HEAP_MB } };
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
    const timer = setTimeout(
      () => settle(() => reject(new HttpError(400, 'plugin/too-complex', `reading the plugin took more than ${PLUGIN_READ_TIMEOUT_MS / 1000} s; it was given up`, { hint: 'trim the plugin\'s files: no Fuel plugin needs that much data' }))),
      PLUGIN_READ_TIMEOUT_MS,
    );
    worker.once('message', (m: { data?: PluginFolderData; crash?: string }) => settle(() => (m.data ? resolve(m.data) : reject(new Error(`reading the plugin failed: ${m.crash}`)))));
    worker.once('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new HttpError(400, 'plugin/too-large', `reading the plugin needed more than ${PLUGIN_READ_HEAP_MB} MiB; it was given up`, { hint: "trim the plugin's files: no Fuel plugin needs that much data" })
            : err,
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`the plugin reader stopped (exit ${code}) before answering`))));
  });
}
