/**
 * Checks of a layout, as Fuel's `check_volume_sizes_for_deployment` and its disks validator did, and
 * the operator's saved sizes laid over fresh defaults.
 */
import { oneDiskOnly, planOf } from './allocate.js';
import { formatMiB } from '../text/sizes.js';
import { LVM_META_MB } from './disk.js';
import { sizeOf, unknownGenerator, type GeneratorContext } from './generators.js';
import type { DiskProblem, LayoutDisk, LayoutInput, LayoutVolume, NodeLayout } from './model.js';
import { labelOf, type VolumeDefinition } from './spaces.js';

/** What the operator saved: disks by id with their volumes' sizes. */
export type SavedLayout = Array<Pick<LayoutDisk, 'id'> & { volumes: Array<{ name: string; size: number; keep_data?: boolean }> }>;

export interface AppliedLayout {
  layout: NodeLayout;
  problems: DiskProblem[];
}

function problem(code: string, severity: DiskProblem['severity'], message: string, hint: string, about: { disk?: string; volume?: string } = {}): DiskProblem {
  const p: DiskProblem = { code, severity, message, hint };
  if (about.disk !== undefined) p.disk = about.disk;
  if (about.volume !== undefined) p.volume = about.volume;
  return p;
}

/**
 * Fuel's words for a volume below its minimum, kept as Fuel wrote them ("N MB": tools and people
 * grep for them); every other size said to people is in binary units (formatMiB), as in the CLI and UI.
 */
export const belowMinimum = (label: string, min: number): string => `Volume group '${label}' requires a minimum of ${min} MB`;

const validSize = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

function generatorProblems(def: VolumeDefinition): DiskProblem[] {
  const out: DiskProblem[] = [];
  const lvs = Array.isArray(def.volumes) ? (def.volumes as Array<{ size?: unknown }>) : [];
  for (const size of [def.min_size, ...lvs.map((lv) => lv?.size)]) {
    const name = unknownGenerator(size);
    if (name) out.push(problem('disks/unknown-generator', 'warning', `volume '${def.id}' is sized by generator '${name}', which Fuel did not have: it counts as 0 MB`, 'use one of the generators listed in docs/plugin-guide.md', { volume: def.id }));
  }
  return out;
}

/**
 * A layout's problems: each volume's total across the free disks below its minimum (Fuel counted a
 * physical volume with its LVM metadata), the OS volumes against the disk holding `/`, a disk given
 * more than it has, volumes on a disk in use or excluded, volume names the node's roles do not bring,
 * a mounted partition on more than one disk.
 */
export function checkLayout(layout: NodeLayout, input: LayoutInput): DiskProblem[] {
  const plan = planOf({ ...input, mode: layout.mode });
  const out: DiskProblem[] = [];
  for (const id of plan.missing) {
    out.push(problem('disks/unknown-volume-id', 'warning', `a role of this node maps volume '${id}', which no volume of the release or its plugins defines: it is left out`, 'define the volume in volumes.yaml or remove it from volumes_roles_mapping', { volume: id }));
  }
  const ctx: GeneratorContext = { ram: layout.ram, rootDiskSize: plan.rootDiskSize, vgSize: () => 0 };
  const known = new Set(layout.spaces.map((s) => s.id));
  const totals = new Map<string, number>();
  for (const disk of layout.disks) {
    let used = 0;
    const placed: string[] = [];
    for (const v of disk.volumes) {
      if (!validSize(v.size)) {
        out.push(problem('disks/invalid-size', 'error', `disk '${disk.name}': volume '${v.name}' has size ${JSON.stringify(v.size)}`, 'give a whole number of MB, 0 or more', { disk: disk.id, volume: v.name }));
        continue;
      }
      used += v.size;
      if (v.size > 0) placed.push(v.name);
      if (!known.has(v.name)) {
        out.push(problem('disks/unknown-volume', 'error', `disk '${disk.name}': '${v.name}' is not a volume of this node's roles (its volumes: ${[...known].join(', ') || 'none'})`, 'use the names GET /nodes/{id}/volumes lists', { disk: disk.id, volume: v.name }));
        continue;
      }
      const meta = v.type === 'vg' || plan.types.get(v.name) === 'vg' ? LVM_META_MB : 0;
      totals.set(v.name, (totals.get(v.name) ?? 0) + v.size + (v.size > 0 ? meta : 0));
    }
    const untouchable = layout.mode !== 'fuel' && (disk.in_use || disk.exclude);
    if (untouchable && placed.length) {
      const why = disk.exclude ? 'is excluded' : 'is in use';
      out.push(problem('disks/disk-in-use', 'error', `disk '${disk.name}' ${why}, yet ${placed.join(', ')} ${placed.length === 1 ? 'is' : 'are'} placed on it`, 'place the volumes on the free disks', { disk: disk.id }));
    } else if (used > disk.size) {
      out.push(problem('disks/disk-overfull', 'error', `disk '${disk.name}' is given ${formatMiB(used)} of volumes but has ${formatMiB(disk.size)} for them`, `make its volumes add up to ${formatMiB(disk.size)} or less`, { disk: disk.id }));
    }
  }
  for (const space of plan.applied) {
    if (!oneDiskOnly(space.definition)) continue;
    const on = layout.disks.filter((d) => d.volumes.some((v) => v.name === space.id && validSize(v.size) && v.size > 0));
    if (on.length > 1) {
      const names = on.map((d) => d.name);
      out.push(problem('disks/mount-on-several-disks', 'error', `${labelOf(space.definition)} ('${space.id}') is mounted at ${String(space.definition.mount)}, so it lives on one disk only, yet it is placed on ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`, `give it 0 MB on every disk but one; one mount point takes one filesystem`, { volume: space.id }));
    }
  }
  for (const space of plan.applied) {
    out.push(...generatorProblems(space.definition));
    const min = sizeOf(space.definition.min_size, { ...ctx, vg: space.id });
    if ((totals.get(space.id) ?? 0) < min) {
      const free = layout.disks.filter((d) => layout.mode === 'fuel' || (!d.in_use && !d.exclude));
      if (!free.length) {
        // Hearth never reinstalls a running machine: with no free disk at all, nothing is laid
        // out and the volume's data stays on the node's existing filesystems. Said, not refused;
        // free disks too small for it are refused (below).
        out.push(problem('disks/no-free-disk', 'warning', `${labelOf(space.definition)} ('${space.id}') gets no volume of its own: the node has no free disk, so it stays on the existing filesystems`, `add a free disk of at least ${formatMiB(min)} to give it one`, { volume: space.id }));
        continue;
      }
      const where = `its free disks (${free.map((d) => d.name).join(', ')}) give it ${formatMiB(totals.get(space.id) ?? 0)}`;
      out.push(problem('disks/too-small', 'error', belowMinimum(labelOf(space.definition), min), `${where}: give '${space.id}' more space, or add a disk`, { volume: space.id }));
    }
  }
  if (layout.os) {
    for (const space of plan.os) out.push(...generatorProblems(space.definition));
    const need = layout.os.volumes.reduce((s, v) => s + v.min_size, 0);
    if (layout.os.disk !== undefined && layout.os.size < need) {
      const label = plan.os.map((s) => labelOf(s.definition)).join("', '");
      out.push(problem('disks/too-small', 'error', belowMinimum(label, need), `the disk holding / ('${layout.os.disk}') has ${formatMiB(layout.os.size)}; Hearth does not reinstall, so this node needs a larger system disk`, { disk: layout.os.disk, volume: layout.os.volumes[0]?.name }));
    }
  }
  return out;
}

/**
 * The operator's saved sizes over fresh defaults (after a role or disk change): each disk keeps its
 * saved sizes where they still fit (volumes the roles no longer bring dropped, new ones at their
 * defaults), and falls back to its defaults, reported, where they do not.
 */
export function applyOperatorSizes(defaults: NodeLayout, saved: SavedLayout, input: LayoutInput): AppliedLayout {
  void input;
  const problems: DiskProblem[] = [];
  const savedById = new Map(saved.map((d) => [d.id, d]));
  const known = new Set(defaults.spaces.map((s) => s.id));
  const disks = defaults.disks.map((disk): LayoutDisk => {
    const mine = savedById.get(disk.id);
    if (!mine) {
      if (saved.length && disk.volumes.some((v) => v.size > 0)) {
        problems.push(problem('disks/saved-layout-new-disk', 'warning', `disk '${disk.name}' is not in the saved layout: it gets the default layout`, 'save the layout again to set its sizes', { disk: disk.id }));
      }
      return disk;
    }
    const wanted = new Map<string, { size: number; keep_data?: boolean }>();
    for (const v of Array.isArray(mine.volumes) ? mine.volumes : []) {
      if (!known.has(v.name)) {
        if (validSize(v.size) && v.size > 0) problems.push(problem('disks/saved-volume-dropped', 'warning', `disk '${disk.name}': '${v.name}' is no longer a volume of this node's roles; its ${formatMiB(v.size)} are laid out again`, 'save the layout again', { disk: disk.id, volume: v.name }));
        continue;
      }
      wanted.set(v.name, v);
    }
    const untouchable = defaults.mode !== 'fuel' && (disk.in_use || disk.exclude);
    if (untouchable) {
      const placed = [...wanted].filter(([, v]) => validSize(v.size) && v.size > 0).map(([n]) => n);
      if (placed.length) problems.push(problem('disks/saved-layout-does-not-fit', 'warning', `disk '${disk.name}' is ${disk.exclude ? 'excluded' : 'in use'} now: the saved ${placed.join(', ')} on it ${placed.length === 1 ? 'is' : 'are'} dropped`, 'place these volumes on the free disks and save again', { disk: disk.id }));
      return disk;
    }
    const bad = [...wanted].find(([, v]) => !validSize(v.size));
    if (bad) {
      problems.push(problem('disks/invalid-size', 'error', `disk '${disk.name}': volume '${bad[0]}' has size ${JSON.stringify(bad[1].size)}`, 'give a whole number of MB, 0 or more', { disk: disk.id, volume: bad[0] }));
      return disk;
    }
    const volumes = disk.volumes.map((v): LayoutVolume => {
      const w = wanted.get(v.name);
      if (!w) return v;
      const out: LayoutVolume = { ...v, size: w.size };
      if (w.keep_data !== undefined) out.keep_data = w.keep_data;
      return out;
    });
    const used = volumes.reduce((s, v) => s + v.size, 0);
    if (used > disk.size) {
      problems.push(problem('disks/disk-overfull', 'error', `disk '${disk.name}' is given ${formatMiB(used)} of volumes but has ${formatMiB(disk.size)} for them: it keeps its default layout`, `make its volumes add up to ${formatMiB(disk.size)} or less`, { disk: disk.id }));
      return disk;
    }
    return { ...disk, volumes };
  });
  for (const d of saved) {
    if (!defaults.disks.some((x) => x.id === d.id)) {
      problems.push(problem('disks/saved-disk-gone', 'warning', `disk '${d.id}' of the saved layout is no longer on the node`, 'save the layout again', { disk: d.id }));
    }
  }
  return { layout: { ...defaults, disks }, problems };
}
