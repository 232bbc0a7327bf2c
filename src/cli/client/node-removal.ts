/**
 * `hearth node unassign <env> <node>… [--no-clean] [--wait]` and `hearth env delete <env>
 * [--clean | --no-clean] [--wait]`: removing deployed nodes runs the environment's deletion graph
 * on them first (docs/deploy.md); the command says who left at once, who is being cleaned by which
 * run, and with --wait how that run ended for each node.
 */
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import { print } from './table.js';
import { awaitEnd, printOutcome } from './follow.js';

const NOT_CLEANED = 'not cleaned: the host keeps what was deployed';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function environment(c: Client, ref: string): Promise<{ id: number; name: string }> {
  const all = await c.call('get', '/clusters');
  const found = all.find((x) => (/^\d+$/.test(ref) ? x.id === Number(ref) : x.name === ref));
  if (!found) throw new ClientError(`there is no environment ${/^\d+$/.test(ref) ? ref : `named '${ref}'`} (hearth env list shows them)`, EXIT_FINDINGS);
  return { id: found.id, name: found.name };
}

/** Node ids from ids or names of the environment's nodes. */
async function nodeIds(c: Client, env: { id: number; name: string }, refs: string[]): Promise<number[]> {
  if (refs.every((r) => /^\d+$/.test(r))) return refs.map(Number);
  const nodes = await c.call('get', '/clusters/{id}/nodes', { params: { id: env.id } });
  return refs.map((r) => {
    if (/^\d+$/.test(r)) return Number(r);
    const n = nodes.find((x) => x.name === r);
    if (!n) throw new ClientError(`environment '${env.name}' has no node named '${r}' (hearth node list --env ${env.name} shows them)`, EXIT_FINDINGS);
    return n.id;
  });
}

export const nodeUnassign = (ref: string, refs: string[], o: ServerOptions & { clean?: boolean; wait?: boolean }) =>
  run(o, async (c) => {
    if (!refs.length) throw new ClientError('node unassign needs node ids or names', EXIT_USAGE);
    const env = await environment(c, ref);
    const ids = await nodeIds(c, env, refs);
    const res = await c.call('delete', '/clusters/{id}/nodes', { params: { id: env.id }, body: { node_ids: ids, clean: o.clean !== false } });
    const notCleaned = new Set(res.not_cleaned.map((n) => n.id));
    const lines = [
      ...res.left.map((n) => `${n.name} left environment '${env.name}'${notCleaned.has(n.id) ? `: ${NOT_CLEANED}` : ' (nothing was deployed on it)'}\n`),
      ...res.cleaning.map((n) => `${n.name} is removing: the deletion graph runs on it (deployment ${res.deployment!.id}); it leaves the environment when that succeeded\n`),
    ];
    if (!res.deployment || !o.wait) {
      const follow = res.deployment ? `hearth deployment follow ${res.deployment.id} watches it\n` : '';
      return print(o.json, res, () => lines.join('') + follow);
    }
    if (!o.json) process.stdout.write(lines.join(''));
    const end = await awaitEnd(c, res.deployment, o.json ?? false);
    const after = await Promise.all(res.cleaning.map((n) => c.call('get', '/nodes/{id}', { params: { id: n.id } })));
    if (!o.json) printOutcome(end.deployment, false, end.tasks);
    const removed = after.filter((n) => n.cluster_id === null);
    const stayed = after.filter((n) => n.cluster_id !== null);
    print(o.json, { ...res, deployment: end.deployment, nodes_after: after.map((n) => ({ id: n.id, name: n.name, status: n.status, cluster_id: n.cluster_id })) }, () =>
      [
        ...removed.map((n) => `${n.name} cleaned and back in the pool (${n.status})\n`),
        ...stayed.map((n) => `${n.name} stays in environment '${env.name}' (${n.status}): the deletion graph did not succeed on it (hearth deployment logs ${end.deployment.id} --node ${n.name} says why)\n`),
      ].join(''),
    );
    if (stayed.length || end.deployment.status !== 'succeeded') process.exitCode = EXIT_FINDINGS;
  });

export const envDelete = (ref: string, o: ServerOptions & { clean?: boolean; wait?: boolean }) =>
  run(o, async (c) => {
    const env = await environment(c, ref);
    const res = await c.call('delete', '/clusters/{id}', { params: { id: env.id }, ...(o.clean === undefined ? {} : { query: { clean: o.clean } }) });
    if (!res) return print(o.json, { deleted: true }, () => `deleted environment ${ref}${o.clean === false ? ` (${NOT_CLEANED})` : ''}\n`);
    const d = res.deployment!;
    if (!o.wait) return print(o.json, res, () => `${res.message}\nhearth deployment follow ${d.id} watches it\n`);
    if (!o.json) process.stdout.write(`${res.message}\n`);
    // On success the environment goes with its history, the run's record too: its absence is the answer.
    for (;;) {
      await sleep(500);
      const now = await c.call('get', '/deployments/{id}', { params: { id: d.id } }).catch((err: unknown) => {
        if (err instanceof ClientError && err.body?.code === 'deployment/not-found') return undefined;
        throw err;
      });
      if (!now) return print(o.json, { deleted: true, deployment: { id: d.id, status: 'succeeded' } }, () => `deleted environment '${env.name}': the deletion graph succeeded on every node\n`);
      if (now.status === 'running') continue;
      if (!o.json) process.stdout.write(`environment '${env.name}' stays (error): the deletion graph did not succeed on every node (hearth deployment logs ${d.id} says why)\n`);
      printOutcome(now, o.json ?? false);
      process.exitCode = EXIT_FINDINGS;
      return;
    }
  });
