/**
 * A node's default layout: Fuel's `VolumeManager.gen_volumes_info` over the disks Hearth may touch.
 * Volumes allocated `min` first (each its generator's minimum, spilling over disks in name order),
 * then `full-disk` (every disk nothing else uses), then `all` (what is left, shared equally; the
 * last one takes the rest so no MB is lost to rounding).
 *
 * One departure from Fuel: a partition with a mount point lives on one disk (see `oneDiskOnly`).
 */
import { sizeOf, type GeneratorContext } from './generators.js';
import { allocateOn, isService, newDisk, vgSizeOn, type WorkDisk } from './disk.js';
import type { BootDiskRule, FullDiskVolume, LayoutDisk, LayoutInput, LayoutVolume, NodeDisk, NodeLayout } from './model.js';
import { defaultOsVolumes, nodeSpaces, typeOf, type Space, type VolumeDefinition } from './spaces.js';

/** Fuel sorted a node's disks by name, by code point as Python compares strings. */
export const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Size of a volume (Fuel's `_allocate_size_for_volume`): fill each disk in turn until it is placed. */
function allocateSize(disks: WorkDisk[], space: Space, size: number): void {
  let left = size;
  for (const disk of disks) {
    const take = disk.free >= left ? left : disk.free > 0 ? disk.free : 0;
    allocateOn(disk, space.definition, take);
    left -= take;
  }
}

/**
 * A partition mounted at a path (not `none`, not swap). Fuel's volume manager gave such a volume a
 * partition on every disk it spread over (`all` put one on each disk with free space), so a node
 * got several filesystems for one mount point, of which only one can be mounted. Fuel's own
 * releases never had one (their mounted volumes are logical volumes, their partitions `ceph` and
 * `cephjournal` are unmounted); plugins may. Volume groups and unmounted partitions still spread.
 */
export function oneDiskOnly(definition: VolumeDefinition): boolean {
  const mount = definition.mount;
  return typeOf(definition) === 'partition' && typeof mount === 'string' && mount !== '' && mount !== 'none' && mount !== 'swap';
}

const notUsed = (disk: WorkDisk): boolean => !disk.volumes.some((v) => !isService(v) && v.size > 0);

/** The disk with the most free space, the first in name order on a tie. */
const roomiest = (disks: readonly WorkDisk[]): WorkDisk | undefined =>
  disks.reduce<WorkDisk | undefined>((best, d) => (!best || d.free > best.free ? d : best), undefined);

/**
 * Puts a one-disk volume on `chosen` (`size` MB, at most what it has; all it has when undefined)
 * and a 0 MB entry on every other disk, as Fuel listed every volume on every disk.
 */
function allocateOnOne(disks: readonly WorkDisk[], space: Space, chosen: WorkDisk | undefined, size?: number): void {
  for (const disk of disks) {
    if (disk !== chosen) allocateOn(disk, space.definition, 0);
    else allocateOn(disk, space.definition, size === undefined ? undefined : Math.min(size, Math.max(0, disk.free)));
  }
}

/**
 * A sized one-disk volume (`min`, or a share of `all`): where Fuel's fill in name order would have
 * put it whole (the first disk it fits on), else the disk with the most free space, which takes
 * what it has (the minimum check then says it is too small).
 */
const sizedOnOne = (disks: readonly WorkDisk[], space: Space, size: number): void =>
  allocateOnOne(disks, space, disks.find((d) => d.free >= size) ?? roomiest(disks), size);

function allocate(disks: WorkDisk[], spaces: readonly Space[], ctx: GeneratorContext): void {
  for (const space of spaces) {
    if (space.allocate_size !== 'min') continue;
    const min = Math.max(0, sizeOf(space.definition.min_size, { ...ctx, vg: space.id }));
    if (oneDiskOnly(space.definition)) sizedOnOne(disks, space, min);
    else allocateSize(disks, space, min);
  }
  for (const space of spaces) {
    if (space.allocate_size !== 'full-disk') continue;
    // Fuel gave every disk nothing else uses; one of them (the largest) for a one-disk volume.
    if (oneDiskOnly(space.definition)) allocateOnOne(disks, space, roomiest(disks.filter(notUsed)));
    else for (const disk of disks) allocateOn(disk, space.definition, notUsed(disk) ? undefined : 0);
  }
  const all = spaces.filter((s) => s.allocate_size === 'all');
  if (all.length > 1) {
    const share = Math.floor(disks.reduce((sum, d) => sum + d.free, 0) / all.length);
    for (const space of all.slice(0, -1)) {
      if (oneDiskOnly(space.definition)) sizedOnOne(disks, space, share);
      else allocateSize(disks, space, share);
    }
  }
  const last = all.at(-1);
  if (!last) return;
  // Fuel gave every disk with free space; a one-disk volume takes the roomiest one whole.
  if (oneDiskOnly(last.definition)) allocateOnOne(disks, last, roomiest(disks.filter((d) => d.free > 0)));
  else for (const disk of disks) allocateOn(disk, last.definition, disk.free > 0 ? undefined : 0);
}

/** Fuel's simple format of a laid-out disk: what volumes may take and each volume's share. */
export function simpleVolumes(volumes: readonly FullDiskVolume[], types: ReadonlyMap<string, string>): { reserved: number; volumes: LayoutVolume[] } {
  let reserved = 0;
  const out: LayoutVolume[] = [];
  for (const v of volumes) {
    if (isService(v)) {
      reserved += v.size;
      continue;
    }
    if (v.type === 'pv') {
      reserved += v.lvm_meta_size;
      out.push({ name: v.vg, size: Math.max(0, v.size - v.lvm_meta_size), type: 'vg' });
    } else if (v.type === 'partition' || v.type === 'raid') {
      out.push({ name: v.name, size: v.size, type: (types.get(v.name) as LayoutVolume['type']) ?? v.type });
    }
  }
  return { reserved, volumes: out };
}

const safeRegex = (source: string): RegExp | undefined => {
  try {
    return new RegExp(`^(?:${source})`);
  } catch {
    return undefined;
  }
};

/**
 * The boot disk: the one holding `/` on a running node; otherwise Fuel's
 * `pick_default_bootable_disk` (the root disk when its name matches a
 * `pick_root_disk_if_disk_name_match` rule, else the first disk no `exclude_disks_by_name` rule
 * matches, else the first disk).
 */
export function pickBootDisk(disks: readonly NodeDisk[], rules: readonly BootDiskRule[], rootDiskId?: string): string | undefined {
  const root = disks.find((d) => d.holdsRoot) ?? disks.find((d) => d.id === rootDiskId);
  if (root?.holdsRoot) return root.id;
  for (const rule of rules) {
    if (rule?.type !== 'pick_root_disk_if_disk_name_match' || !root) continue;
    if (safeRegex(String(rule.regex))?.test(root.name)) return root.id;
  }
  let candidates = [...disks];
  for (const rule of rules) {
    if (rule?.type !== 'exclude_disks_by_name') continue;
    const re = safeRegex(String(rule.regex));
    if (re) candidates = candidates.filter((d) => !re.test(d.name));
  }
  return (candidates[0] ?? disks[0])?.id;
}

/** The disks volumes may go on, in Fuel's order. */
export const usableDisks = (disks: readonly NodeDisk[], mode: 'running' | 'fuel'): NodeDisk[] =>
  [...disks].sort(byName).filter((d) => mode === 'fuel' || (!d.inUse && !d.exclude && !d.holdsRoot));

/** What a layout is computed from, worked out once. */
export interface LayoutPlan {
  mode: 'running' | 'fuel';
  ram: number;
  sorted: NodeDisk[];
  usable: NodeDisk[];
  spaces: Space[];
  applied: Space[];
  os: Space[];
  missing: string[];
  rootDiskSize: number;
  vgCount: number;
  types: Map<string, string>;
}

export function planOf(input: LayoutInput): LayoutPlan {
  const mode = input.mode ?? 'running';
  const sorted = [...input.disks].sort(byName);
  const usable = usableDisks(sorted, mode);
  const { spaces, missing } = nodeSpaces(input.volumes, input.roles, mode === 'fuel' ? sorted.length : usable.length, input.imagesCeph);
  const osIds = new Set(input.osVolumes ?? defaultOsVolumes(input.volumes));
  const applied = mode === 'fuel' ? spaces : spaces.filter((s) => !osIds.has(s.id));
  const os = mode === 'fuel' ? [] : spaces.filter((s) => osIds.has(s.id));
  const rootDisk = mode === 'fuel' ? sorted[0] : (sorted.find((d) => d.holdsRoot) ?? sorted[0]);
  const types = new Map(spaces.map((s) => [s.id, typeOf(s.definition)]));
  const vgCount = applied.filter((s) => typeOf(s.definition) === 'vg').length;
  return { mode, ram: input.ram ?? 0, sorted, usable, spaces, applied, os, missing, rootDiskSize: Math.floor(rootDisk?.size ?? 0), vgCount, types };
}

export const contextOf = (plan: LayoutPlan, disks: readonly { volumes: readonly FullDiskVolume[] }[]): GeneratorContext => ({
  ram: plan.ram,
  rootDiskSize: plan.rootDiskSize,
  vgSize: (vg) => vgSizeOn(disks, vg),
});

/** The untouched form of a disk volumes may not go on. */
const keptDisk = (d: NodeDisk): LayoutDisk => {
  const out: LayoutDisk = { id: d.id, name: d.name, size: Math.floor(d.size), disk_size: Math.floor(d.size), in_use: d.inUse, volumes: [] };
  if (d.exclude) out.exclude = true;
  if (d.holdsRoot) out.holds_root = true;
  return out;
};

/** The default layout of a node (Fuel's `gen_volumes_info`, Hearth's disks). */
export function defaultLayout(input: LayoutInput): NodeLayout {
  const plan = planOf(input);
  const work = plan.usable.map((d) => newDisk(d.id, d.name, Math.floor(d.size), plan.mode, plan.usable.length > 1, plan.vgCount));
  allocate(work, plan.applied, contextOf(plan, work));
  const byId = new Map(work.map((w) => [w.id, w]));
  const disks = plan.sorted.map((d): LayoutDisk => {
    const w = byId.get(d.id);
    if (!w) return keptDisk(d);
    const { reserved, volumes } = simpleVolumes(w.volumes, plan.types);
    const out: LayoutDisk = { id: d.id, name: d.name, size: Math.max(0, w.size - reserved), disk_size: w.size, in_use: plan.mode === 'fuel' ? false : d.inUse, volumes };
    if (d.holdsRoot) out.holds_root = true;
    return out;
  });
  const layout: NodeLayout = {
    disks,
    ram: plan.ram,
    mode: plan.mode,
    spaces: plan.applied.map((s) => ({ id: s.id, allocate_size: s.allocate_size })),
  };
  const boot = pickBootDisk(plan.sorted, input.volumes.rule_to_pick_boot_disk ?? []);
  if (boot !== undefined) layout.boot_disk = boot;
  if (plan.os.length) {
    const root = plan.sorted.find((d) => d.holdsRoot);
    const ctx = contextOf(plan, []);
    layout.os = {
      size: Math.floor(root?.size ?? 0),
      volumes: plan.os.map((s) => ({ name: s.id, min_size: sizeOf(s.definition.min_size, { ...ctx, vg: s.id }) })),
    };
    if (root) layout.os.disk = root.id;
  }
  return layout;
}
