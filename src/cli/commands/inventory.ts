/**
 * `hearth env inventory <env> [--format ini|yaml|json]` (issue 31 item 13): the environment's real
 * nodes as an Ansible inventory, for operators' own playbooks. The action is in
 * ../client/inventory.ts, loaded when it runs.
 */
import type { Command } from 'commander';
import { group } from '../group.js';

export function registerInventory(program: Command): void {
  const env = group(program, 'env', 'Environments on a Hearth server');
  env
    .command('inventory')
    .argument('<env>', 'id or name')
    .description(
      "The environment's real nodes as an Ansible inventory: a group per role (deployed and pending), each host with how to reach it (ansible_host, ansible_port, ansible_user, the server's key file) and its Hearth data (hearth_roles, hearth_addresses, hearth_node_volumes, ...; docs/inventory.md). Simulated nodes are left out. Example: hearth env inventory prod --known-hosts hosts.known > inventory.ini && ansible -i inventory.ini all -m ping",
    )
    .option('--format <format>', 'ini, yaml or json (Ansible\'s dynamic inventory, as an inventory script prints it)', 'ini')
    .option('--private-key <file>', 'the key Ansible logs in with (default: the file this server logs in with, where it runs)')
    .option('--known-hosts <file>', 'write the host keys Hearth recorded to this file and have Ansible check each node against it (StrictHostKeyChecking=yes)')
    .option('--server <url>', 'the Hearth server (default: $HEARTH_SERVER or http://127.0.0.1:8420)')
    .option('--token <token>', 'the admin token (default: $HEARTH_TOKEN)')
    .option('--json', 'the same as --format json')
    .action(async (ref, o) => (await import('../client/inventory.js')).envInventory(ref, o));
}
