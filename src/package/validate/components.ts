/**
 * components.yaml beyond its schema: rules (`compatible`, `requires`, `incompatible`) whose
 * entries carry keys Fuel does not read, and ML2 mechanism drivers that do not require the ML2
 * core, which lets the wizard offer a driver without the plugin it plugs into.
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { closest } from './spelling.js';
import { isMapping, type ValidationContext } from './context.js';

const RULE_KEYS = ['compatible', 'requires', 'incompatible'];
const RULE_ENTRY_KEYS = ['name', 'message'];
const PREDICATES = ['one_of', 'any_of', 'none_of', 'all_of'];
const ML2_CORE = 'network:neutron:core:ml2';

function componentLists(ctx: ValidationContext): Array<{ list: Record<string, unknown>[]; file: string }> {
  const out: Array<{ list: Record<string, unknown>[]; file: string }> = [];
  const own = ctx.plugin.files.components;
  if (ctx.major >= 4 && Array.isArray(own)) out.push({ list: own.filter(isMapping), file: ctx.plugin.filePaths.components ?? 'components.yaml' });
  for (const record of ctx.plugin.releases) {
    const c = record.resolved.components;
    if (Array.isArray(c)) out.push({ list: c.filter(isMapping), file: `releases[${record.index}].components` });
  }
  return out;
}

/** Every component name a rule may require: the plugin's own (incl. wildcards) and, if given, the release's. */
function requiredNames(component: Record<string, unknown>): string[] {
  const names: string[] = [];
  const requires = component.requires;
  if (!Array.isArray(requires)) return names;
  for (const entry of requires) {
    if (!isMapping(entry)) continue;
    if (typeof entry.name === 'string') names.push(entry.name);
    for (const p of PREDICATES) {
      const pred = entry[p];
      if (isMapping(pred) && Array.isArray(pred.items)) for (const item of pred.items) if (typeof item === 'string') names.push(item);
    }
  }
  return names;
}

export function checkComponents(ctx: ValidationContext): void {
  for (const { list } of componentLists(ctx)) {
    for (const component of list) {
      const name = typeof component.name === 'string' ? component.name : '?';
      for (const rule of RULE_KEYS) {
        const entries = component[rule];
        if (!Array.isArray(entries)) continue;
        for (const entry of entries) {
          if (!isMapping(entry)) continue;
          for (const key of Object.keys(entry)) {
            if (RULE_ENTRY_KEYS.includes(key) || (rule === 'requires' && (PREDICATES.includes(key) || key === 'message_invalid'))) continue;
            const near = closest(key, rule === 'requires' ? [...RULE_ENTRY_KEYS, ...PREDICATES] : RULE_ENTRY_KEYS);
            ctx.findings.push(
              finding(
                'component/unknown-rule-key',
                'warning',
                `component '${name}': a '${rule}' entry has the key '${key}', which Fuel does not read (an entry has only name and message)`,
                keyPositionOf(entry, key),
                near ? `did you mean '${near}'?` : `remove '${key}', or put the text in message`,
              ),
            );
          }
        }
      }
      if (/^network:neutron:ml2:/.test(name)) {
        const required = requiredNames(component);
        if (!required.some((r) => r === ML2_CORE || r === 'network:neutron:core:*' || r === 'network:neutron:*')) {
          ctx.findings.push(
            finding(
              'component/ml2-without-core',
              'warning',
              `component '${name}' is an ML2 mechanism driver but does not require ${ML2_CORE}, so it can be chosen without ML2`,
              positionOf(component, 'name'),
              `add to its requires: - name: '${ML2_CORE}'`,
            ),
          );
        }
      }
    }
  }
}
