import type { AllocateSize, LayoutVolumesMetadata } from './model.js';

/** The node's volumes from its roles (Fuel's `get_node_spaces`). */
export function nodeSpaces(
  volumes: LayoutVolumesMetadata,
  roles: string[],
  diskCount: number,
): Array<{ id: string; allocate_size: AllocateSize }> {
  void volumes;
  void roles;
  void diskCount;
  throw new Error('nodeSpaces: not implemented yet (issue 26)');
}
