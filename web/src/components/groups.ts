import type { ComponentState } from '../types.js';

/** The wizard's panes and groups; each component's group comes from the server (core/components/names.ts). */
export type Pane = 'compute' | 'network' | 'storage' | 'additional';

export interface Group {
  /** The component engine's group name (`ComponentState.group`). */
  id: string;
  title: string;
  pane: Pane;
  /** Radio buttons (exactly one) or checkboxes. */
  kind: 'radio' | 'checkbox';
  /** Shown under the group before it (ML2 drivers under the ML2 core). */
  nested?: boolean;
}

export const GROUPS: Group[] = [
  { id: 'hypervisor', title: 'Hypervisors', pane: 'compute', kind: 'checkbox' },
  { id: 'network:core', title: 'Network core', pane: 'network', kind: 'radio' },
  { id: 'network:ml2', title: 'ML2 drivers', pane: 'network', kind: 'checkbox', nested: true },
  // Neutron services and IPAM run beside the core plugin (issue 28): checkboxes of their own.
  { id: 'network:service', title: 'Neutron services', pane: 'network', kind: 'checkbox' },
  { id: 'network:ipam', title: 'IP address management', pane: 'network', kind: 'checkbox' },
  { id: 'storage:block', title: 'Block storage', pane: 'storage', kind: 'checkbox' },
  { id: 'storage:object', title: 'Object storage', pane: 'storage', kind: 'checkbox' },
  { id: 'storage:image', title: 'Image storage', pane: 'storage', kind: 'checkbox' },
  { id: 'storage:ephemeral', title: 'Ephemeral storage', pane: 'storage', kind: 'checkbox' },
  { id: 'additional_service', title: 'Additional services', pane: 'additional', kind: 'checkbox' },
  { id: 'other', title: 'Other components', pane: 'additional', kind: 'checkbox' },
];

const KNOWN = new Set(GROUPS.map((g) => g.id));

/** The group a component is shown in: the server's, or `other` for a group this UI does not know. */
export function groupOf(c: Pick<ComponentState, 'group'>): string {
  return KNOWN.has(c.group) ? c.group : 'other';
}

/** Choices in a group by the component's `weight` (lighter first, as the design says), then as listed. */
export function byWeight<T extends { name: string }>(items: readonly T[], weightOf: (name: string) => number | undefined): T[] {
  return items
    .map((c, i) => ({ c, i, w: weightOf(c.name) ?? 100 }))
    .sort((a, b) => a.w - b.w || a.i - b.i)
    .map((x) => x.c);
}
