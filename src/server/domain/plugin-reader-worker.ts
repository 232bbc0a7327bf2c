/** The worker of plugin-reader.ts: reads one plugin folder and posts what it found. */
import { parentPort, workerData } from 'node:worker_threads';
import { readPluginFolderData } from './plugin-folder.js';

try {
  const { dir, installed } = workerData as { dir: string; installed?: Parameters<typeof readPluginFolderData>[1] };
  parentPort!.postMessage({ result: readPluginFolderData(dir, installed) });
} catch (err) {
  parentPort!.postMessage({ crash: (err as Error)?.stack ?? String(err) });
}
