/**
 * What plugin authors and operators should hear about a catalog before anyone opens the wizard:
 * components that can never be chosen, rules naming components nobody provides, requirements
 * that can never be met, wildcards matching nothing.
 */
import type { Finding } from '../findings.js';
import { finding } from '../findings.js';
import { positionOf } from '../positions.js';
import type { Catalog } from './catalog.js';
import { describeRule, explainDeadEnd, nameOf } from './explain.js';
import { Cdcl } from './cdcl.js';
import { Solver } from './solver.js';
import type { ComponentFinding } from './validate.js';

export function analyse(catalog: Catalog, options: { budget?: number } = {}): ComponentFinding[] {
  const out: ComponentFinding[] = catalog.findings.map((f) => ({ ...f, components: [] }));
  const add = (f: Finding, components: string[]) => out.push({ ...f, components });
  const { components, constraints, patterns } = catalog;

  for (const p of patterns) {
    if (p.expansion.length > 0) continue;
    const users = [...new Set(p.usedBy.map((u) => components[u.component].name))];
    const lists = [...new Set(p.usedBy.map((u) => u.list))].join('/');
    if (p.wildcard) {
      add(finding('component/wildcard-matches-nothing', 'warning', `The wildcard "${p.text}" (in the ${lists} list of ${users.join(', ')}) matches no component of this release or its plugins.`, p.where, 'Check the spelling, or drop the rule if the components it meant are gone.'), users);
    } else {
      add(finding('component/unknown-reference', 'warning', `"${p.text}" (in the ${lists} list of ${users.join(', ')}) is not provided by this release or any of its plugins.`, p.where, 'Check the name, or install the plugin that provides it.'), [p.text, ...users]);
    }
  }

  for (const k of constraints) {
    if (k.kind === 'required-type' && k.items.length === 0) {
      add(finding('component/required-type-empty', 'error', `The release requires a ${k.type} component, and none is provided: no environment can be created.`, undefined, `Add a ${k.type} component to the release or install a plugin that provides one.`), []);
    }
  }

  // Yes/no from the clause-learning solver (complete, learns across components); the sentence
  // from the explaining one, which only has to retrace a refutation already known to exist.
  const cdcl = new Cdcl(catalog);
  const base = cdcl.solve([], { budget: options.budget ?? 200_000 });
  if (base.status === 'unsat') {
    add(finding('component/catalog-unsatisfiable', 'error', 'No selection of these components satisfies every rule.', undefined, 'Look at the required types and the rules of the components that fill them.'), []);
    return out;
  }
  const explainer = new Solver(catalog);
  explainer.assume([], true);
  const never = new Set<number>();
  const proved = new Uint8Array(components.length);
  if (base.status === 'sat') for (const x of base.model) proved[x] = 1;
  for (let c = 0; c < components.length; c++) {
    if (proved[c]) continue;
    const r = cdcl.solve([c], { budget: options.budget ?? 200_000, hint: proved });
    if (r.status === 'sat') for (const x of r.model) proved[x] = 1;
    else if (r.status === 'unsat') {
      never.add(c);
      const why = explainer.solve([c], { budget: 2_000, explain: true });
      const text = why.status === 'unsat' ? explainDeadEnd(catalog, c, why.why) : `${nameOf(catalog, c)} cannot be part of any valid selection`;
      add(finding('component/never-choosable', 'warning', `${text}, whatever else is chosen.`, positionOf(components[c].source, 'name'), 'Fix or drop the rules that exclude it.'), [components[c].name]);
    }
  }
  for (const k of constraints) {
    if (k.trigger < 0 || k.min === 0) continue;
    const possible = [...k.items].filter((x) => !never.has(x)).length;
    if (possible < k.min) {
      add(finding('component/requires-never-met', 'warning', `${describeRule(catalog, k.id)}, and ${k.items.length === 0 ? 'nothing provides it' : 'none of it can ever be chosen'}.`, k.where, `${nameOf(catalog, k.trigger)} can never be chosen until this is fixed.`), [components[k.trigger].name, ...k.names]);
    }
  }
  return out;
}
