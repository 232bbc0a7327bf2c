/**
 * What others read of a layout: astute.yaml's `node_volumes` (Fuel's full format, so tasks written
 * for Fuel read it unchanged) and `GET /nodes/{id}/volumes` (Fuel's volumes information).
 */
import { planOf } from './allocate.js';
import { createPartition, createPv, newDisk, vgSizeOn } from './disk.js';
import { sizeOf, type GeneratorContext } from './generators.js';
import type { FullDisk, FullLogicalVolume, FullVolumeGroup, LayoutInput, LayoutVolumesMetadata, NodeLayout, NodeVolumes, VolumeView } from './model.js';
import { defaultOsVolumes, labelOf, typeOf, type VolumeDefinition } from './spaces.js';

export const definitionsOf = (volumes: LayoutVolumesMetadata): Map<string, VolumeDefinition> => {
  const defs = new Map<string, VolumeDefinition>();
  for (const v of volumes.volumes ?? []) if (v && typeof v.id === 'string' && !defs.has(v.id)) defs.set(v.id, v);
  return defs;
};

/** Fuel's `expand_generators`: every `{generator, generator_args}` inside a value becomes its size. */
function expand(value: unknown, ctx: GeneratorContext): unknown {
  if (Array.isArray(value)) return value.map((v) => expand(v, ctx));
  if (value && typeof value === 'object') {
    if (typeof (value as { generator?: unknown }).generator === 'string') return sizeOf(value, ctx);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expand(v, ctx);
    return out;
  }
  return value;
}

const rootDiskSize = (layout: NodeLayout): number => {
  const root = layout.mode === 'fuel' ? layout.disks[0] : (layout.disks.find((d) => d.holds_root) ?? layout.disks[0]);
  return root?.disk_size ?? 0;
};

/** The full-format disks of a layout (Fuel's `format_disks_to_full`). */
export function fullDisks(layout: NodeLayout, defs: ReadonlyMap<string, VolumeDefinition>): FullDisk[] {
  const vgCount = layout.spaces.filter((s) => defs.has(s.id) && typeOf(defs.get(s.id)!) === 'vg').length;
  const usable = layout.disks.filter((d) => layout.mode === 'fuel' || (!d.in_use && !d.exclude && !d.holds_root));
  const bootIsRaid = (layout.mode === 'fuel' ? layout.disks.length : usable.length) > 1;
  return layout.disks.map((d): FullDisk => {
    const bootable = d.id === layout.boot_disk;
    if (!usable.includes(d)) {
      const kept: FullDisk = { type: 'disk', id: d.id, name: d.name, size: d.disk_size, volumes: [], free_space: 0, extra: [], bootable, in_use: true };
      if (d.exclude) kept.exclude = true;
      return kept;
    }
    const w = newDisk(d.id, d.name, d.disk_size, layout.mode, bootIsRaid, vgCount);
    for (const v of d.volumes) {
      const def = defs.get(v.name);
      if (!def) continue;
      const type = typeOf(def);
      if (type === 'vg') createPv(w, v.name, v.size);
      else if (type === 'partition' || type === 'raid') createPartition(w, def, v.size, type);
    }
    return { type: 'disk', id: d.id, name: d.name, size: d.disk_size, volumes: w.volumes, free_space: w.free, extra: [], bootable };
  });
}

/** astute.yaml's `node_volumes`: the disks, then each volume group with its logical volumes sized. */
export function nodeVolumes(layout: NodeLayout, volumes: LayoutVolumesMetadata): NodeVolumes {
  const defs = definitionsOf(volumes);
  const disks = fullDisks(layout, defs);
  const base: GeneratorContext = { ram: layout.ram, rootDiskSize: rootDiskSize(layout), vgSize: (vg) => vgSizeOn(disks, vg) };
  const groups: FullVolumeGroup[] = [];
  for (const space of layout.spaces) {
    const def = defs.get(space.id);
    if (!def || typeOf(def) !== 'vg') continue;
    const vg = expand(def, { ...base, vg: space.id }) as FullVolumeGroup;
    vg.type = 'vg';
    vg.volumes = Array.isArray(vg.volumes) ? (vg.volumes as FullLogicalVolume[]) : [];
    vg._allocate_size = space.allocate_size;
    groups.push(vg);
  }
  return [...disks, ...groups];
}

/**
 * `GET /nodes/{id}/volumes`: the node's volumes from its roles, each with Fuel's `name`, `label`,
 * `min_size`, and a group's logical volumes with their mounts and sizes. Sizes that depend on the
 * layout (`calc_total_vg`, `calc_total_root_vg`) are the layout's when one is given, null otherwise.
 * The third argument is the node (its disks, RAM, layout), or only its RAM in MB.
 */
export function volumesView(
  volumes: LayoutVolumesMetadata,
  roles: string[],
  nodeOrRam: number | (Partial<LayoutInput> & { layout?: NodeLayout }) = {},
): VolumeView[] {
  const node = typeof nodeOrRam === 'number' ? { ram: nodeOrRam } : nodeOrRam;
  const input: LayoutInput = { ...node, disks: node.disks ?? [], roles, volumes };
  const plan = planOf(input);
  const osIds = new Set(node.osVolumes ?? defaultOsVolumes(volumes));
  const full = node.layout ? fullDisks(node.layout, definitionsOf(volumes)) : undefined;
  const ctx: GeneratorContext = { ram: node.ram ?? 0, rootDiskSize: plan.rootDiskSize, vgSize: (vg) => (full ? vgSizeOn(full, vg) : 0) };
  const dependsOnLayout = (size: unknown, applied: boolean) =>
    (!full || !applied) && !!size && typeof size === 'object' && ['calc_total_vg', 'calc_total_root_vg'].includes(String((size as { generator?: unknown }).generator));
  return plan.spaces.map((s) => {
    const def = s.definition;
    const type = typeOf(def);
    const applied = plan.mode === 'fuel' || !osIds.has(s.id);
    const view: VolumeView = {
      name: s.id,
      label: labelOf(def),
      min_size: sizeOf(def.min_size, { ...ctx, vg: s.id }),
      type,
      allocate_size: s.allocate_size,
      applied,
    };
    if (type === 'vg') {
      const lvs = Array.isArray(def.volumes) ? (def.volumes as Array<Record<string, unknown>>) : [];
      view.volumes = lvs.map((lv) => {
        const out: NonNullable<VolumeView['volumes']>[number] = {
          name: String(lv.name ?? ''),
          size: dependsOnLayout(lv.size, applied) ? null : sizeOf(lv.size, { ...ctx, vg: s.id }),
        };
        if (typeof lv.mount === 'string') out.mount = lv.mount;
        if (typeof lv.file_system === 'string') out.file_system = lv.file_system;
        return out;
      });
    } else {
      if (typeof def.mount === 'string') view.mount = def.mount;
      if (typeof def.file_system === 'string') view.file_system = def.file_system;
    }
    return view;
  });
}
