/**
 * What an environment's Ansible inventory is made from (core/inventory makes it): its nodes, how
 * each real one is reached, its addresses (`network_data`) and its disk layout's volumes.
 */
import { inventoryOf, type DynamicInventory, type InventoryInput, type InventoryNode, type InventoryVolume } from '../../core/inventory/index.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';
import { diskStates, type DiskState } from './disks.js';
import { composeCluster } from './environment.js';
import { networkDataOf } from './networks.js';

/** The volumes of a node's layout, each with its size over every disk and the disks it is on. */
export function volumesSummary(state: DiskState | undefined): InventoryVolume[] {
  const byName = new Map<string, InventoryVolume>();
  for (const disk of state?.layout.disks ?? []) {
    for (const v of disk.volumes) {
      if (v.size <= 0) continue;
      const entry = byName.get(v.name) ?? { name: v.name, size_mb: 0, disks: [] };
      entry.size_mb += v.size;
      entry.disks.push(disk.name);
      byName.set(v.name, entry);
    }
  }
  return [...byName.values()];
}

export async function environmentInventory(q: store.Queryable, cluster: store.ClusterRecord, keyFile: string | undefined): Promise<DynamicInventory> {
  const nodes = await store.listNodes(q, { clusterId: cluster.id });
  const access = await real.realNodes(q, nodes.map((n) => n.id));
  const realOnes = nodes.filter((n) => access.has(n.id));
  // Only the real nodes' layouts: the release is composed only when there is one.
  const disks = realOnes.length ? await diskStates(q, realOnes, (await composeCluster(q, cluster)).composed) : new Map<number, DiskState>();
  const entries: InventoryInput['nodes'][number][] = [];
  for (const n of nodes) {
    const a = access.get(n.id);
    if (!a) {
      entries.push({ id: n.id, name: n.name, simulated: true });
      continue;
    }
    const node: InventoryNode = {
      id: n.id,
      name: n.name,
      address: a.address,
      sshUser: a.sshUser,
      sshPort: a.sshPort,
      roles: n.roles,
      pendingRoles: n.pendingRoles,
      status: n.status,
      ...(a.hostKey ? { hostKey: a.hostKey } : {}),
      networkData: await networkDataOf(q, n),
      volumes: volumesSummary(disks.get(n.id)),
    };
    entries.push(node);
  }
  return inventoryOf({ environment: { id: cluster.id, name: cluster.name }, nodes: entries, ...(keyFile ? { keyFile } : {}) });
}
