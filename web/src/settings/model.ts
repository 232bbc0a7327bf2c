/**
 * The settings page's rules, over the draft as the user edits it. Restrictions and value checks
 * are core's own functions (the restriction language, `settingValueProblem`), the ones the server
 * runs when it stores a change: the page and the server give one answer.
 */
import { checkRestrictions } from '../../../src/core/expressions/index.js';
import { settingValueProblem, type SettingDefinition } from '../../../src/core/settings/index.js';
import type { Schemas } from '../../../src/api/client.js';

export type Attr = SettingDefinition & { description?: string; weight?: number; restrictions?: unknown };
export interface SectionMeta {
  label?: string;
  enabled?: boolean;
  toggleable?: boolean;
  weight?: number;
  group?: string;
  class?: string;
  restrictions?: unknown;
}
export type Section = { metadata?: SectionMeta } & Record<string, unknown>;
export type Editable = Record<string, Section>;

/** A plugin as `GET /clusters/{id}/attributes` lists it (`plugins`): the API's PluginSection. */
export type PluginSection = Schemas['PluginSection'];

export interface Attributes {
  editable: Editable;
  plugins?: PluginSection[];
}

/** What restrictions say about one field or section now. */
export interface Verdict {
  hidden: boolean;
  disabled: boolean;
  /** Messages of met `disable` restrictions and `none` notes. */
  messages: string[];
}

const OPEN: Verdict = { hidden: false, disabled: false, messages: [] };

export function verdictOf(restrictions: unknown, context: Record<string, unknown>): Verdict {
  if (restrictions === undefined || restrictions === null) return OPEN;
  const out: Verdict = { hidden: false, disabled: false, messages: [] };
  for (const check of checkRestrictions(restrictions, context)) {
    if (!check.met) continue;
    if (check.action === 'hide') out.hidden = true;
    else if (check.action === 'disable') out.disabled = true;
    if (check.message && check.action !== 'hide') out.messages.push(check.message.trim());
  }
  return out;
}

export const fieldsOf = (section: Section): Array<[string, Attr]> =>
  Object.entries(section)
    .filter(([k, v]) => k !== 'metadata' && v !== null && typeof v === 'object' && !Array.isArray(v))
    .map(([k, v]) => [k, v as Attr] as [string, Attr])
    .sort((a, b) => (a[1].weight ?? 0) - (b[1].weight ?? 0) || a[0].localeCompare(b[0]));

export const sectionsOf = (editable: Editable): Array<[string, Section]> =>
  Object.entries(editable).sort((a, b) => (a[1].metadata?.weight ?? 0) - (b[1].metadata?.weight ?? 0) || a[0].localeCompare(b[0]));

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The request body for what changed: only changed values, toggled sections and plugins. */
export function changesOf(original: Attributes, draft: Attributes, plugins: Record<string, string | null>): { editable?: Record<string, Record<string, unknown>>; plugins?: Record<string, string | null> } {
  const editable: Record<string, Record<string, unknown>> = {};
  const pluginNames = new Set((original.plugins ?? []).map((p) => p.name));
  for (const [name, section] of Object.entries(draft.editable)) {
    const before = original.editable[name];
    if (!before) continue;
    const out: Record<string, unknown> = {};
    if (!pluginNames.has(name) && before.metadata?.toggleable && before.metadata.enabled !== section.metadata?.enabled) out.metadata = { ...before.metadata, enabled: section.metadata?.enabled };
    for (const [field, attr] of fieldsOf(section)) {
      const old = before[field] as Attr | undefined;
      if (old && 'value' in old && !same(old.value, attr.value)) out[field] = { value: attr.value };
    }
    if (Object.keys(out).length) editable[name] = out;
  }
  const body: { editable?: Record<string, Record<string, unknown>>; plugins?: Record<string, string | null> } = {};
  if (Object.keys(editable).length) body.editable = editable;
  if (Object.keys(plugins).length) body.plugins = plugins;
  return body;
}

/** Problems of changed values that are visible and enabled, by `section.field`. */
export function problemsOf(original: Attributes, draft: Attributes, context: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, section] of Object.entries(draft.editable)) {
    const before = original.editable[name];
    if (!before || verdictOf(section.metadata?.restrictions, context).hidden) continue;
    for (const [field, attr] of fieldsOf(section)) {
      const old = before[field] as Attr | undefined;
      if (!old || same(old.value, attr.value)) continue;
      const v = verdictOf(attr.restrictions, context);
      if (v.hidden || v.disabled) continue;
      const problem = settingValueProblem(attr, attr.value);
      if (problem) out.set(`${name}.${field}`, problem);
    }
  }
  return out;
}

/** The server's refusal, placed: findings naming a setting go to it, a plugin's refusal to the plugin. */
export interface PlacedRefusal {
  bySetting: Map<string, string[]>;
  byPlugin: Map<string, string[]>;
  /** What concerns no one field or plugin: shown above the Save button. */
  rest: string[];
}

export function placeRefusal(message: string, details: unknown): PlacedRefusal {
  const bySetting = new Map<string, string[]>();
  const byPlugin = new Map<string, string[]>();
  const rest: string[] = [];
  const d = (details ?? {}) as { findings?: Array<{ message: string; setting?: string }>; plugin?: string };
  if (typeof d.plugin === 'string') byPlugin.set(d.plugin, [message]);
  for (const f of d.findings ?? []) {
    if (f.setting) bySetting.set(f.setting, [...(bySetting.get(f.setting) ?? []), f.message]);
    else rest.push(f.message);
  }
  if (!byPlugin.size && !bySetting.size && !rest.length) rest.push(message);
  return { bySetting, byPlugin, rest };
}
