/**
 * An environment's real nodes as an Ansible inventory (issue 31 item 13; docs/inventory.md).
 *
 * Public face (all pure):
 * - `inventoryOf({ environment, nodes, keyFile? })` → `DynamicInventory` (Ansible's `--list` form)
 * - `inventoryAsIni(inv)`, `inventoryAsYaml(inv)` → Ansible's INI and YAML inventory files
 * - `withKeyFile(inv, path)`, `knownHostsOf(inv)` and `withKnownHosts(inv, path)` for the CLI
 * - `groupOf(role)` → the group a role's nodes are in
 */
export { inventoryOf, groupOf, groupsOf, type DynamicInventory, type HostVars, type InventoryAddress, type InventoryInput, type InventoryNode, type InventoryVolume } from './model.js';
export { inventoryAsIni, inventoryAsYaml, knownHostsOf, withKeyFile, withKnownHosts } from './render.js';
