import type { ComponentState } from '../types.js';

/** The wizard's panes and groups, from the component's name (`type:subtype:…:name`). */
export type Pane = 'compute' | 'network' | 'storage' | 'additional';

export interface Group {
  id: string;
  title: string;
  pane: Pane;
  /** Radio buttons (exactly one) or checkboxes. */
  kind: 'radio' | 'checkbox';
}

export const GROUPS: Group[] = [
  { id: 'hypervisor', title: 'Hypervisors', pane: 'compute', kind: 'checkbox' },
  { id: 'network-core', title: 'Network core', pane: 'network', kind: 'radio' },
  { id: 'ml2', title: 'ML2 drivers', pane: 'network', kind: 'checkbox' },
  { id: 'storage:block', title: 'Block storage', pane: 'storage', kind: 'checkbox' },
  { id: 'storage:object', title: 'Object storage', pane: 'storage', kind: 'checkbox' },
  { id: 'storage:image', title: 'Image storage', pane: 'storage', kind: 'checkbox' },
  { id: 'storage:ephemeral', title: 'Ephemeral storage', pane: 'storage', kind: 'checkbox' },
  { id: 'additional', title: 'Additional services', pane: 'additional', kind: 'checkbox' },
];

export function groupOf(c: Pick<ComponentState, 'name'>): string {
  const parts = c.name.split(':');
  if (parts[0] === 'hypervisor') return 'hypervisor';
  if (parts[0] === 'network') return parts[1] === 'neutron' && parts[2] === 'ml2' ? 'ml2' : 'network-core';
  if (parts[0] === 'storage') return `storage:${parts[1]}`;
  return 'additional';
}
