/** `hearth env upgrade`: move an environment to a newer version of its release (issue 28 item 15). */
import { ClientError, run, type ServerOptions } from './http.js';
import { print } from './table.js';
import { EXIT_USAGE } from '../exit.js';

interface UnfitLine {
  kind: string;
  name: string;
  reason: string;
  nodes?: Array<{ name: string }>;
}

export const unfitLine = (u: UnfitLine): string => `${u.kind.replace('_', ' ')} ${u.name}: ${u.reason}${u.nodes?.length ? ` (nodes: ${u.nodes.map((n) => n.name).join(', ')})` : ''}`;

export const envUpgrade = (ref: string, o: ServerOptions & { release?: string; dropUnfit?: boolean }) =>
  run(o, async (c) => {
    if (!o.release) throw new ClientError('env upgrade needs --release <id> (hearth release list shows them)', EXIT_USAGE);
    const list = await c.call('get', '/clusters');
    const id = /^\d+$/.test(ref) ? Number(ref) : list.find((x) => x.name === ref)?.id;
    if (id === undefined) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, 1);
    const res = await c.call('put', '/clusters/{id}', { params: { id }, body: { release_id: o.release, ...(o.dropUnfit ? { drop_unfit: true } : {}) } });
    print(o.json, res, () => {
      if (res.upgraded_from === res.release_id) return `${res.name} is already on release ${res.release_id}\n`;
      const dropped = res.dropped.length ? `left behind:\n${res.dropped.map((u) => `  ${unfitLine(u)}\n`).join('')}` : '';
      const redeploy = res.deployed_release_id && res.deployed_release_id !== res.release_id ? `its nodes still run ${res.deployed_release_id}: deploy it (hearth env deploy ${res.name}) to bring them to ${res.release_id}\n` : '';
      return `moved ${res.name} from release ${res.upgraded_from} to ${res.release_id}\n${dropped}${redeploy}`;
    });
  });
