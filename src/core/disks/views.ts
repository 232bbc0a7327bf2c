import type { LayoutVolumesMetadata, NodeLayout, NodeVolumes, VolumeView } from './model.js';

/** `GET /nodes/{id}/volumes`. */
export function volumesView(volumes: LayoutVolumesMetadata, roles: string[], ram?: number): VolumeView[] {
  void volumes;
  void roles;
  void ram;
  throw new Error('volumesView: not implemented yet (issue 26)');
}

/** astute.yaml's `node_volumes` in Fuel 9's form. */
export function nodeVolumes(layout: NodeLayout, volumes: LayoutVolumesMetadata): NodeVolumes {
  void layout;
  void volumes;
  throw new Error('nodeVolumes: not implemented yet (issue 26)');
}
