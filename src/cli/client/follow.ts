/**
 * `hearth env deploy --follow` and `hearth env stop`: a deployment's tasks printed as they end
 * (failures with their reason and the end of their output), then the outcome.
 */
import { EXIT_FINDINGS } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import { print } from './table.js';

const tail = (text: string | null | undefined, lines = 10) => (text ?? '').trimEnd().split('\n').slice(-lines).map((l) => `      ${l}`).join('\n');

/** Polls the deployment and prints each task once it has ended; returns the deployment at its end. */
export async function follow(c: Client, clusterId: number, start: any, json: boolean): Promise<any> {
  const seen = new Set<string>();
  let d = start;
  for (;;) {
    const ended = (await c.request('GET', `/deployments/${d.id}/tasks?output=true`)).filter((t: any) => !['pending', 'running'].includes(t.status));
    ended.sort((a: any, b: any) => String(a.finished_at ?? '').localeCompare(String(b.finished_at ?? '')) || a.position - b.position);
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
    d = await c.request('GET', `/clusters/${clusterId}/deployments/${d.id}`);
  }
}

export const envStop = (ref: string, o: ServerOptions) =>
  run(o, async (c) => {
    let id: number;
    if (/^\d+$/.test(ref)) id = Number(ref);
    else {
      const found = (await c.request('GET', '/clusters')).find((x: any) => x.name === ref);
      if (!found) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, EXIT_FINDINGS);
      id = found.id;
    }
    const d = await c.request('POST', `/clusters/${id}/stop`);
    print(o.json, d, () => `stopping deployment ${d.id}: nothing new starts; running tasks finish or are killed after a grace period\n`);
  });
