/**
 * An environment's real nodes as an Ansible inventory (issue 31 item 13), in Ansible's dynamic
 * inventory form (what an inventory script prints for `--list`), from which the INI and YAML forms
 * are written (render.ts). docs/inventory.md is the operator's page.
 *
 * - Hosts are the environment's real nodes; a simulated node has nothing to connect to and is left
 *   out (named in `_meta.hearth.simulated_nodes`, which Ansible ignores).
 * - Groups are named after roles: a node is in the group of every role it has deployed or pending,
 *   as a playbook meant for computes should reach a compute before its first deployment too
 *   (`hearth_roles` and `hearth_pending_roles` tell them apart). A node without roles is in
 *   `ungrouped`. A group name is the role's with each character Ansible refuses in a group name
 *   made `_` (`ceph-osd` is `ceph_osd`).
 * - Host variables: how to connect (`ansible_host`, `ansible_port`, `ansible_user`,
 *   `ansible_ssh_private_key_file` when the key is known) and what Fuel's astute.yaml said of the
 *   node, under `hearth_` names: Ansible reserves `name`, `roles` and `environment` for its plays.
 */

/** One of the node's addresses, as `network_data` (issue 27) gives it. */
export interface InventoryAddress {
  name: string;
  ip: string | null;
  vlan: number | null;
  dev: string | null;
  gateway: string | null;
  cidr: string | null;
}

/** One volume of the node's disk layout: its size over every disk, and the disks it is on. */
export interface InventoryVolume {
  name: string;
  size_mb: number;
  disks: string[];
}

export interface InventoryNode {
  id: number;
  name: string;
  address: string;
  sshUser: string;
  sshPort: number;
  roles: readonly string[];
  pendingRoles: readonly string[];
  status: string;
  /** The host key recorded when the node was registered (`type base64`). */
  hostKey?: string;
  networkData: readonly InventoryAddress[];
  volumes: readonly InventoryVolume[];
}

export interface InventoryInput {
  environment: { id: number; name: string };
  /** Every node of the environment, real and simulated. */
  nodes: ReadonlyArray<InventoryNode | { id: number; name: string; simulated: true }>;
  /** The private key Hearth logs in with, where Ansible on the same machine can read it. */
  keyFile?: string;
}

export type HostVars = Record<string, unknown>;

/** Ansible's dynamic inventory (`--list`): `_meta.hostvars`, `all.children`, and one entry a group. */
export interface DynamicInventory {
  _meta: {
    hostvars: Record<string, HostVars>;
    hearth: { environment: { id: number; name: string }; simulated_nodes: Array<{ id: number; name: string }> };
  };
  all: { children: string[] };
  [group: string]: { hosts: string[] } | DynamicInventory['_meta'] | DynamicInventory['all'];
}

/** A host name Ansible reads as one in every form: the node's name when it is one, else `node-<id>`. */
const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Names Ansible gives its own groups. */
const ANSIBLE_GROUPS: ReadonlySet<string> = new Set(['all', 'ungrouped']);

/** The group of a role: Ansible's group names are Python identifiers (letters, digits, `_`; no digit first). */
export function groupOf(role: string): string {
  const name = role.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(name) || ANSIBLE_GROUPS.has(name) ? `role_${name}` : name;
}

const isReal = (n: InventoryInput['nodes'][number]): n is InventoryNode => !('simulated' in n);

/** The address without its prefix length (`192.168.0.3/24` is `192.168.0.3`). */
const bareIp = (ip: string) => ip.split('/')[0];

function hostVars(node: InventoryNode, environment: InventoryInput['environment'], keyFile: string | undefined): HostVars {
  return {
    ansible_host: node.address,
    ansible_port: node.sshPort,
    ansible_user: node.sshUser,
    ...(keyFile ? { ansible_ssh_private_key_file: keyFile } : {}),
    hearth_uid: String(node.id),
    hearth_name: node.name,
    // A real node's deployment data names it by its name (runs/real-plan.ts): its fqdn is that.
    hearth_fqdn: node.name,
    hearth_roles: [...node.roles],
    hearth_pending_roles: [...node.pendingRoles],
    hearth_status: node.status,
    hearth_environment: { ...environment },
    hearth_host_key: node.hostKey ?? null,
    hearth_addresses: Object.fromEntries(node.networkData.filter((n) => n.ip).map((n) => [n.name, bareIp(n.ip!)])),
    hearth_network_data: node.networkData.map((n) => ({ ...n })),
    hearth_node_volumes: node.volumes.map((v) => ({ ...v, disks: [...v.disks] })),
  };
}

/** The inventory of an environment's real nodes; hosts in node id order, groups by name. */
export function inventoryOf(input: InventoryInput): DynamicInventory {
  const real = input.nodes.filter(isReal).sort((a, b) => a.id - b.id);
  const simulated = input.nodes.filter((n) => !isReal(n)).map((n) => ({ id: n.id, name: n.name })).sort((a, b) => a.id - b.id);
  // Node names are unique in Hearth, but a name that is not a host name falls back to node-<id>,
  // which another node may be called: the later one then takes hearth-node-<id>.
  const taken = new Set(real.filter((n) => HOST_NAME.test(n.name)).map((n) => n.name));
  const hostvars: Record<string, HostVars> = {};
  const groups = new Map<string, string[]>();
  for (const node of real) {
    let host = node.name;
    if (!HOST_NAME.test(host)) {
      host = taken.has(`node-${node.id}`) ? `hearth-node-${node.id}` : `node-${node.id}`;
      taken.add(host);
    }
    hostvars[host] = hostVars(node, input.environment, input.keyFile);
    const roleGroups = [...new Set([...node.roles, ...node.pendingRoles].map(groupOf))];
    for (const g of roleGroups.length ? roleGroups : ['ungrouped']) {
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g)!.push(host);
    }
  }
  const names = [...groups.keys()].sort();
  const out: DynamicInventory = {
    _meta: { hostvars, hearth: { environment: { ...input.environment }, simulated_nodes: simulated } },
    all: { children: names },
  };
  for (const g of names) out[g] = { hosts: groups.get(g)! };
  return out;
}

/** The role groups of an inventory, with their hosts, by name. */
export function groupsOf(inventory: DynamicInventory): Array<{ name: string; hosts: string[] }> {
  return inventory.all.children.map((name) => ({ name, hosts: [...((inventory[name] as { hosts?: string[] } | undefined)?.hosts ?? [])] }));
}
