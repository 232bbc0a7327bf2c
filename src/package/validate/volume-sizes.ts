/**
 * A plugin's volume sizes against the release it targets, with the generators core/disks lays
 * nodes out with: a minimum no disk of the release's smallest supported size could hold, and a role
 * whose volumes need more together than such a disk gives (what a `full-disk` volume would get).
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { sizeOf, type GeneratorContext } from '../../core/disks/index.js';
import { isMapping, type ValidationContext } from './context.js';

/**
 * The smallest disk a node of the release may have, in MB: the release's `min_disk_size` (in its
 * volumes metadata) when it says, else 50 GiB, the disk Fuel 9.0's documentation asked of a node.
 */
export const DEFAULT_SMALLEST_DISK_MB = 50 * 1024;
/** What Fuel reserved on every disk before volumes: boot records, /boot, one LVM metadata slot. */
const SERVICE_MB = 300 + 200 + 64;

type Volume = Record<string, unknown> & { id: string };

export function checkVolumeSizes(ctx: ValidationContext, pluginVolumes: ReadonlyArray<Record<string, unknown>>, mapping: Record<string, unknown>, volumesFile: string): void {
  const declared = (ctx.release?.volumes_metadata as { min_disk_size?: unknown } | undefined)?.min_disk_size;
  const smallest = typeof declared === 'number' && declared > 0 ? declared : DEFAULT_SMALLEST_DISK_MB;
  const usable = smallest - SERVICE_MB;
  const which = ctx.release ? `release ${ctx.release.name}` : 'Fuel';
  // A node at its smallest: the smallest disk, no RAM counted (so no swap): minimums at their least.
  const node: GeneratorContext = { ram: 0, rootDiskSize: smallest, vgSize: () => 0 };
  const byId = new Map<string, Volume>();
  // Without a release, Fuel's own 'os' volume (the one every role maps) still counts.
  if (!ctx.release) byId.set('os', { id: 'os', min_size: { generator: 'calc_min_os_size' } });
  for (const v of ctx.release?.volumes_metadata?.volumes ?? []) byId.set(v.id, v);
  for (const v of pluginVolumes) if (typeof v.id === 'string') byId.set(v.id, v as Volume);
  const minOf = (v: Volume) => Math.max(0, sizeOf(v.min_size, { ...node, vg: v.id }));

  for (const v of pluginVolumes) {
    if (typeof v.id !== 'string') continue;
    const min = minOf(v as Volume);
    if (min > usable) {
      ctx.findings.push(
        finding('volumes/minimum-too-large', 'warning', `volume '${v.id}' needs at least ${min} MB, more than a disk of ${which}'s smallest supported size (${smallest} MB) holds after boot space (${usable} MB)`, positionOf(v, 'min_size') ?? positionOf(v, 'id'), 'lower min_size, or state in the documentation that its nodes need larger disks'),
      );
    }
  }
  for (const [role, list] of Object.entries(mapping)) {
    if (!Array.isArray(list)) continue;
    let total = 0;
    for (const entry of list) {
      if (!isMapping(entry) || typeof entry.id !== 'string') continue;
      const v = byId.get(entry.id);
      if (v) total += minOf(v);
    }
    if (total > usable) {
      ctx.findings.push(
        finding('volumes/role-needs-more-than-a-disk', 'warning', `role '${role}' needs ${total} MB for its volumes' minimums together, more than a whole disk of ${which}'s smallest supported size gives (${usable} MB of ${smallest} MB)`, keyPositionOf(mapping, role) ?? { file: volumesFile }, 'lower the minimums, or say that nodes with this role need several or larger disks'),
      );
    }
  }
}
