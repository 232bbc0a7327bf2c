/** The worker of plugin-reader.ts: reads one plugin folder and posts what it found. */
import { parentPort, workerData } from 'node:worker_threads';
import { readPluginFolderData } from './plugin-folder.js';

try {
  parentPort!.postMessage({ data: readPluginFolderData((workerData as { dir: string }).dir) });
} catch (err) {
  parentPort!.postMessage({ crash: (err as Error)?.stack ?? String(err) });
}
