/**
 * One disk being laid out, in Fuel's full format: Fuel's `Disk` class (service space first, then
 * physical volumes and partitions taken from its free space, LVM metadata from a per-disk pool).
 */
import type { FullDiskVolume } from './model.js';
import type { VolumeDefinition } from './spaces.js';

export const BOOT_RECORDS_MB = 300;
export const BOOT_MB = 200;
export const MBR_MB = 10;
export const LVM_META_MB = 64;

export interface WorkDisk {
  id: string;
  name: string;
  size: number;
  free: number;
  volumes: FullDiskVolume[];
  pool: { type: 'lvm_meta_pool'; size: number };
}

/** Takes `size` from the disk's free space, or nothing when it does not fit (Fuel's `get_size`). */
function reserve(disk: WorkDisk, size: number): number {
  const taken = disk.free >= size ? size : 0;
  disk.free -= taken;
  return taken;
}

/**
 * A disk with its service space reserved. `fuel`: boot records and a `/boot` (a RAID member when the
 * node has more than one disk), as a provisioned node had. `running`: only the partition table, the
 * node boots from the disk that already holds `/`. Both: an LVM metadata pool, one slot per volume
 * group the node may have.
 */
export function newDisk(id: string, name: string, size: number, mode: 'fuel' | 'running', bootIsRaid: boolean, vgCount: number): WorkDisk {
  const disk: WorkDisk = { id, name, size, free: size, volumes: [], pool: { type: 'lvm_meta_pool', size: 0 } };
  if (mode === 'fuel') {
    disk.volumes.push({ type: 'boot', size: reserve(disk, BOOT_RECORDS_MB) });
    disk.volumes.push({
      type: bootIsRaid ? 'raid' : 'partition',
      file_system: 'ext2',
      mount: '/boot',
      name: 'Boot',
      size: reserve(disk, BOOT_MB),
    });
  } else {
    disk.volumes.push({ type: 'boot', size: reserve(disk, MBR_MB) });
  }
  disk.pool.size = reserve(disk, LVM_META_MB * vgCount);
  disk.volumes.push(disk.pool);
  return disk;
}

/**
 * A physical volume of `vg`: `size` MB of data (all the free space when undefined) plus one LVM
 * metadata slot from the pool when it has any data (Fuel's `create_pv`).
 */
export function createPv(disk: WorkDisk, vg: string, size?: number): void {
  const data = size ?? disk.free;
  disk.free -= data;
  let meta = 0;
  if (data && disk.pool.size >= LVM_META_MB) {
    disk.pool.size -= LVM_META_MB;
    meta = LVM_META_MB;
  }
  disk.volumes.push({ type: 'pv', vg, size: data + meta, lvm_meta_size: meta });
}

/** A partition (or RAID member) of a volume (Fuel's `create_partition`). */
export function createPartition(disk: WorkDisk, definition: VolumeDefinition, size: number | undefined, type: 'partition' | 'raid'): void {
  const data = size ?? disk.free;
  disk.free -= data;
  disk.volumes.push({
    size: data,
    type,
    name: definition.id,
    file_system: typeof definition.file_system === 'string' ? definition.file_system : 'none',
    disk_label: typeof definition.disk_label === 'string' ? definition.disk_label : null,
    partition_guid: typeof definition.partition_guid === 'string' ? definition.partition_guid : null,
    mount: typeof definition.mount === 'string' ? definition.mount : 'none',
  });
}

/** Puts `size` MB of a volume on the disk by its type; other types are not allocated (as in Fuel). */
export function allocateOn(disk: WorkDisk, definition: VolumeDefinition, size?: number): void {
  const type = typeof definition.type === 'string' ? definition.type : 'vg';
  if (type === 'vg') createPv(disk, definition.id, size);
  else if (type === 'partition' || type === 'raid') createPartition(disk, definition, size, type);
}

/** Service space (Fuel's `is_service`): boot records, `/boot`, the LVM pool. */
export const isService = (v: FullDiskVolume): boolean =>
  ('mount' in v && v.mount === '/boot') || (v.type !== 'pv' && v.type !== 'partition' && v.type !== 'raid');

/** MB a volume group has on these disks, without LVM metadata. */
export function vgSizeOn(disks: readonly { volumes: readonly FullDiskVolume[] }[], vg: string): number {
  let total = 0;
  for (const d of disks) for (const v of d.volumes) if (v.type === 'pv' && v.vg === vg) total += v.size - v.lvm_meta_size;
  return total;
}
