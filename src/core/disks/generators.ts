/**
 * Fuel's size generators (`VolumeManager.call_generator`), in MB. A volume's `min_size` and a
 * logical volume's `size` are either numbers or `{generator, generator_args}`; these compute them.
 *
 * The table is Fuel 9.0's, plus the generators earlier Fuel releases shipped in their own fixtures
 * (a plugin written for them may still name one): `calc_min_log_size` (7.0's /var/log),
 * `calc_min_controller_log_size` and `calc_min_controller_var_size` (the same change's first form).
 */

/** What a generator may read about the node being laid out. */
export interface GeneratorContext {
  /** Total RAM in MB. */
  ram: number;
  /** Size in MB of the disk `calc_root_size` is taken from (Fuel: the first disk by name). */
  rootDiskSize: number;
  /** MB of a volume group's physical volumes, without their LVM metadata (Fuel's `_calc_total_vg`). */
  vgSize(vg: string): number;
  /** The volume group being expanded, for `calc_total_vg` written without arguments. */
  vg?: string;
}

const gbToMb = (gb: number): number => Math.trunc(gb * 1024);

/**
 * Swap from RAM, Red Hat's table as Fuel had it: ≤ 2 GB: twice the RAM; ≤ 8 GB: the RAM;
 * ≤ 64 GB: half the RAM; above: 4 GB.
 */
export function calcSwapSize(ramMb: number): number {
  const mem = Math.trunc(ramMb);
  if (mem <= 2048) return 2 * mem;
  if (mem <= 8192) return mem;
  if (mem <= 65536) return Math.trunc(0.5 * mem);
  return gbToMb(4);
}

/** Root: 20% of the first disk, at least 15 GB and at most 50 GB. */
export function calcRootSize(diskMb: number): number {
  const size = Math.trunc(diskMb * 0.2);
  return Math.min(Math.max(size, gbToMb(15)), gbToMb(50));
}

type Generator = (ctx: GeneratorContext, args: readonly unknown[]) => number;

const constant = (mb: number): Generator => () => mb;
const osSize: Generator = (ctx) => calcRootSize(ctx.rootDiskSize) + calcSwapSize(ctx.ram);

const table: Record<string, Generator> = {
  calc_swap_size: (ctx) => calcSwapSize(ctx.ram),
  calc_root_size: (ctx) => calcRootSize(ctx.rootDiskSize),
  calc_boot_size: constant(200),
  calc_boot_records_size: constant(300),
  calc_mbr_size: constant(10),
  calc_lvm_meta_size: constant(64),
  // Fuel required the group's name; Hearth's release writes it bare inside the group it sizes.
  calc_total_vg: (ctx, args) => ctx.vgSize(typeof args[0] === 'string' ? args[0] : (ctx.vg ?? '')),
  calc_total_root_vg: (ctx) => ctx.vgSize('os') - calcSwapSize(ctx.ram),
  calc_min_vm_size: constant(gbToMb(5)),
  calc_min_glance_size: constant(gbToMb(5)),
  calc_min_cinder_size: constant(gbToMb(1.5)),
  calc_min_mongo_size: constant(gbToMb(10)),
  calc_min_ceph_size: constant(gbToMb(3)),
  calc_min_ceph_journal_size: constant(0),
  calc_min_mysql_size: constant(gbToMb(20)),
  calc_gb_to_mb: (_ctx, args) => gbToMb(Number(args[0] ?? 0)),
  calc_os_size: osSize,
  calc_os_vg_size: osSize,
  calc_min_os_size: osSize,
  calc_min_log_size: constant(gbToMb(10)),
  calc_min_controller_log_size: constant(gbToMb(10)),
  calc_min_controller_var_size: constant(gbToMb(15)),
};

/** Every generator name Fuel shipped, for the validator and the docs. */
export const FUEL_GENERATORS: readonly string[] = Object.freeze(Object.keys(table));

export const isFuelGenerator = (name: string): boolean => Object.hasOwn(table, name);

/** A generator's value, or undefined when Fuel had no such generator. */
export function callGenerator(name: string, args: readonly unknown[], ctx: GeneratorContext): number | undefined {
  const g = Object.hasOwn(table, name) ? table[name] : undefined;
  return g ? g(ctx, args) : undefined;
}

/**
 * A size as written in volumes metadata: a number, or `{generator, generator_args}`. An unknown
 * generator or a size that is neither counts as 0 (the checks report the name).
 */
export function sizeOf(value: unknown, ctx: GeneratorContext): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const { generator, generator_args } = value as { generator?: unknown; generator_args?: unknown };
    if (typeof generator === 'string') {
      return callGenerator(generator, Array.isArray(generator_args) ? generator_args : [], ctx) ?? 0;
    }
  }
  return 0;
}

/** The generator a size names, when it names one Fuel did not have. */
export function unknownGenerator(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { generator } = value as { generator?: unknown };
  return typeof generator === 'string' && !isFuelGenerator(generator) ? generator : undefined;
}

/**
 * Fuel's `calc_glance_cache_size`: 10% of the glance logical volume (in the `image` group), at least
 * 5 GB; a string of bytes as astute.yaml carried it; '0' when there is no glance volume (Fuel's fix
 * after 9.0: 9.0 said 5 GB for a node whose images live in Ceph).
 */
export function glanceCacheSize(vgs: ReadonlyArray<{ type: string; id?: string; volumes?: ReadonlyArray<{ name?: string; size?: number }> }>): string {
  let glanceMb = 0;
  for (const vg of vgs) {
    if (vg.type !== 'vg' || vg.id !== 'image') continue;
    for (const lv of vg.volumes ?? []) if (lv.name === 'glance') glanceMb += lv.size ?? 0;
  }
  if (glanceMb === 0) return '0';
  return String(Math.max(Math.trunc(0.1 * glanceMb * 1024 * 1024), 5 * 1024 ** 3));
}
