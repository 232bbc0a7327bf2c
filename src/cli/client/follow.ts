/**
 * `hearth env deploy --follow` and `hearth env stop`: a deployment's tasks printed as they end
 * (failures with their reason and the end of their output), then the outcome.
 */
import { EXIT_FINDINGS } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import { print } from './table.js';
import type { Schemas } from '../../api/client.js';

const tail = (text: string | null | undefined, lines = 10) => (text ?? '').trimEnd().split('\n').slice(-lines).map((l) => `      ${l}`).join('\n');

/** Polls the deployment and prints each task once it has ended; returns the deployment at its end. */
export async function follow(c: Client, clusterId: number, start: Schemas['Deployment'], json: boolean): Promise<Schemas['Deployment']> {
  const seen = new Set<string>();
  let d = start;
  for (;;) {
    const ended = (await c.call('get', '/deployments/{id}/tasks', { params: { id: d.id }, query: { output: true } })).filter((t) => !['pending', 'running'].includes(t.status));
    ended.sort((a, b) => String(a.finished_at ?? '').localeCompare(String(b.finished_at ?? '')) || a.position - b.position);
    for (const t of ended) {
      const key = `${t.node}\u0000${t.task_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (json) process.stdout.write(`${JSON.stringify({ ...t, output: undefined })}\n`);
      else {
        const took = t.started_at && t.finished_at ? ` ${((Date.parse(t.finished_at) - Date.parse(t.started_at)) / 1000).toFixed(1)} s` : '';
        process.stdout.write(`${t.status.padEnd(7)} node ${t.node} ${t.task_id}${t.exit_status !== null && t.exit_status !== 0 ? ` (exit ${t.exit_status})` : ''}${t.attempts > 1 ? ` after ${t.attempts} attempts` : ''}${took}${t.message ? `: ${t.message}` : ''}\n`);
        if (t.status === 'error' && t.output) process.stdout.write(`${tail(t.output)}\n`);
      }
    }
    if (d.status !== 'running') return d;
    await new Promise((r) => setTimeout(r, 500));
    d = await c.call('get', '/clusters/{id}/deployments/{deployment}', { params: { id: clusterId, deployment: d.id } });
  }
}

export const envStop = (ref: string, o: ServerOptions) =>
  run(o, async (c) => {
    let id: number;
    if (/^\d+$/.test(ref)) id = Number(ref);
    else {
      const found = (await c.call('get', '/clusters')).find((x) => x.name === ref);
      if (!found) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, EXIT_FINDINGS);
      id = found.id;
    }
    const d = await c.call('post', '/clusters/{id}/stop', { params: { id } });
    print(o.json, d, () => `stopping deployment ${d.id}: nothing new starts; running tasks finish or are killed after a grace period\n`);
  });
