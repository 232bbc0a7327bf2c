/**
 * Component names with capital letters. The components design writes its samples that way
 * (`hypervisor:sub:A`, `network:C`), but Fuel's plugin builder and Nailgun accept only lower-case
 * letters, digits, `_` and `-` in each part, and names are compared exactly (`…:A` and `…:a`
 * would be two components, and a rule naming one never matches the other). Hearth follows Fuel, so
 * a package it builds installs there too, and says so in plain words instead of quoting the
 * schema's pattern.
 */
import { finding, type Finding } from '../../core/findings.js';
import { positionOf } from '../../core/positions.js';
import { isMapping, type ValidationContext } from './context.js';

const NAME = /^(hypervisor|network|storage|additional_service):([0-9a-z_-]+:)*[0-9a-z_-]+$/;
const RULE_NAME = /^(hypervisor|network|storage|additional_service):([0-9a-z_-]+:)*([0-9a-z_-]+|\*)$/;
const RULES = ['compatible', 'requires', 'incompatible'];
const PREDICATES = ['one_of', 'any_of', 'none_of', 'all_of'];

/** Only names that would be right in lower case: any other mistake is the schema's to report. */
const onlyCase = (name: string, pattern: RegExp) => name !== name.toLowerCase() && pattern.test(name.toLowerCase());

export function checkComponentNameCase(ctx: ValidationContext, lists: ReadonlyArray<{ list: Record<string, unknown>[] }>): void {
  const replaced = new Set<string>();
  const report = (name: string, container: object, key: string | number, what: string) => {
    const at = positionOf(container, key);
    if (at) replaced.add(`${at.file}:${at.line}:${at.column}`);
    ctx.findings.push(
      finding(
        'component/name-not-lower-case',
        'error',
        `${what} '${name}' has capital letters; component names are lower case: Fuel accepts only a-z, 0-9, '_' and '-' in each part, and compares names exactly, so '${name}' and '${name.toLowerCase()}' would be two different components`,
        at,
        `write '${name.toLowerCase()}' here and wherever a rule names it (the design's capitalised samples are placeholders)`,
      ),
    );
  };
  for (const { list } of lists) {
    for (const component of list) {
      if (typeof component.name === 'string' && onlyCase(component.name, NAME)) report(component.name, component, 'name', 'the component');
      for (const rule of RULES) {
        const entries = component[rule];
        if (!Array.isArray(entries)) continue;
        for (const entry of entries) {
          if (!isMapping(entry)) continue;
          if (typeof entry.name === 'string' && onlyCase(entry.name, RULE_NAME)) report(entry.name, entry, 'name', `a '${rule}' rule names`);
          for (const p of PREDICATES) {
            const predicate = entry[p];
            if (!isMapping(predicate) || !Array.isArray(predicate.items)) continue;
            predicate.items.forEach((item, i) => {
              if (typeof item === 'string' && onlyCase(item, RULE_NAME)) report(item, predicate.items as unknown[], i, `a '${rule}: ${p}' rule names`);
            });
          }
        }
      }
    }
  }
  // The schema's pattern finding at the same place says the same thing less clearly.
  const kept = ctx.findings.filter((f: Finding) => !(f.code === 'schema/bad-format' && replaced.has(`${f.file}:${f.line}:${f.column}`)));
  ctx.findings.splice(0, ctx.findings.length, ...kept);
}
