/**
 * What the client commands take as `<env>` and `<node>`: an id, or a name looked up on the server.
 * One lookup for every command, so each says the same thing when the name is unknown.
 */
import { EXIT_FINDINGS } from '../exit.js';
import { ClientError, type Client } from './http.js';

/** An environment by id or by name. */
export async function clusterId(c: Client, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const found = (await c.call('get', '/clusters')).find((x) => x.name === ref);
  if (!found) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, EXIT_FINDINGS);
  return found.id;
}

/** A node by id or by name. */
export async function nodeId(c: Client, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const found = (await c.call('get', '/nodes')).find((n) => n.name === ref);
  if (!found) throw new ClientError(`there is no node named '${ref}' (hearth node list shows them)`, EXIT_FINDINGS);
  return found.id;
}
