/**
 * `hearth env verify-networks <env> [--json] [--budget S]` (issue 27): Verify networks through the
 * server, which probes every real node at once and answers in about ten seconds. Human output: one
 * line per network that passes, a matrix for each that does not (who heard whom on its VLAN), Fuel's
 * absent VLANs, and the findings with what to check. Exit status 1 when the verification failed (a
 * link broken, a duplicate address, a silent gateway, a node not answering), so scripts can stop a
 * deployment on it.
 */
import type { AnswerOf } from '../../api/client.js';
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';
import { print, table } from './table.js';

type Verification = AnswerOf<'/clusters/{id}/network_configuration/verify', 'post'>;
type Matrix = Verification['networks'][number];

async function clusterId(c: Client, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const found = (await c.call('get', '/clusters')).find((x) => x.name === ref);
  if (!found) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, EXIT_FINDINGS);
  return found.id;
}

const on = (m: Pick<Matrix, 'network' | 'vlan' | 'vlans'>) => `${m.network} (${m.vlans?.length ? `VLANs ${m.vlans[0]}-${m.vlans[m.vlans.length - 1]}` : m.vlan === null ? 'untagged' : `VLAN ${m.vlan}`})`;

/** Rows: the node listening; columns: the node heard. `ok`, `NO`, `?` (the listener gave no answer). */
export function matrixText(m: Matrix): string {
  const rows = m.nodes.map((a) => [`${a.name} ${a.interface}`, ...m.nodes.map((b) => (a.node === b.node ? '-' : m.heard[a.node]?.[b.node] === true ? 'ok' : m.heard[a.node]?.[b.node] === false ? 'NO' : '?'))]);
  return table(['heard by \\ from', ...m.nodes.map((b) => b.name)], rows);
}

export function describeVerification(v: Verification): string {
  const lines: string[] = [];
  for (const m of v.networks) {
    if (m.passes) lines.push(`${on(m)}: passes between all ${m.nodes.length} nodes`);
    else lines.push('', `${on(m)}: FAILS`, matrixText(m).trimEnd(), '');
  }
  if (v.absent_vlans.length) lines.push(`absent VLANs (0: untagged): ${v.absent_vlans.map((a) => `${a.name} ${a.interface}: ${a.absent_vlans.join(', ')}`).join('; ')}`);
  for (const f of v.findings) lines.push(`${f.severity}: ${f.message}${f.hint ? `\n  hint: ${f.hint}` : ''}`);
  const errors = v.findings.filter((f) => f.severity === 'error').length;
  lines.push(v.status === 'passed' ? `passed: every network passes between every node (deployment ${v.deployment_id} in the history)` : `failed: ${errors} problem${errors === 1 ? '' : 's'} (deployment ${v.deployment_id} in the history keeps each node's probe output)`);
  return `${lines.join('\n').replace(/^\n+/, '')}\n`;
}

export const envVerifyNetworks = (ref: string, o: ServerOptions & { budget?: string }) =>
  run(o, async (c) => {
    const budget = o.budget === undefined ? undefined : Number(o.budget);
    if (budget !== undefined && !(Number.isInteger(budget) && budget >= 4 && budget <= 120)) throw new ClientError('--budget must be a whole number of seconds from 4 to 120', EXIT_USAGE);
    const id = await clusterId(c, ref);
    if (!o.json) process.stderr.write(`verifying the networks of environment '${ref}' on every real node (about ${(budget ?? 8) + 2} s)…\n`);
    const v = await c.call('post', '/clusters/{id}/network_configuration/verify', { params: { id }, body: budget === undefined ? {} : { budget_s: budget } });
    print(o.json, v, () => describeVerification(v));
    if (v.status !== 'passed') process.exitCode = EXIT_FINDINGS;
  });
