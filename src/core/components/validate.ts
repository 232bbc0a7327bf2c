/**
 * Checking a final selection, as the server does when an environment is created: every broken
 * rule, each named from both sides. Direct counting over the compiled catalog; no search.
 */
import type { Finding } from '../findings.js';
import { finding } from '../findings.js';
import type { Catalog } from './catalog.js';
import { describeRule, nameOf, pairText } from './explain.js';

export interface ComponentFinding extends Finding {
  /** Names of the components involved, the one the rule belongs to first. */
  components: string[];
}

export interface Validation {
  valid: boolean;
  findings: ComponentFinding[];
}

function withComponents(f: Finding, components: string[]): ComponentFinding {
  return { ...f, components };
}

/** Resolve names to indices; unknown names become findings. Duplicates collapse, as in Nailgun. */
export function resolveSelection(catalog: Catalog, selection: readonly string[]): { indices: number[]; findings: ComponentFinding[] } {
  const indices: number[] = [];
  const findings: ComponentFinding[] = [];
  const seen = new Set<string>();
  for (const raw of selection) {
    const name = raw.trim();
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    const i = catalog.byName.get(name);
    if (i !== undefined) {
      indices.push(i);
      continue;
    }
    const last = name.split(':').pop() ?? name;
    const near = catalog.components.filter((c) => c.name.endsWith(`:${last}`) || c.name.startsWith(name)).map((c) => c.name);
    findings.push(
      withComponents(
        finding(
          'component/unknown',
          'error',
          `"${name}" is not a component of this release or its plugins.`,
          undefined,
          near.length > 0 ? `Did you mean ${near.slice(0, 3).join(', ')}?` : 'List the components with `hearth components state`.',
        ),
        [name],
      ),
    );
  }
  return { indices: indices.sort((a, b) => a - b), findings };
}

export function validate(catalog: Catalog, selection: readonly string[]): Validation {
  const { indices, findings } = resolveSelection(catalog, selection);
  findings.push(...validateIndices(catalog, indices));
  return { valid: !findings.some((f) => f.severity === 'error'), findings };
}

/** Every rule the chosen components break (indices must be known components). */
export function validateIndices(catalog: Catalog, indices: readonly number[]): ComponentFinding[] {
  const findings: ComponentFinding[] = [];
  const { components, constraints } = catalog;
  const chosen = new Uint8Array(components.length);
  for (const c of indices) chosen[c] = 1;
  const names = (xs: Iterable<number>) => [...xs].map((x) => components[x].name);

  for (const c of indices) {
    if (catalog.mixedRequires.has(c)) {
      findings.push(
        withComponents(
          finding('component/requires-mixed-format', 'error', `${nameOf(catalog, c)} has a requires list mixing plain names and predicates, which cannot be checked.`, undefined, 'Ask its author to use one form of `requires`.'),
          [components[c].name],
        ),
      );
    }
    // Indexed loops: this runs once a click, over neighbour lists a thousand long, and a for-of in
    // code not yet optimised allocates a step object per item.
    const conflicts = catalog.conflicts[c];
    for (let i = 0; i < conflicts.length; i++) {
      const y = conflicts[i];
      if (y > c && chosen[y]) {
        findings.push(withComponents(finding('component/incompatible', 'error', `${pairText(catalog, c, y)}.`, undefined, `Unselect ${nameOf(catalog, c)} or ${nameOf(catalog, y)}.`), [components[c].name, components[y].name]));
      }
    }
    for (const k of catalog.triggeredBy[c]) {
      const rule = constraints[k];
      const hit: number[] = [];
      for (let i = 0; i < rule.items.length; i++) if (chosen[rule.items[i]]) hit.push(rule.items[i]);
      if (hit.length >= rule.min && hit.length <= rule.max) continue;
      const owner = components[c].name;
      if (rule.kind === 'none_of') {
        findings.push(withComponents(finding('component/requires-excluded', 'error', `${describeRule(catalog, k)}; chosen: ${hit.map((x) => nameOf(catalog, x)).join(', ')}.`, rule.where, `Unselect ${hit.map((x) => nameOf(catalog, x)).join(' and ')} or ${nameOf(catalog, c)}.`), [owner, ...names(hit)]));
      } else if (rule.kind === 'ml2-drivers') {
        findings.push(
          withComponents(
            finding('component/ml2-without-driver', 'error', `${nameOf(catalog, c)} is chosen without a mechanism driver, so ML2 would have nothing to plug networks into; the drivers here are ${Array.from(rule.items.subarray(0, 4), (x) => nameOf(catalog, x)).join(', ')}${rule.items.length > 4 ? ', …' : ''}.`, undefined, `Also choose at least one ML2 driver, or choose another network core plugin.`),
            [owner, ...names(rule.items)],
          ),
        );
      } else if (hit.length > rule.max) {
        findings.push(withComponents(finding('component/requires-too-many', 'error', `${describeRule(catalog, k)}, but ${hit.map((x) => nameOf(catalog, x)).join(' and ')} are all chosen.`, rule.where, `Keep only one of them.`), [owner, ...names(hit)]));
      } else {
        // The hint names every missing item of an all_of, three otherwise (a rule may list thousands).
        const missing: number[] = [];
        const want = rule.kind === 'all_of' ? Infinity : 3;
        for (const x of rule.items) {
          if (missing.length >= want) break;
          if (!chosen[x]) missing.push(x);
        }
        const hint = rule.items.length === 0 ? `Install a plugin that provides ${rule.names.join(' or ')}, or unselect ${nameOf(catalog, c)}.` : rule.kind === 'all_of' ? `Also choose ${missing.map((x) => nameOf(catalog, x)).join(', ')}.` : `Also choose ${missing.map((x) => nameOf(catalog, x)).join(' or ')}.`;
        findings.push(withComponents(finding('component/requires-unmet', 'error', `${describeRule(catalog, k)}, and ${rule.kind === 'all_of' ? 'not all of them are' : 'none is'} chosen.`, rule.where, hint), [owner, ...rule.names]));
      }
    }
  }
  for (const k of catalog.global) {
    const rule = constraints[k];
    const hit: number[] = [];
    for (let i = 0; i < rule.items.length; i++) if (chosen[rule.items[i]]) hit.push(rule.items[i]);
    if (hit.length >= rule.min && hit.length <= rule.max) continue;
    if (rule.kind === 'required-type') {
      findings.push(
        withComponents(
          finding('component/required-type-missing', 'error', `No ${rule.type} component is chosen; the release requires one of each type: ${catalog.requiredTypes.join(', ')}.`, undefined, rule.items.length ? `Choose one of ${Array.from(rule.items.subarray(0, 4), (x) => nameOf(catalog, x)).join(', ')}.` : `No ${rule.type} component is available: install a plugin that provides one.`),
          [],
        ),
      );
    } else if (hit.length === 0) {
      findings.push(withComponents(finding('component/network-core-missing', 'error', `No network core plugin is chosen; exactly one of ${[...rule.items].map((x) => nameOf(catalog, x)).join(', ')} must be.`, undefined, 'Choose one network core plugin.'), names(rule.items)));
    } else {
      findings.push(withComponents(finding('component/network-core-conflict', 'error', `Only one network core plugin can be chosen, but ${hit.map((x) => nameOf(catalog, x)).join(' and ')} are.`, undefined, 'Keep one of them.'), names(hit)));
    }
  }
  return findings;
}
