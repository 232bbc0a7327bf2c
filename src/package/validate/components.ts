/**
 * components.yaml beyond its schema: rules (`compatible`, `requires`, `incompatible`) whose
 * entries carry keys Fuel does not read, and ML2 mechanism drivers that do not require the ML2
 * core, which lets the wizard offer a driver without the plugin it plugs into.
 */
import { finding } from '../../core/findings.js';
import { keyPositionOf, positionOf } from '../../core/positions.js';
import { closest, editDistance } from './spelling.js';
import { groupOf, matches as matchesPattern, parsePattern, patternProblem, typeOf } from '../../core/components/names.js';
import { checkComponentNameCase } from './component-names.js';
import { isMapping, type ValidationContext } from './context.js';

const RULE_KEYS = ['compatible', 'requires', 'incompatible'];
const RULE_ENTRY_KEYS = ['name', 'message'];
const PREDICATES = ['one_of', 'any_of', 'none_of', 'all_of'];
const ML2_CORE = 'network:neutron:core:ml2';

export function componentLists(ctx: ValidationContext): Array<{ list: Record<string, unknown>[]; file: string }> {
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
  checkComponentNameCase(ctx, componentLists(ctx));
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
            // The design's own answer spells an incompatible entry's text `description`; Hearth
            // shows it as the message when there is none (issue 28), Fuel's wizard never did.
            const shownByHearth = rule === 'incompatible' && key === 'description';
            const near = shownByHearth ? 'message' : closest(key, rule === 'requires' ? [...RULE_ENTRY_KEYS, ...PREDICATES] : RULE_ENTRY_KEYS);
            ctx.findings.push(
              finding(
                'component/unknown-rule-key',
                'warning',
                shownByHearth
                  ? `component '${name}': an 'incompatible' entry has the key 'description', which Hearth shows as the entry's message but Fuel does not read (Fuel reads only name and message)`
                  : `component '${name}': a '${rule}' entry has the key '${key}', which neither Fuel nor Hearth reads (an entry has only name and message)`,
                keyPositionOf(entry, key),
                shownByHearth ? "rename it 'message', so Fuel shows it too" : near ? `did you mean '${near}'?` : `remove '${key}', or put the text in message`,
              ),
            );
          }
        }
      }
      const requires = Array.isArray(component.requires) ? component.requires.filter(isMapping) : [];
      const named = requires.filter((r) => r.name !== undefined).length;
      if (named > 0 && named < requires.length) {
        // Nailgun refuses the mix ("has mixed format of requires"), and the two forms read differently.
        ctx.findings.push(
          finding(
            'component/requires-mixed-format',
            'error',
            `component '${name}' mixes the two forms of requires: {name} entries (OR within a type, AND across types) and predicates (any_of, one_of, all_of, none_of)`,
            keyPositionOf(component, 'requires'),
            'write every entry in one form; to say "any of these, whatever their types", use one any_of with all the names',
          ),
        );
      }
      if (named === requires.length) checkRequiresAcrossTypes(ctx, component, requires, name);
      checkBinds(ctx, component, name);
      checkRuleTargets(ctx, component, name);
      const group = groupOf(name);
      if (group === 'network:service' || group === 'network:ipam') {
        // Hearth reads the design's subtypes here, Fuel 9.0's wizard did not (issue 28): say so where it matters.
        ctx.findings.push(
          finding(
            'component/beside-network-core',
            'info',
            `component '${name}' is a Neutron ${group === 'network:service' ? 'service' : 'IPAM driver'}: Hearth offers it beside the network core plugin (a checkbox, as the components design's subtypes say), while Fuel 9.0's wizard showed it as one more core plugin (a radio button replacing ML2)`,
            positionOf(component, 'name'),
            'nothing to change for Hearth; in Fuel 9.0 it could not be chosen together with ML2',
          ),
        );
      }
      // Every ML2 driver spelling the engine groups as one (`network:neutron:ml2:ovs`, the design's `network:ml2:dvs`).
      if (group === 'network:ml2') {
        const required = requiredNames(component);
        if (!required.some((r) => !patternProblem(r) && matchesPattern(parsePattern(r), ML2_CORE))) {
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

/**
 * The design reads a plain `requires` list as OR over all its names ("Condition is next: A OR B
 * OR C"); Nailgun, and Hearth with it, reads OR within a type and AND across types, which real
 * plugins depend on (DVS requires the ML2 core and vCenter). Where the two readings differ — a
 * list naming more than one type — say which one applies and how to write the other (issue 28).
 */
function checkRequiresAcrossTypes(ctx: ValidationContext, component: Record<string, unknown>, requires: Record<string, unknown>[], name: string): void {
  const byType = new Map<string, string[]>();
  for (const r of requires) {
    if (typeof r.name !== 'string') continue;
    const t = typeOf(r.name);
    byType.set(t, [...(byType.get(t) ?? []), r.name]);
  }
  if (byType.size < 2) return;
  const reading = [...byType.values()].map((names) => (names.length > 1 ? `(${names.join(' or ')})` : names[0])).join(' and ');
  const all = requires.map((r) => r.name as string);
  ctx.findings.push(
    finding(
      'component/requires-across-types',
      'warning',
      `component '${name}' requires names of ${byType.size} types (${[...byType.keys()].join(', ')}): Hearth reads this as Fuel did, one of each type — ${reading} — not as the design's "any of them" (${all.join(' or ')})`,
      keyPositionOf(component, 'requires'),
      `if one of each type is meant, nothing to change; for any one of them, write requires: [{any_of: {items: [${all.join(', ')}]}}]`,
    ),
  );
}

/**
 * `bind` ties a component to settings: `settings:<group>.<attribute>.value` (a plugin's own
 * settings live in the group named after the plugin). A bind to a setting that does not exist
 * does nothing when the component is chosen.
 */
function checkBinds(ctx: ValidationContext, component: Record<string, unknown>, name: string): void {
  const binds = component.bind;
  if (!Array.isArray(binds)) return;
  const env = ctx.plugin.files.environment_config;
  const own = isMapping(env) && isMapping(env.attributes) ? env.attributes : {};
  const editable = ctx.release && isMapping(ctx.release.attributes_metadata?.editable) ? (ctx.release.attributes_metadata.editable as Record<string, unknown>) : undefined;
  binds.forEach((entry, i) => {
    const path = typeof entry === 'string' ? entry : Array.isArray(entry) && typeof entry[0] === 'string' ? entry[0] : undefined;
    if (!path) return;
    const m = /^settings:([^.]+)\.([^.]+)(?:\.(.+))?$/.exec(path);
    if (!m) return;
    const [, group, attribute] = m;
    let known: boolean | undefined;
    if (group === ctx.plugin.name) known = attribute in own;
    else if (editable) known = isMapping(editable[group]) && attribute in (editable[group] as Record<string, unknown>);
    if (known !== false) return;
    ctx.findings.push(
      finding(
        'component/unknown-bind-key',
        'warning',
        `component '${name}' binds '${path}', a setting that ${group === ctx.plugin.name ? 'environment_config.yaml does not define' : `release ${ctx.release?.name} does not have`}`,
        positionOf(binds, i),
        group === ctx.plugin.name ? `define '${attribute}' in environment_config.yaml, or fix the path` : 'fix the setting path',
      ),
    );
  });
}

const lastSegment = (n: string) => n.slice(n.lastIndexOf(':') + 1);
const parentOf = (n: string) => n.slice(0, Math.max(0, n.lastIndexOf(':')));

/** What exists instead of a component name: its siblings (same parent), nearest last segment first, up to three. */
function alternatives(name: string, known: Set<string>): string[] {
  const parent = parentOf(name);
  const leaf = lastSegment(name);
  return [...known]
    .filter((k) => parentOf(k) === parent && k !== name)
    .sort((a, b) => editDistance(lastSegment(a), leaf) - editDistance(lastSegment(b), leaf) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, 3);
}

const insteadSuffix = (name: string, known: Set<string>) => {
  const near = alternatives(name, known);
  return near.length > 0 ? `; what exists instead: ${near.map((n) => `'${n}'`).join(', ')}` : '';
};

/** `requires: [{one_of: {items: [...]}}]` and the other predicates: every item must name a component too. */
function checkPredicateItems(ctx: ValidationContext, entry: Record<string, unknown>, name: string, known: Set<string>): void {
  for (const [predicate, body] of Object.entries(entry)) {
    if (!isMapping(body) || !Array.isArray(body.items)) continue;
    const items = body.items;
    items.forEach((item, i) => {
      if (typeof item !== 'string' || item.includes('*') || known.has(item)) return;
      // Predicate lists name alternatives, often other plugins' (Fuel's vmware hypervisor requires
      // one_of the DVS or NSX plugins' drivers): only a likely slip of a known name is reported.
      const slip = alternatives(item, known).filter((k) => editDistance(lastSegment(k), lastSegment(item)) <= (lastSegment(item).length <= 4 ? 1 : 2));
      if (slip.length === 0) return;
      ctx.findings.push(
        finding(
          'component/unknown-component',
          'warning',
          `component '${name}' requires ${predicate} of a list holding '${item}', which neither the plugin nor release ${ctx.release?.name} provides; closest: ${slip.map((n) => `'${n}'`).join(', ')}`,
          positionOf(items, i),
          `did you mean ${slip.map((n) => `'${n}'`).join(' or ')}?`,
        ),
      );
    });
  }
}

/** With a release, rule names without a wildcard must name a component of the plugin or the release. */
function checkRuleTargets(ctx: ValidationContext, component: Record<string, unknown>, name: string): void {
  if (!ctx.release) return;
  const known = new Set<string>((ctx.release.components ?? []).map((c) => c.name));
  for (const { list } of componentLists(ctx)) for (const c of list) if (typeof c.name === 'string') known.add(c.name);
  for (const rule of RULE_KEYS) {
    const entries = component[rule];
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (isMapping(entry) && typeof entry.name !== 'string') checkPredicateItems(ctx, entry, name, known);
      if (isMapping(entry) && typeof entry.name === 'string' && entry.name.includes('*') && !patternProblem(entry.name)) {
        const pattern = parsePattern(entry.name);
        if ([...known].some((k) => matchesPattern(pattern, k))) continue;
        ctx.findings.push(
          finding(
            'component/pattern-matches-nothing',
            'warning',
            `component '${name}' ${rule === 'requires' ? 'requires' : rule === 'compatible' ? 'is compatible with' : 'is incompatible with'} '${entry.name}', a pattern no component of the plugin or release ${ctx.release.name} matches, so the rule can never apply`,
            positionOf(entry, 'name'),
            `the components there are of the kinds ${[...new Set([...known].map((k) => k.split(':').slice(0, 2).join(':')))].sort().join(', ')}; fix the pattern`,
          ),
        );
        continue;
      }
      if (!isMapping(entry) || typeof entry.name !== 'string' || entry.name.includes('*') || known.has(entry.name)) continue;
      ctx.findings.push(
        finding(
          'component/unknown-component',
          'warning',
          `component '${name}' ${rule === 'requires' ? 'requires' : rule === 'compatible' ? 'is compatible with' : 'is incompatible with'} '${entry.name}', which neither the plugin nor release ${ctx.release.name} provides${insteadSuffix(entry.name, known)}`,
          positionOf(entry, 'name'),
          'fix the name, or use a wildcard such as network:neutron:* (a component of another plugin counts only when that plugin is installed)',
        ),
      );
    }
  }
}
