/**
 * The worker of graph-build.ts: builds one environment's graph with core and posts it back as the
 * text of the answer (JSON, DOT or Mermaid), so the request thread only sends it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Finding } from '../../core/findings.js';
import { graphAnswerText, type GraphFormat } from './graph-build.js';

try {
  const { input, format, findings } = workerData as { input: Parameters<typeof graphAnswerText>[0]; format: GraphFormat; findings: Finding[] };
  parentPort!.postMessage({ result: graphAnswerText(input, format, findings) });
} catch (err) {
  parentPort!.postMessage({ crash: (err as Error)?.stack ?? String(err) });
}
