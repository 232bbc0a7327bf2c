/**
 * Node names and the roles a node keeps. Names are how people find nodes in every view, so they
 * are unique: a simulated node is named `<prefix>-<id>` (its id is unique, so two batches never
 * both make `node-1`, and the name does not grow with the environment's name), and a name given
 * by hand that is taken already is refused. A role a node was deployed with leaves it only
 * through the deletion graph (removing the node), never by an assignment that drops it.
 */
import { finding, type Finding } from '../../core/findings.js';
import * as store from '../../store/index.js';
import { HttpError } from '../errors.js';

export interface NewNode {
  name: string;
  hardware: store.NodeHardware;
}

const taken = async (q: store.Queryable, names: string[]) =>
  names.length ? (await q.query<{ name: string }>('SELECT DISTINCT name FROM nodes WHERE name = ANY($1::text[])', [names])).map((r) => r.name) : [];

/** Register named nodes and `simulate.count` simulated ones, in one transaction; the new ids in order. */
export async function registerNodes(q: store.Queryable, named: NewNode[], simulate?: { count: number; prefix: string; hardware: store.NodeHardware }): Promise<number[]> {
  const names = named.map((n) => n.name);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new HttpError(400, 'node/name-listed-twice', `the node name '${twice[0]}' is listed twice`, { hint: 'give each node its own name' });
  const existing = await taken(q, names);
  if (existing.length) throw new HttpError(409, 'node/name-taken', `a node named ${existing.map((n) => `'${n}'`).join(', ')} exists already`, { names: existing, hint: 'choose another name' });
  const ids = await store.insertNodes(q, named);
  if (!simulate) return ids;
  const made = await store.insertNodes(q, Array.from({ length: simulate.count }, () => ({ name: `${simulate.prefix}-new`, hardware: simulate.hardware })));
  const rows = await q.query<{ name: string }>(`UPDATE nodes SET name = $1 || '-' || id WHERE id = ANY($2::int[]) RETURNING name`, [simulate.prefix, made]);
  // A node named by hand like one of these (`node-12`) makes the pair ambiguous: refused, nothing is kept.
  const clash = (await q.query<{ name: string }>('SELECT name FROM nodes WHERE name = ANY($1::text[]) GROUP BY name HAVING count(*) > 1', [rows.map((r) => r.name)])).map((r) => r.name);
  if (clash.length) throw new HttpError(409, 'node/name-taken', `a node named ${clash.map((n) => `'${n}'`).join(', ')} exists already`, { names: clash, hint: 'rename that node, or simulate with another prefix' });
  return [...ids, ...made];
}

/** Errors for assignments that would drop a role a node was deployed with. */
export function droppedDeployedRoles(nodes: readonly store.NodeRecord[], wanted: ReadonlyMap<number, string[]>): Finding[] {
  const out: Finding[] = [];
  for (const n of nodes) {
    const roles = wanted.get(n.id);
    if (!roles) continue;
    const dropped = n.roles.filter((r) => !roles.includes(r));
    if (!dropped.length) continue;
    out.push(
      finding(
        'node/deployed-role',
        'error',
        `${n.name} was deployed with ${dropped.join(', ')}: a deployed role leaves a node only through the deletion graph, when the node is removed from the environment, not by unticking it`,
        undefined,
        `keep ${dropped.join(', ')} on ${n.name}, or remove the node from the environment`,
      ),
    );
  }
  return out;
}
