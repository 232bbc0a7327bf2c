/**
 * Reading and validating a plugin folder off the request thread. Validation is synchronous and
 * its cost grows with what an uploader sends (a 3 MB package once held a 15 MB settings file of
 * 1.27 million keys: a minute of one core); in a worker it no longer stops the server answering
 * everyone else, and the worker's heap is capped, so one upload cannot grow the server without bound.
 */
import { runInWorker, workerScript } from './worker-run.js';
import { HttpError } from '../errors.js';
import type { Release } from '../../core/release/model.js';
import { readPluginFolderData, type PluginFolderData } from './plugin-folder.js';

/** A read that takes longer than this is given up (the worker is stopped). */
export const PLUGIN_READ_TIMEOUT_MS = 120_000;
/** The worker's heap, in MiB. */
export const PLUGIN_READ_HEAP_MB = 768;

export function readPluginFolderDataOffThread(dir: string, installed: ReadonlyArray<{ id: string; release: Release }> = []): Promise<PluginFolderData> {
  const script = workerScript('plugin-reader-worker');
  // No worker script (a partial install): read here, as before, rather than not at all.
  if (!script) return Promise.resolve(readPluginFolderData(dir, installed));
  const tooMuch = "trim the plugin's files: no Fuel plugin needs that much data";
  return runInWorker<PluginFolderData>(script, {
    data: { dir, installed },
    heapMb: PLUGIN_READ_HEAP_MB,
    timeoutMs: PLUGIN_READ_TIMEOUT_MS,
    tooSlow: () => new HttpError(400, 'plugin/too-complex', `reading the plugin took more than ${PLUGIN_READ_TIMEOUT_MS / 1000} s; it was given up`, { hint: tooMuch }),
    tooLarge: () => new HttpError(400, 'plugin/too-large', `reading the plugin needed more than ${PLUGIN_READ_HEAP_MB} MiB; it was given up`, { hint: tooMuch }),
    what: 'reading the plugin',
    who: 'the plugin reader',
  });
}
