/**
 * Component names (`type:subtype:…:name`), the patterns rules use to point at them, and the
 * wizard group each component is shown in.
 *
 * Pattern rule (issue 4): a trailing `*` segment stands for one or more further segments; a `*`
 * segment elsewhere stands for exactly one segment (Fuel's UI allowed `network:*:ml2:*`); a name
 * without `*` matches only itself. Fuel's server treated every name as a prefix, so
 * `hypervisor:kvm` matched `hypervisor:kvm2`; we do not.
 */

export const COMPONENT_TYPES = ['hypervisor', 'network', 'storage', 'additional_service'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

/** The wizard's groups, in pane order. */
export const GROUPS = [
  'hypervisor',
  'network:core',
  'network:ml2',
  'network:service',
  'network:ipam',
  'storage:block',
  'storage:object',
  'storage:image',
  'storage:ephemeral',
  'additional_service',
  'other',
] as const;
export type ComponentGroup = (typeof GROUPS)[number];

/** How a group is presented: radio (exactly one) or checkboxes. */
export const RADIO_GROUPS: ReadonlySet<ComponentGroup> = new Set(['network:core']);

/** The wizard's panes, by type; a `requires` pointing at a later pane is not asked for yet. */
const PANE: Record<string, number> = { hypervisor: 0, network: 1, storage: 2, additional_service: 3 };

/**
 * The wizard's four panes, which the web UI shows one at a time: a state can be asked for the
 * shown pane only (`StateOptions.panes`).
 */
export const WIZARD_PANES = ['compute', 'network', 'storage', 'additional'] as const;
export type WizardPane = (typeof WIZARD_PANES)[number];

/**
 * The pane a component is shown on, by its group (as the web UI places groups): the `other` group
 * (unknown types, a storage subtype no group names) is shown with the additional services.
 */
export function wizardPaneOf(name: string): WizardPane {
  return paneOfGroup(groupOf(name));
}

/** The pane a group is shown on (a compiled component has its group already: no name to split). */
export function paneOfGroup(group: ComponentGroup): WizardPane {
  return PANE_OF_GROUP[group];
}

const PANE_OF_GROUP: Record<ComponentGroup, WizardPane> = {
  hypervisor: 'compute',
  'network:core': 'network',
  'network:ml2': 'network',
  'network:service': 'network',
  'network:ipam': 'network',
  'storage:block': 'storage',
  'storage:object': 'storage',
  'storage:image': 'storage',
  'storage:ephemeral': 'storage',
  additional_service: 'additional',
  other: 'additional',
};

export function typeOf(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(0, i);
}

/** Pane index of a type; unknown types come after every pane, as Fuel's UI treated them. */
export function paneOf(type: string): number {
  return PANE[type] ?? 4;
}

/** Why a name is not a usable component name, or undefined when it is. */
export function nameProblem(name: string): string | undefined {
  if (name.includes('*')) return 'a component name cannot contain `*` (only rules may use wildcards)';
  const segments = name.split(':');
  if (segments.length < 2) return 'a component name has at least two segments, `type:name`';
  if (segments.some((s) => s.trim() === '')) return 'a component name has an empty segment';
  if (/\s/.test(name)) return 'a component name cannot contain spaces';
  return undefined;
}

/**
 * The wizard group of a component. ML2 drivers are `…:ml2:<driver>` (Fuel's UI test was
 * `/:ml2:\w+$/`; the design's own spelling `network:ml2:dvs` is one too). Neutron services and
 * IPAM drivers (`…:service:<name>`, `…:ipam:<name>`: the design's subtypes
 * `network:neutron:service:lbaas`, `network:neutron:ipam:builtin`) run beside the core plugin,
 * so they are checkboxes of their own (issue 28; Fuel 9.0's wizard made them radios, the design's
 * subtypes say otherwise). Every other network component is a core plugin shown as a radio
 * button, including the older forms real plugins use (`network:neutron:contrail`,
 * `network:neutron:calico`, `network:neutron:opendaylight:tun`).
 */
export function groupOf(name: string): ComponentGroup {
  const segments = name.split(':');
  switch (segments[0]) {
    case 'hypervisor':
      return 'hypervisor';
    case 'network': {
      const sub = segments.length >= 3 ? segments[segments.length - 2] : '';
      return sub === 'ml2' ? 'network:ml2' : sub === 'service' ? 'network:service' : sub === 'ipam' ? 'network:ipam' : 'network:core';
    }
    case 'storage': {
      const sub = segments[1];
      if (sub === 'block' || sub === 'object' || sub === 'image' || sub === 'ephemeral') return `storage:${sub}`;
      return 'other';
    }
    case 'additional_service':
      return 'additional_service';
    default:
      return 'other';
  }
}

/**
 * The ML2 core plugin: a network core whose last segment is `ml2` (`network:neutron:core:ml2`,
 * the design's subtype). Its mechanism drivers are the `network:ml2` group.
 */
export function isMl2Core(name: string): boolean {
  return groupOf(name) === 'network:core' && name.endsWith(':ml2');
}

export interface Pattern {
  text: string;
  segments: string[];
  wildcard: boolean;
}

/** Why a rule's pattern cannot be used, or undefined. `ml2*` (a star inside a segment) is refused. */
export function patternProblem(text: string): string | undefined {
  if (text.trim() === '') return 'the name is empty';
  const segments = text.split(':');
  if (segments.some((s) => s !== '*' && s.includes('*'))) {
    return '`*` must be a whole segment (`network:neutron:ml2:*`), not part of one';
  }
  if (segments.some((s) => s === '')) return 'the name has an empty segment';
  return undefined;
}

export function parsePattern(text: string): Pattern {
  const segments = text.split(':');
  return { text, segments, wildcard: segments.includes('*') };
}

export function matches(pattern: Pattern, name: string): boolean {
  if (!pattern.wildcard) return pattern.text === name;
  const segs = name.split(':');
  const p = pattern.segments;
  const trailing = p[p.length - 1] === '*';
  if (trailing ? segs.length < p.length : segs.length !== p.length) return false;
  for (let i = 0; i < p.length; i++) {
    if (p[i] !== '*' && p[i] !== segs[i]) return false;
  }
  return true;
}

/** Label keys from Fuel's fixture (`dialog.create_cluster_wizard.compute.qemu`) read worse than names. */
const I18N_KEY = /^[a-z0-9_]+(\.[a-z0-9_]+){2,}$/;

export function displayName(name: string, label: string | undefined): string {
  if (label && label.trim() !== '' && !I18N_KEY.test(label)) return `${label} (${name})`;
  return name;
}
