/**
 * A node's disks and volumes, between the store and core/disks (issue 26): its disks from its facts
 * (a simulated node's from its `hardware`), its roles, the volumes of its environment's release and
 * plugins, and the layout the operator saved. Core computes everything; this only gathers it.
 *
 * A simulated node stands for a machine Fuel would provision: its disks are all free and it is laid
 * out as Fuel laid out a discovered node (core's `fuel` mode), so plans and dry runs see Fuel's
 * numbers. A real node is running: in-use disks keep what they have.
 */
import { applyOperatorSizes, checkLayout, defaultLayout, nodeVolumes, type DiskProblem, type LayoutInput, type LayoutVolumesMetadata, type NodeDisk, type NodeLayout, type NodeVolumes, type SavedLayout } from '../../core/disks/index.js';
import type { Finding } from '../../core/findings.js';
import type { ComposedRelease } from '../../core/release/compose.js';
import * as store from '../../store/index.js';
import * as real from '../../store/real-nodes.js';

/** The disks a simulated node has when it was registered without `hardware.disks_gb`. */
const SIMULATED_DISKS_GB = [500];
const MB_PER_GB = 1024;
const NO_VOLUMES: LayoutVolumesMetadata = { volumes: [], volumes_roles_mapping: {} };

/** A saved disk: the operator's sizes, and whether the disk is left out. */
export type SavedDisk = SavedLayout[number] & { exclude?: boolean };

interface FactsDisk {
  name?: unknown;
  id?: unknown;
  size?: unknown;
  size_bytes?: unknown;
  in_use?: unknown;
  holds_root?: unknown;
}

const deviceName = (i: number) => `sd${String.fromCharCode(97 + (i % 26))}${i >= 26 ? String(Math.floor(i / 26)) : ''}`;

/** A node's disks and memory as core reads them. */
export function disksOf(node: store.NodeRecord, access: real.RealNodeRecord | undefined): { disks: NodeDisk[]; ram: number; mode: 'running' | 'fuel' } {
  if (!access) {
    const sizes = Array.isArray(node.hardware.disks_gb) && node.hardware.disks_gb.length ? node.hardware.disks_gb : SIMULATED_DISKS_GB;
    const disks = sizes.map((gb, i) => ({ id: deviceName(i), name: deviceName(i), size: Math.floor(gb * MB_PER_GB), inUse: false }));
    return { disks, ram: typeof node.hardware.memory_gb === 'number' ? Math.floor(node.hardware.memory_gb * MB_PER_GB) : 0, mode: 'fuel' };
  }
  const facts = (access.facts ?? {}) as { disks?: FactsDisk[]; memory_bytes?: unknown };
  const disks: NodeDisk[] = [];
  for (const d of Array.isArray(facts.disks) ? facts.disks : []) {
    if (typeof d?.name !== 'string') continue;
    const size = typeof d.size === 'number' ? d.size : typeof d.size_bytes === 'number' ? Math.floor(d.size_bytes / 1024 ** 2) : 0;
    // Facts gathered before Hearth looked at what disks hold do not say: such a disk is in use
    // until the node's facts are gathered again (never touch what we cannot see).
    const disk: NodeDisk = { id: typeof d.id === 'string' ? d.id : d.name, name: d.name, size, inUse: d.in_use !== false };
    if (d.holds_root === true) disk.holdsRoot = true;
    disks.push(disk);
  }
  const ram = typeof facts.memory_bytes === 'number' ? Math.floor(facts.memory_bytes / 1024 ** 2) : 0;
  return { disks, ram, mode: 'running' };
}

export const rolesOf = (n: store.NodeRecord): string[] => [...new Set([...n.roles, ...n.pendingRoles])];

/** The volumes core lays out: the composed release's (the release's with its enabled plugins' merged in). */
export const layoutVolumesOf = (composed: ComposedRelease | undefined): LayoutVolumesMetadata => (composed?.volumes_metadata as LayoutVolumesMetadata | undefined) ?? NO_VOLUMES;

/** Everything known about one node's layout. */
export interface DiskState {
  input: LayoutInput;
  defaults: NodeLayout;
  /** The saved layout over the defaults where it still fits, or the defaults. */
  layout: NodeLayout;
  saved?: { disks: SavedDisk[]; savedAt: string };
  /** Where the saved layout no longer fits, and the layout's own problems (minimums, sizes). */
  problems: DiskProblem[];
}

/** The layout input of a node; `saved` marks the disks the operator left out. */
export function layoutInput(node: store.NodeRecord, access: real.RealNodeRecord | undefined, volumes: LayoutVolumesMetadata, saved?: readonly SavedDisk[]): LayoutInput {
  const { disks, ram, mode } = disksOf(node, access);
  const excluded = new Set((saved ?? []).filter((d) => d.exclude).map((d) => d.id));
  return { disks: disks.map((d) => (excluded.has(d.id) && !d.inUse ? { ...d, exclude: true } : d)), roles: rolesOf(node), volumes, ram, mode };
}

/** A node's layout: defaults from its disks and roles, the operator's saved sizes over them. */
export function diskState(node: store.NodeRecord, access: real.RealNodeRecord | undefined, volumes: LayoutVolumesMetadata, saved?: store.SavedDiskLayout): DiskState {
  const savedDisks = saved ? (saved.disks as SavedDisk[]) : undefined;
  const input = layoutInput(node, access, volumes, savedDisks);
  const defaults = defaultLayout(input);
  if (!savedDisks) return { input, defaults, layout: defaults, problems: checkLayout(defaults, input) };
  const applied = applyOperatorSizes(defaults, savedDisks, input);
  return { input, defaults, layout: applied.layout, saved: { disks: savedDisks, savedAt: saved!.savedAt }, problems: [...applied.problems, ...checkLayout(applied.layout, input)] };
}

/** The layouts of several nodes of one environment, read in two queries (facts, saved layouts). */
export async function diskStates(q: store.Queryable, nodes: readonly store.NodeRecord[], composed: ComposedRelease | undefined): Promise<Map<number, DiskState>> {
  const ids = nodes.map((n) => n.id);
  const [access, saved] = await Promise.all([real.realNodes(q, ids), store.savedDiskLayouts(q, ids)]);
  const volumes = layoutVolumesOf(composed);
  // Simulated nodes with nothing saved are laid out from their hardware and roles alone: nodes alike
  // share one state (read-only for every caller), so a deployment of 1,000 of them lays out a few
  // classes, not 1,000 nodes, twice (before and in its transaction; issue 24's 5% rule).
  const alike = new Map<string, DiskState>();
  return new Map(
    nodes.map((n) => {
      const own = access.get(n.id);
      const layout = saved.get(n.id);
      if (own || layout) return [n.id, diskState(n, own, volumes, layout)];
      const key = JSON.stringify([n.hardware.disks_gb, n.hardware.memory_gb, rolesOf(n)]);
      let state = alike.get(key);
      if (!state) alike.set(key, (state = diskState(n, undefined, volumes, undefined)));
      return [n.id, state];
    }),
  );
}

/** astute.yaml's `node_volumes` of a node, from its layout. */
export const nodeVolumesOf = (state: DiskState): NodeVolumes => nodeVolumes(state.layout, state.input.volumes);

/** Findings about a volume below its minimum: warnings when a layout is saved, refusals at deploy. */
export const isMinimum = (p: Finding): boolean => MINIMUM_CODES.has(p.code);
const MINIMUM_CODES: ReadonlySet<string> = new Set(['disks/too-small']);

/** What refuses a deployment of the node: its layout's errors and volumes below their minimum. */
export const blockingProblems = (state: DiskState | undefined): DiskProblem[] => (state?.problems ?? []).filter((p) => p.severity === 'error' || isMinimum(p));
