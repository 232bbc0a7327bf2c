/**
 * An environment page follows the environment's live stream (`GET /clusters/{id}/events`): its
 * status, its nodes' statuses and its deployments as they change, whoever changed them (the CLI,
 * another browser, another server). Read with fetch, not EventSource, for the Authorization header
 * (as the deployments' stream is, deploy/stream.ts). A broken stream is opened again after a
 * pause; each new stream starts with the current state, so nothing is missed for long.
 */
import { createContext, useEffect, useState } from 'react';
import { token } from '../api.js';
import { parseEvents } from '../deploy/events.js';
import type { Cluster, Deployment, Node } from '../types.js';

export interface EnvironmentNow {
  /** The environment as last sent (undefined before the first event). */
  environment?: Cluster;
  /** Its nodes as last sent, by id (a node that left has cluster_id of another or null). */
  nodes: Map<number, Node>;
  /** Its deployments as last sent, by id: the running ones and the latest. */
  deployments: Map<number, Deployment>;
}

/** What the environment's stream said of its nodes, for the places that show a node's status. */
export const LiveNodes = createContext<Map<number, Node>>(new Map());

const RETRY_MS = 2000;

export function useEnvironmentEvents(clusterId: number): EnvironmentNow {
  const [now, setNow] = useState<EnvironmentNow>({ nodes: new Map(), deployments: new Map() });
  useEffect(() => {
    const abort = new AbortController();
    setNow({ nodes: new Map(), deployments: new Map() });
    const handle = (event: string, data: string) => {
      const body = JSON.parse(data) as { id: number };
      if (event === 'environment') setNow((n) => ({ ...n, environment: body as Cluster }));
      else if (event === 'node') setNow((n) => ({ ...n, nodes: new Map(n.nodes).set(body.id, body as Node) }));
      else if (event === 'deployment') setNow((n) => ({ ...n, deployments: new Map(n.deployments).set(body.id, body as Deployment) }));
      else if (event === 'end') abort.abort();
    };
    void (async () => {
      while (!abort.signal.aborted) {
        try {
          const headers: Record<string, string> = { accept: 'text/event-stream' };
          const t = token();
          if (t) headers.authorization = `Bearer ${t}`;
          const response = await fetch(`/api/v1/clusters/${encodeURIComponent(String(clusterId))}/events`, { headers, signal: abort.signal });
          // Gone, or not allowed: asking again will not help (the page says why from its own reads).
          if (response.status === 404 || response.status === 401 || response.status === 403) return;
          if (response.ok && response.body) {
            const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = '';
            try {
              for (;;) {
                const { value, done } = await reader.read();
                if (done) break;
                buffer = parseEvents(buffer + value, handle);
              }
            } finally {
              await reader.cancel().catch(() => undefined);
            }
          }
        } catch {
          // A network error or the abort: the loop decides.
        }
        if (!abort.signal.aborted) await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    })();
    return () => abort.abort();
  }, [clusterId]);
  return now;
}
