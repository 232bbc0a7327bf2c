/**
 * Which volumes a node gets from its roles: Fuel 9.0's `get_node_spaces`, and which of them only a
 * reinstall would create (the OS volumes Hearth checks but never applies).
 */
import type { AllocateSize, LayoutVolumesMetadata } from './model.js';

export type VolumeDefinition = Record<string, unknown> & { id: string };

/** One of a node's volumes: its definition and how its role allocates it. */
export interface Space {
  id: string;
  allocate_size: AllocateSize;
  definition: VolumeDefinition;
}

export interface NodeSpaces {
  spaces: Space[];
  /** Volume ids a mapping of the node's roles names that no volume defines (Fuel failed on them). */
  missing: string[];
  /** True when no role had a mapping and the release's `other` mapping was used. */
  usedOther: boolean;
}

const ALLOCATE_SIZES: readonly string[] = ['min', 'all', 'full-disk'];

const allocateSizeOf = (value: unknown): AllocateSize =>
  typeof value === 'string' && ALLOCATE_SIZES.includes(value) ? (value as AllocateSize) : 'min';

/**
 * The node's volumes, in Fuel's order: each role's mapping in turn, a volume once (its first
 * mapping's `allocate_size` wins). A role without a mapping adds nothing; when nothing is left the
 * release's `other` mapping is used. `full-disk` becomes `all` when only one disk can take volumes
 * (Fuel: a single-disk node). `imagesCeph` drops the controller's `image` volume as Fuel's
 * `exclude_glance_partition` did.
 */
export function nodeSpaces(
  volumes: LayoutVolumesMetadata,
  roles: readonly string[],
  usableDisks: number,
  imagesCeph = false,
): NodeSpaces {
  const byId = new Map<string, VolumeDefinition>();
  for (const v of volumes.volumes ?? []) if (v && typeof v.id === 'string' && !byId.has(v.id)) byId.set(v.id, v);
  const mapping = volumes.volumes_roles_mapping ?? {};
  const spaces: Space[] = [];
  const seen = new Set<string>();
  const missing: string[] = [];
  const add = (role: string) => {
    for (const alloc of mapping[role] ?? []) {
      if (!alloc || typeof alloc.id !== 'string') continue;
      if (imagesCeph && role === 'controller' && alloc.id === 'image') continue;
      if (seen.has(alloc.id)) continue;
      const definition = byId.get(alloc.id);
      if (!definition) {
        if (!missing.includes(alloc.id)) missing.push(alloc.id);
        continue;
      }
      seen.add(alloc.id);
      let allocate_size = allocateSizeOf(alloc.allocate_size);
      if (allocate_size === 'full-disk' && usableDisks === 1) allocate_size = 'all';
      spaces.push({ id: alloc.id, allocate_size, definition });
    }
  };
  for (const role of roles) if (Object.hasOwn(mapping, role)) add(role);
  let usedOther = false;
  // Fuel did this for a node without roles too: its layout was `other`'s.
  if (spaces.length === 0) {
    usedOther = true;
    add('other');
  }
  return { spaces, missing, usedOther };
}

const OS_MOUNTS: readonly string[] = ['/', '/boot', 'swap'];

/**
 * The volumes only a reinstall would create: `os`, any volume marked `os: true`, and any volume
 * (or logical volume of a group) mounting `/`, `/boot` or swap.
 */
export function defaultOsVolumes(volumes: LayoutVolumesMetadata): string[] {
  const ids: string[] = [];
  for (const v of volumes.volumes ?? []) {
    if (!v || typeof v.id !== 'string') continue;
    const lvs = Array.isArray(v.volumes) ? (v.volumes as Array<{ mount?: unknown }>) : [];
    const mounts = [v.mount, ...lvs.map((lv) => lv?.mount)];
    if (v.id === 'os' || v.os === true || mounts.some((m) => typeof m === 'string' && OS_MOUNTS.includes(m))) ids.push(v.id);
  }
  return ids;
}

/** A volume's label, as Fuel's messages name it. */
export const labelOf = (definition: VolumeDefinition): string =>
  typeof definition.label === 'string' ? definition.label : definition.id;

/** A volume's type: `vg`, `partition`, `raid` (others are not allocated, as in Fuel). */
export const typeOf = (definition: VolumeDefinition): string => (typeof definition.type === 'string' ? definition.type : 'vg');
