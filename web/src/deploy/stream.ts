/**
 * The live stream of a deployment (`GET /deployments/{id}/events`, Server-Sent Events), read with
 * fetch rather than EventSource: EventSource cannot send the Authorization header, and a server
 * run with `--protect-reads` needs it (tokens in query strings are refused).
 */
import { token } from '../api.js';
import type { Deployment, TaskRun } from './model.js';
import { parseEvents } from './events.js';

export interface OutputChunk {
  node: string;
  task_id: string;
  chunk: string;
  /** Where the chunk starts in the task's output (characters printed before it); servers before issue 25 send none. */
  offset?: number;
}

export interface StreamHandlers {
  task: (t: TaskRun) => void;
  output: (c: OutputChunk) => void;
  deployment: (d: Deployment) => void;
  end: (d: Deployment) => void;
}

/**
 * Follows the deployment until its `end` event, the stream closing, or `signal` aborting.
 * Resolves true when the end was seen; false when the stream stopped early (the caller falls
 * back to asking again).
 */
export async function followDeployment(id: number, on: StreamHandlers, signal: AbortSignal): Promise<boolean> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  const t = token();
  if (t) headers.authorization = `Bearer ${t}`;
  const response = await fetch(`/api/v1/deployments/${encodeURIComponent(String(id))}/events`, { headers, signal });
  if (!response.ok || !response.body) return false;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer = parseEvents(buffer + value, (event, data) => {
        const body = JSON.parse(data) as never;
        if (event === 'task') on.task(body);
        else if (event === 'output') on.output(body);
        else if (event === 'deployment') on.deployment(body);
        else if (event === 'end') {
          ended = true;
          on.end(body);
        }
      });
    }
  } finally {
    // Closes the connection when the loop ends early (an abort, a handler's error).
    await reader.cancel().catch(() => undefined);
  }
  return ended;
}
