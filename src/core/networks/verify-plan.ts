/**
 * What Verify networks checks in an environment (issue 27): its own network configuration and each
 * node's interface mapping and addresses, turned into core's `VerifyPlan` (verify.ts). Every network
 * is checked on the interface it is mapped to, with its VLAN, by every node that carries it, from the
 * node's own address there (so duplicate addresses are looked for on every network, and the gateway
 * is pinged from an address of its network).
 */
import { ADMIN_NETWORK } from './defaults.js';
import { needsPublic } from './addresses.js';
import type { NetworkConfiguration, NodeInterface, RoleNetworkNeeds } from './model.js';
import type { VerifyMember, VerifyNetwork, VerifyPlan } from './verify.js';

export interface VerifyNode {
  id: string;
  name: string;
  roles: readonly string[];
  /** The node's interfaces with the networks mapped to each (saved or default). */
  interfaces: readonly NodeInterface[];
  /** The node's SSH address (the admin network's), with or without its prefix. */
  adminAddress: string | null;
  /** The node's address on each network (its stored `ip_addrs`), with or without prefix. */
  addresses: Readonly<Record<string, string>>;
}

const bare = (ip: string) => ip.split('/')[0];

/**
 * The plan. Neutron's VLAN private network has no addresses and no VLAN of its own: its VLANs are
 * the tenants' range (`networking_parameters.vlan_range`), and every one of them is probed on the
 * interface private is mapped to, as Fuel's verification did (tenant traffic on a VLAN the switch
 * drops is the failure found only when a tenant's instance gets no DHCP answer). A node carries
 * `public` only with a role that needs a public address, as Nailgun gave it; every other network
 * mapped to one of its interfaces it carries. Each network's MTU, when set, is tried.
 */
export function verifyPlanOf(config: NetworkConfiguration, nodes: readonly VerifyNode[], roles: Readonly<Record<string, RoleNetworkNeeds>> = {}): VerifyPlan {
  const range = config.networking_parameters.segmentation_type === 'vlan' ? config.networking_parameters.vlan_range : null;
  const networks: VerifyNetwork[] = [];
  for (const n of config.networks) {
    const mtu = n.mtu ?? null;
    if (!n.meta.neutron_vlan_range) networks.push({ name: n.name, vlan: n.vlan_start, gateway: n.name === ADMIN_NETWORK ? null : n.gateway, mtu });
    else if (range && range[0] >= 1 && range[0] <= range[1] && range[1] <= 4094) {
      const vlans = Array.from({ length: range[1] - range[0] + 1 }, (_, i) => range[0] + i);
      networks.push({ name: n.name, vlan: vlans[0], gateway: null, mtu, vlans });
    }
  }
  const known = new Set(networks.map((n) => n.name));
  const members: VerifyMember[] = [];
  for (const node of nodes) {
    const withPublic = needsPublic(node.roles, roles);
    for (const iface of node.interfaces) {
      for (const { name } of iface.assigned_networks) {
        if (!known.has(name) || (name === 'public' && !withPublic)) continue;
        const ip = name === ADMIN_NETWORK ? node.adminAddress : (node.addresses[name] ?? null);
        members.push({ node: node.id, name: node.name, network: name, interface: iface.name, ip: ip ? bare(ip) : null });
      }
    }
  }
  return { networks, members };
}
