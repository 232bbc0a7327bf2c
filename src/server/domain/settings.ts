/**
 * Changing an environment's settings: only the `value` of fields that exist may change, and a
 * field whose `disable` restriction holds (evaluated on the settings as they would become) is
 * refused with the restriction's message. Evaluation is core's restriction language.
 */
import { checkRestrictions, deepEqual } from '../../core/expressions/index.js';
import { finding, type Finding } from '../../core/findings.js';

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export interface SettingsChange {
  editable: Tree;
  changed: string[];
  findings: Finding[];
}

/** `changes` is `{section: {field: {value}}}` (or `{section: {field: value}}` for short). */
export function applySettingsChanges(current: Tree, changes: Tree, models: Record<string, unknown> = {}): SettingsChange {
  const editable = structuredClone(current);
  const findings: Finding[] = [];
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
        findings.push(finding('settings/metadata-read-only', 'error', `'${section}.metadata' cannot be changed here`, undefined, 'plugins are enabled and their versions chosen with `plugins` in the request'));
        continue;
      }
      if (FORBIDDEN.has(field) || !Object.hasOwn(target, field) || !isTree(target[field]) || !('value' in (target[field] as Tree))) {
        findings.push(finding('settings/unknown-field', 'error', `there is no setting '${section}.${field}'`));
        continue;
      }
      const value = isTree(change) && 'value' in change ? change.value : change;
      const slot = target[field] as Tree;
      if (typeof slot.value !== typeof value && slot.value !== null && value !== null) {
        findings.push(finding('settings/wrong-type', 'error', `'${section}.${field}' holds a ${typeof slot.value}, not a ${typeof value}`));
        continue;
      }
      if (!deepEqual(slot.value, value)) {
        slot.value = value;
        changed.push(`${section}.${field}`);
      }
    }
  }
  const context = { ...models, settings: editable };
  for (const path of changed) {
    const [section, field] = path.split('.');
    const slot = (editable[section] as Tree)[field] as Tree;
    const sectionMeta = isTree((editable[section] as Tree).metadata) ? ((editable[section] as Tree).metadata as Tree) : {};
    for (const [where, list] of [[`${section}`, sectionMeta.restrictions], [path, slot.restrictions]] as const) {
      for (const check of checkRestrictions(list, context, { actions: ['disable'] })) {
        if (!check.met) continue;
        findings.push(finding('settings/restricted', 'error', `'${path}' cannot be changed: ${check.message ?? `the restriction '${check.condition}' on ${where} holds`}`, undefined, 'change the settings the restriction names first'));
      }
    }
  }
  return { editable, changed, findings };
}
