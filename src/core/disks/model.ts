/**
 * Disks and volumes of a node, in Fuel's shapes (openstack-archive/fuel-web,
 * `nailgun/extensions/volume_manager/manager.py`): a layout is what the operator sees and edits
 * (Fuel's "simple" format, per disk `{id, name, size, volumes: [{name, size}]}`), and
 * `node_volumes` is what tasks read (Fuel's "full" format, disks with their pv/partition/boot
 * entries followed by the volume groups with their logical volumes).
 *
 * Units are Fuel's: every size is in MB, where 1 MB = 1 MiB (Fuel divided bytes by 1024²).
 *
 * Hearth differs from Fuel in one way that matters: it reaches running machines and never
 * reinstalls them. A disk in use keeps what it has and gets no volumes; the operating system's
 * volumes are only checked against the disk that already holds `/`; every other volume is laid out
 * on the free disks, which need no boot loader, so a free disk reserves only its partition table.
 */
import type { Finding } from '../findings.js';
import type { VolumesMetadata } from '../release/model.js';

/** How a role's volume takes space (`volumes_roles_mapping[role][].allocate_size`). */
export type AllocateSize = 'min' | 'all' | 'full-disk';

/** A disk as the node's facts report it. */
export interface NodeDisk {
  /**
   * Stable id across fact runs, as Fuel's disk id: a `disk/by-path/…` (or `by-id`) link when the
   * node has one, the device name (`vdb`, `loop3`) otherwise. Saved layouts are matched by it.
   */
  id: string;
  /** Device name (`sda`, `vdb`, `loop3`), as shown to people. */
  name: string;
  /** Whole disk size in MB (MiB). */
  size: number;
  /**
   * Holds anything at all: a mounted filesystem, `/`, swap, a partition table, or a filesystem, LVM
   * or RAID signature (mounted or not). Such a disk keeps what it has and gets no volumes.
   */
  inUse: boolean;
  /** Holds `/`: the OS volumes are checked against its size (it is in use too). */
  holdsRoot?: boolean;
  /** The operator keeps Hearth off this free disk. */
  exclude?: boolean;
}

/** Fuel 9.1's `rule_to_pick_boot_disk` entries (volumes metadata), used to name the boot disk. */
export interface BootDiskRule {
  type: 'pick_root_disk_if_disk_name_match' | 'exclude_disks_by_name' | string;
  regex: string;
  root_mount?: string;
}

/** The release's volumes with the enabled plugins' merged in (`volumes` concatenated, mapping updated). */
export type LayoutVolumesMetadata = VolumesMetadata & { rule_to_pick_boot_disk?: BootDiskRule[] };

export interface LayoutInput {
  disks: NodeDisk[];
  /** The node's roles, pending ones included (Fuel's `all_roles`). */
  roles: string[];
  volumes: LayoutVolumesMetadata;
  /** Total RAM in MB, for `calc_swap_size` (Fuel read the node's memory). Unknown: 0, no swap. */
  ram?: number;
  /**
   * Volume ids only a reinstall would create (checked against the root disk, never applied).
   * Default: `os`, any volume with `os: true`, and any volume mounting `/`, `/boot` or swap.
   */
  osVolumes?: string[];
  /**
   * `fuel` reproduces Fuel's provisioning exactly (every disk free, 300 MB boot records and a 200 MB
   * `/boot` on each disk, OS volumes allocated like the others); used to check the port against
   * Fuel's numbers. `running` (default) is Hearth's: in-use disks untouched, only a partition table
   * (`calc_mbr_size`) reserved on a free disk.
   */
  mode?: 'running' | 'fuel';
  /** Images live in Ceph (`storage.images_ceph`): a controller gets no `image` volume, as in Fuel. */
  imagesCeph?: boolean;
}

/** One volume on a disk as the operator sees it (Fuel's simple format). */
export interface LayoutVolume {
  /** The volume's id in the volumes metadata (`os`, `vm`, `cinder`, `ceph`, …). */
  name: string;
  /** MB given to it on this disk, without LVM metadata. */
  size: number;
  /** The volume's type in the metadata, for display (`vg`, `partition`, `raid`). */
  type?: 'vg' | 'partition' | 'raid';
  keep_data?: boolean;
}

/** One disk of a layout: Fuel's simple format plus Hearth's `in_use`/`exclude`. */
export interface LayoutDisk {
  id: string;
  name: string;
  /**
   * MB that volumes may take on this disk (Fuel: disk size less boot records, `/boot` and the LVM
   * metadata pool). An in-use or excluded disk reports its whole size and takes nothing.
   */
  size: number;
  /** The whole disk in MB. */
  disk_size: number;
  in_use: boolean;
  exclude?: boolean;
  holds_root?: boolean;
  volumes: LayoutVolume[];
}

/** The OS volumes checked against the disk that holds `/` (running mode). */
export interface OsCheck {
  /** The disk holding `/`, when the facts name one. */
  disk?: string;
  /** That disk's size in MB. */
  size: number;
  /** The OS volumes and their minimums in MB. */
  volumes: Array<{ name: string; min_size: number }>;
}

/** A node's layout: what `GET /nodes/{id}/disks` shows and `PUT` saves, plus what checks need. */
export interface NodeLayout {
  disks: LayoutDisk[];
  /** The boot disk's id (Fuel's `bootable`), by `rule_to_pick_boot_disk` or the first disk. */
  boot_disk?: string;
  /** RAM in MB the generators used (swap). */
  ram: number;
  mode: 'running' | 'fuel';
  /** Ids of the node's volumes (from its roles), in allocation order, each with how it is allocated. */
  spaces: Array<{ id: string; allocate_size: AllocateSize }>;
  os?: OsCheck;
}

/** A finding about a layout; `disk` and `volume` name what it is about. */
export interface DiskProblem extends Finding {
  disk?: string;
  volume?: string;
}

/** `GET /nodes/{id}/volumes`: Fuel's `{name, label, min_size}` plus each group's logical volumes. */
export interface VolumeView {
  name: string;
  label: string;
  min_size: number;
  type: string;
  allocate_size: AllocateSize;
  /** Applied on free disks (false: an OS volume, checked only). */
  applied: boolean;
  /** A partition's own mount and filesystem. */
  mount?: string;
  file_system?: string;
  /** A volume group's logical volumes, sizes in MB (null: all that is left, resolved per node). */
  volumes?: Array<{ name: string; mount?: string; file_system?: string; size: number | null }>;
}

/** One entry of a disk's `volumes` in `node_volumes` (Fuel's full format). */
export type FullDiskVolume =
  | { type: 'boot'; size: number }
  | { type: 'lvm_meta_pool'; size: number }
  | {
      type: 'pv';
      vg: string;
      size: number;
      lvm_meta_size: number;
      keep_data?: boolean;
    }
  | {
      type: 'partition' | 'raid';
      name: string;
      size: number;
      mount: string;
      file_system: string;
      disk_label?: string | null;
      partition_guid?: string | null;
      keep_data?: boolean;
    };

export interface FullDisk {
  type: 'disk';
  id: string;
  name: string;
  size: number;
  volumes: FullDiskVolume[];
  free_space: number;
  extra: string[];
  bootable: boolean;
  /** Hearth: the disk holds something and must not be touched (its `volumes` are empty). */
  in_use?: boolean;
  /** Hearth: the operator keeps Hearth off this disk. */
  exclude?: boolean;
}

export interface FullLogicalVolume {
  type: 'lv';
  name: string;
  mount?: string;
  file_system?: string;
  size: number;
  [key: string]: unknown;
}

export interface FullVolumeGroup {
  type: 'vg';
  id: string;
  label?: string;
  min_size: number;
  volumes: FullLogicalVolume[];
  _allocate_size: AllocateSize;
  [key: string]: unknown;
}

/** astute.yaml's `node_volumes`: disks first, then the volume groups. */
export type NodeVolumes = Array<FullDisk | FullVolumeGroup>;
