/**
 * Moving an environment to another release (issue 28 item 15): what of its components, plugins,
 * settings and node roles the target release (composed with the plugins that still fit it) keeps,
 * and what no longer fits there. Pure: the server gathers the stored inputs, applies the outcome
 * in one transaction, and refuses when something does not fit unless told to leave it behind.
 */
import { compileCatalog, validate } from '../components/index.js';
import { deepEqual } from '../expressions/index.js';
import { settingValueProblem, type SettingDefinition } from '../settings/index.js';
import type { Composition } from './compose.js';

/** What no longer fits the target release. */
export type UnfitKind = 'plugin' | 'component' | 'setting' | 'role' | 'disk_layout' | 'network';

export interface Unfit {
  kind: UnfitKind;
  /** The plugin id, component, setting (`section.field`), role, or network. */
  name: string;
  reason: string;
  /** The nodes it concerns (roles, disk layouts, interfaces). */
  nodes?: Array<{ id: number; name: string }>;
}

export interface UpgradeNode {
  id: number;
  name: string;
  roles: string[];
  pendingRoles: string[];
}

export interface UpgradeInput {
  environment: { components: readonly string[]; attributes: Record<string, unknown>; plugins: Record<string, string> };
  /** The target release composed with the environment's plugins that still fit it. */
  target: Composition;
  /** Enabled plugins (ids) the target release does not accept, with why. */
  unfitPlugins: ReadonlyArray<{ id: string; reason: string }>;
  /** Component → the plugin (name) that brings it, in the environment's current composition. */
  componentPlugins: Record<string, string>;
  nodes: readonly UpgradeNode[];
  /**
   * The settings tree of the environment's current composition (its release's defaults). A value
   * still at its default is the release's, not the operator's: it takes the target's default, and
   * a setting the target no longer has is simply gone, not something that stops the move.
   */
  currentDefaults?: Record<string, unknown>;
}

export interface UpgradeOutcome {
  unfit: Unfit[];
  components: string[];
  /** The target's settings with the environment's values carried over where they still fit. */
  attributes: Record<string, unknown>;
  plugins: Record<string, string>;
  /** Nodes whose roles lose some, with what they keep. */
  nodes: Array<{ id: number; roles: string[]; pendingRoles: string[] }>;
}

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Plan the move: every unfit thing is listed, and the outcome is what the environment becomes without them. */
export function planUpgrade(input: UpgradeInput): UpgradeOutcome {
  const { environment, target } = input;
  const unfit: Unfit[] = [];
  const plugins = { ...environment.plugins };
  const droppedSections = new Set<string>();
  for (const p of input.unfitPlugins) {
    const name = Object.keys(plugins).find((n) => plugins[n] === p.id) ?? p.id.split('@')[0];
    delete plugins[name];
    droppedSections.add(name);
    unfit.push({ kind: 'plugin', name: p.id, reason: p.reason });
  }

  // Components: those the target has, then whatever its rules refuse among them.
  const known = new Set(target.composed.components.map((c) => c.name));
  let components = environment.components.filter((c) => {
    if (known.has(c)) return true;
    const plugin = Object.hasOwn(input.componentPlugins, c) ? input.componentPlugins[c] : undefined;
    unfit.push({ kind: 'component', name: c, reason: plugin && droppedSections.has(plugin) ? `its plugin ${environment.plugins[plugin]} does not fit the release` : 'the release has no such component' });
    return false;
  });
  const catalog = compileCatalog(target.composed.components, { requiredTypes: target.composed.required_component_types });
  // A rule broken by the kept components: the component the rule belongs to (named first) goes, until none is broken.
  for (let guard = 0; guard < 100; guard++) {
    const verdict = validate(catalog, components);
    const broken = verdict.findings.find((f) => f.severity === 'error' && (f as { components?: string[] }).components?.some((c) => components.includes(c)));
    if (!broken) break;
    const name = (broken as { components?: string[] }).components!.find((c) => components.includes(c))!;
    components = components.filter((c) => c !== name);
    unfit.push({ kind: 'component', name, reason: broken.message });
  }

  // Settings: the target's tree, with the environment's values where the field still exists and the value fits it.
  const attributes = structuredClone(isTree(target.composed.attributes_metadata.editable) ? (target.composed.attributes_metadata.editable as Tree) : {});
  for (const [section, fields] of Object.entries(environment.attributes)) {
    if (!isTree(fields) || droppedSections.has(section)) continue;
    const into = attributes[section];
    for (const [field, slot] of Object.entries(fields)) {
      if (field === 'metadata') {
        const meta = isTree(into) ? into.metadata : undefined;
        if (isTree(slot) && isTree(meta) && typeof slot.enabled === 'boolean' && typeof meta.enabled === 'boolean') meta.enabled = slot.enabled;
        continue;
      }
      if (!isTree(slot) || !('value' in slot)) continue;
      const path = `${section}.${field}`;
      const defaults = input.currentDefaults?.[section];
      const byDefault = isTree(defaults) ? defaults[field] : undefined;
      if (isTree(byDefault) && 'value' in byDefault && deepEqual(byDefault.value, slot.value)) continue;
      const now = isTree(into) ? into[field] : undefined;
      if (!isTree(now) || !('value' in now)) {
        unfit.push({ kind: 'setting', name: path, reason: isTree(into) ? 'the release has no such setting' : `the release has no settings section '${section}'` });
        continue;
      }
      if (typeof now.value !== typeof slot.value && now.value !== null && slot.value !== null) {
        unfit.push({ kind: 'setting', name: path, reason: `the release's setting holds a ${typeof now.value}, not a ${typeof slot.value}` });
        continue;
      }
      const problem = settingValueProblem(now as SettingDefinition, slot.value);
      if (problem) {
        unfit.push({ kind: 'setting', name: path, reason: `the value ${JSON.stringify(slot.value)} does not fit the release's setting: ${problem}` });
        continue;
      }
      now.value = slot.value;
    }
  }

  // Roles: a node keeps the roles the target has.
  const roles = target.composed.roles_metadata;
  const nodes: UpgradeOutcome['nodes'] = [];
  const lost = new Map<string, Array<{ id: number; name: string }>>();
  for (const n of input.nodes) {
    const keep = (r: string) => Object.hasOwn(roles, r);
    const gone = [...new Set([...n.roles, ...n.pendingRoles])].filter((r) => !keep(r));
    if (!gone.length) continue;
    for (const r of gone) lost.set(r, [...(lost.get(r) ?? []), { id: n.id, name: n.name }]);
    nodes.push({ id: n.id, roles: n.roles.filter(keep), pendingRoles: n.pendingRoles.filter(keep) });
  }
  for (const [role, holders] of [...lost].sort(([a], [b]) => a.localeCompare(b))) {
    unfit.push({ kind: 'role', name: role, reason: `the release (with the plugins kept) has no role '${role}'; nodes hold it`, nodes: holders });
  }
  return { unfit, components: [...components].sort(), attributes, plugins, nodes };
}
