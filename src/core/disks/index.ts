/**
 * Disk layouts: Fuel's volume manager over a node's real disks, roles, and the volumes of the
 * release and its enabled plugins. Pure: facts and metadata in, layouts and findings out.
 */
export type {
  AllocateSize,
  NodeDisk,
  BootDiskRule,
  LayoutVolumesMetadata,
  LayoutInput,
  LayoutVolume,
  LayoutDisk,
  OsCheck,
  NodeLayout,
  DiskProblem,
  VolumeView,
  FullDiskVolume,
  FullDisk,
  FullLogicalVolume,
  FullVolumeGroup,
  NodeVolumes,
} from './model.js';
export { defaultLayout } from './allocate.js';
export { checkLayout, applyOperatorSizes, belowMinimum, type SavedLayout, type AppliedLayout } from './check.js';
export { volumesView, nodeVolumes } from './views.js';
export { FUEL_GENERATORS, isFuelGenerator, calcSwapSize, calcRootSize, glanceCacheSize, sizeOf, type GeneratorContext } from './generators.js';
export { nodeSpaces, defaultOsVolumes, type Space, type NodeSpaces, type VolumeDefinition } from './spaces.js';
export { pickBootDisk } from './allocate.js';
