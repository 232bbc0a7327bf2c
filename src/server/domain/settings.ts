/**
 * Changing an environment's settings: only the `value` of fields that exist may change, each new
 * value must fit its field's definition (a radio's options, a `regex`: core's settings check, the
 * one the web UI runs as the user types), and a field whose `disable` restriction holds (evaluated
 * on the settings as they would become) is refused with the restriction's message. A section's
 * `metadata` sent back unchanged is ignored (clients send whole sections); a toggleable section
 * may be switched on or off; plugins are enabled through `plugins` in the request.
 * Every refusal names the setting it concerns (`setting`), so a client can show it at the field.
 */
import { checkRestrictions, deepEqual } from '../../core/expressions/index.js';
import { finding, type Finding } from '../../core/findings.js';
import { settingValueProblem, type SettingDefinition } from '../../core/settings/index.js';

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** A finding about one setting (`section.field`) or one section (`section`). */
export type SettingFinding = Finding & { setting?: string };

export interface SettingsChange {
  editable: Tree;
  changed: string[];
  findings: SettingFinding[];
}

const at = (f: Finding, setting: string): SettingFinding => ({ ...f, setting });
const isPluginSection = (meta: Tree) => meta.class === 'plugin' || 'plugin_id' in meta || 'plugin_version' in meta;

/** A section's metadata as sent: unchanged (ignored), a toggleable section switched, or a refusal. */
function metadataChange(section: string, current: unknown, sent: unknown): { enabled?: boolean; finding?: SettingFinding } {
  const meta = isTree(current) ? current : {};
  if (deepEqual(meta, sent)) return {};
  const plugin = isPluginSection(meta);
  if (isTree(sent) && !plugin && meta.toggleable === true && typeof sent.enabled === 'boolean' && deepEqual({ ...meta, enabled: sent.enabled }, sent)) return { enabled: sent.enabled };
  const hint = plugin ? 'enable or disable a plugin with `plugins` in the request: {"plugins": {"<name>": "<version>" or null}}' : 'only the values of its settings (and `enabled` of a toggleable section) change';
  return { finding: at(finding('settings/metadata-read-only', 'error', `the description of section '${section}' cannot be changed here`, undefined, hint), section) };
}

/** `changes` is `{section: {field: {value}}}` (or `{section: {field: value}}` for short). */
export function applySettingsChanges(current: Tree, changes: Tree, models: Record<string, unknown> = {}): SettingsChange {
  const editable = structuredClone(current);
  const findings: SettingFinding[] = [];
  const changed: string[] = [];
  for (const [section, fields] of Object.entries(changes)) {
    if (FORBIDDEN.has(section) || !Object.hasOwn(editable, section) || !isTree(editable[section])) {
      findings.push(finding('settings/unknown-section', 'error', `there is no settings section '${section}'`, undefined, `use one of: ${Object.keys(editable).sort().join(', ')}`));
      continue;
    }
    if (!isTree(fields)) {
      findings.push(finding('settings/bad-section', 'error', `settings section '${section}' must be a mapping of fields`));
      continue;
    }
    const target = editable[section] as Tree;
    for (const [field, change] of Object.entries(fields)) {
      if (field === 'metadata') {
        const outcome = metadataChange(section, target.metadata, change);
        if (outcome.finding) findings.push(outcome.finding);
        else if (outcome.enabled !== undefined) {
          target.metadata = { ...(target.metadata as Tree), enabled: outcome.enabled };
          changed.push(`${section}.metadata.enabled`);
        }
        continue;
      }
      const path = `${section}.${field}`;
      if (FORBIDDEN.has(field) || !Object.hasOwn(target, field) || !isTree(target[field]) || !('value' in (target[field] as Tree))) {
        findings.push(at(finding('settings/unknown-field', 'error', `there is no setting '${path}'`), path));
        continue;
      }
      const value = isTree(change) && 'value' in change ? change.value : change;
      const slot = target[field] as Tree;
      if (typeof slot.value !== typeof value && slot.value !== null && value !== null) {
        findings.push(at(finding('settings/wrong-type', 'error', `'${path}' holds a ${typeof slot.value}, not a ${typeof value}`), path));
        continue;
      }
      if (deepEqual(slot.value, value)) continue;
      const problem = settingValueProblem(slot as SettingDefinition, value);
      if (problem) {
        findings.push(at(finding('settings/invalid-value', 'error', `${String(slot.label ?? path)}: ${problem}`, undefined, `'${path}' keeps its value until the new one fits`), path));
        continue;
      }
      slot.value = value;
      changed.push(path);
    }
  }
  const context = { ...models, settings: editable };
  for (const path of changed) {
    const [section, field] = path.split('.');
    if (field === 'metadata') continue;
    const slot = (editable[section] as Tree)[field] as Tree;
    const sectionMeta = isTree((editable[section] as Tree).metadata) ? ((editable[section] as Tree).metadata as Tree) : {};
    for (const [where, list] of [[`${section}`, sectionMeta.restrictions], [path, slot.restrictions]] as const) {
      for (const check of checkRestrictions(list, context, { actions: ['disable'] })) {
        if (!check.met) continue;
        findings.push(at(finding('settings/restricted', 'error', `'${path}' cannot be changed: ${check.message ?? `the restriction '${check.condition}' on ${where} holds`}`, undefined, 'change the settings the restriction names first'), path));
      }
    }
  }
  return { editable, changed, findings };
}
