/**
 * `hearth env inventory <env>`: the server's dynamic inventory (JSON), with the key file and the
 * known_hosts file asked for, written in the format asked for (core/inventory renders it, as the
 * server does for `?format=`). What is left out is said on stderr, so stdout stays the inventory.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inventoryAsIni, inventoryAsYaml, knownHostsOf, withKeyFile, withKnownHosts, type DynamicInventory } from '../../core/inventory/index.js';
import { escapeControls } from '../../core/text/controls.js';
import { EXIT_FINDINGS, EXIT_USAGE } from '../exit.js';
import { ClientError, run, type Client, type ServerOptions } from './http.js';

const FORMATS = ['ini', 'yaml', 'json'];

async function clusterId(c: Client, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const found = (await c.call('get', '/clusters')).find((x) => x.name === ref);
  if (!found) throw new ClientError(`there is no environment named '${ref}' (hearth env list shows them)`, EXIT_FINDINGS);
  return found.id;
}

export const envInventory = (ref: string, o: ServerOptions & { format?: string; privateKey?: string; knownHosts?: string }) =>
  run(o, async (c) => {
    const format = o.json ? 'json' : (o.format ?? 'ini');
    if (!FORMATS.includes(format)) throw new ClientError(`--format must be ini, yaml or json, not '${format}'`, EXIT_USAGE);
    let inventory = (await c.call('get', '/clusters/{id}/inventory', { params: { id: await clusterId(c, ref) } })) as DynamicInventory;
    if (o.privateKey) inventory = withKeyFile(inventory, resolve(o.privateKey));
    if (o.knownHosts) {
      const file = resolve(o.knownHosts);
      try {
        writeFileSync(file, knownHostsOf(inventory), { mode: 0o644 });
      } catch (err) {
        throw new ClientError(`cannot write --known-hosts ${file}: ${(err as Error).message}`, EXIT_USAGE);
      }
      inventory = withKnownHosts(inventory, file);
    }
    const { environment, simulated_nodes: simulated } = inventory._meta.hearth;
    const hosts = Object.keys(inventory._meta.hostvars).length;
    if (!hosts) process.stderr.write(escapeControls(`hearth: environment '${environment.name}' has no real nodes: the inventory has no hosts (hearth node add <address> --env ${environment.id} registers one)\n`));
    if (simulated.length) process.stderr.write(escapeControls(`hearth: ${simulated.length} simulated node${simulated.length === 1 ? '' : 's'} left out (nothing to connect to): ${simulated.map((n) => n.name).join(', ')}\n`));
    process.stdout.write(format === 'json' ? `${JSON.stringify(inventory, null, 2)}\n` : format === 'yaml' ? inventoryAsYaml(inventory) : inventoryAsIni(inventory));
  });
