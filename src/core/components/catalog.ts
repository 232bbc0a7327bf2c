/**
 * Compiling a catalog: the release's and plugins' components become indices, every rule's names
 * are expanded once to index sets, and incompatibilities become one symmetric graph. Everything
 * the engine answers later (validate, state, complete, analyse) works on this form only, so a
 * click never touches a string pattern again.
 */
import type { Finding, SourcePosition } from '../findings.js';
import { finding } from '../findings.js';
import { positionOf } from '../positions.js';
import type { Component } from '../release/model.js';
import {
  COMPONENT_TYPES,
  RADIO_GROUPS,
  displayName,
  groupOf,
  isMl2Core,
  matches,
  nameProblem,
  paneOf,
  parsePattern,
  patternProblem,
  typeOf,
  type ComponentGroup,
} from './names.js';

export interface CompiledComponent {
  index: number;
  name: string;
  type: string;
  group: ComponentGroup;
  pane: number;
  /** `Label (name)` or the bare name when the label is missing or an i18n key. */
  display: string;
  weight: number;
  default: boolean;
  plugin?: { name: string; version: string };
  /** Pattern ids of its `compatible` list (the green light). */
  compatible: number[];
  /** Pattern ids of its `incompatible` list, with their messages. */
  incompatible: Array<{ pattern: number; message?: string }>;
  /** The component as given, for adapters (bind, description …). */
  source: Component;
}

export type ConstraintKind = 'requires' | 'one_of' | 'any_of' | 'none_of' | 'all_of' | 'required-type' | 'radio' | 'ml2-drivers';

/**
 * One rule in solver form: when `trigger` is chosen (or always, when it is -1), the number of
 * chosen `items` lies in [min, max]. Every `requires` shape, the required types and the radio
 * group are instances of it; incompatibility lives in `Catalog.conflicts` instead because there
 * are far more pairs than rules.
 */
export interface Constraint {
  id: number;
  kind: ConstraintKind;
  trigger: number;
  items: Int32Array;
  min: number;
  max: number;
  /** Names as written in the rule (before expansion), for messages. */
  names: string[];
  message?: string;
  messageInvalid?: string;
  /** The required type, for `required-type`. */
  type?: string;
  where?: SourcePosition;
}

export interface PatternEntry {
  id: number;
  text: string;
  wildcard: boolean;
  expansion: Int32Array;
  /** Where it was first written, for analysis findings. */
  where?: SourcePosition;
  /** Component indices that wrote it, and in which list. */
  usedBy: Array<{ component: number; list: 'compatible' | 'incompatible' | 'requires' }>;
}

export interface Catalog {
  components: CompiledComponent[];
  byName: Map<string, number>;
  requiredTypes: string[];
  /** Symmetric incompatibility neighbours of each component. */
  conflicts: Int32Array[];
  constraints: Constraint[];
  /** Constraint ids whose trigger is the component. */
  triggeredBy: Int32Array[];
  /** Constraint ids whose items contain the component. */
  occurrences: Int32Array[];
  /** Constraints with no trigger (required types, the radio group): always in force. */
  global: number[];
  patterns: PatternEntry[];
  /** Pattern ids matching each component (for the green light, which is symmetric). */
  matchedBy: Int32Array[];
  /** Components whose `requires` mixes both forms: selecting one is an error. */
  mixedRequires: Set<number>;
  /** Problems found while compiling (bad names, duplicates, malformed rules). */
  findings: Finding[];
}

export interface CompileOptions {
  /** The release's `required_component_types`. */
  requiredTypes?: readonly string[];
}

const PREDICATES = ['one_of', 'any_of', 'none_of', 'all_of'] as const;
type PredicateName = (typeof PREDICATES)[number];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function at(container: unknown, key?: string | number): Partial<SourcePosition> | undefined {
  return positionOf(container, key);
}

export function compileCatalog(input: readonly Component[], options: CompileOptions = {}): Catalog {
  const findings: Finding[] = [];
  const components: CompiledComponent[] = [];
  const byName = new Map<string, number>();

  input.forEach((raw, i) => {
    if (!isRecord(raw)) {
      findings.push(finding('component/invalid', 'error', `Component #${i + 1} is not a mapping with a name.`, at(input, i), 'Write each component as a mapping: `- name: type:subtype:name`.'));
      return;
    }
    const name = text(raw.name);
    if (name === undefined) {
      findings.push(finding('component/invalid', 'error', `Component #${i + 1} has no name.`, at(raw) ?? at(input, i), 'Give it a `name` like `network:neutron:ml2:dvs`.'));
      return;
    }
    const problem = nameProblem(name);
    if (problem) {
      findings.push(finding('component/bad-name', 'error', `Component name "${name}": ${problem}.`, at(raw, 'name'), 'Use `type:subtype:name`, e.g. `storage:block:ceph`.'));
      return;
    }
    const owner = (c: Component) => (c.plugin ? `plugin ${c.plugin.name} ${c.plugin.version}` : 'the release');
    const seen = byName.get(name);
    if (seen !== undefined) {
      const first = components[seen].source;
      findings.push(
        finding('component/duplicate', 'error', `Component "${name}" from ${owner(raw)} is already provided by ${owner(first)}; the first definition is kept.`, at(raw, 'name'), 'Rename one of them: a component name identifies one thing.'),
      );
      return;
    }
    const type = typeOf(name);
    if (!(COMPONENT_TYPES as readonly string[]).includes(type)) {
      findings.push(finding('component/unknown-type', 'warning', `Component "${name}" has type "${type}", which the wizard does not show.`, at(raw, 'name'), `Use one of: ${COMPONENT_TYPES.join(', ')}.`));
    }
    const index = components.length;
    byName.set(name, index);
    const label = text(raw.label);
    components.push({
      index,
      name,
      type,
      group: groupOf(name),
      pane: paneOf(type),
      display: displayName(name, label),
      weight: typeof raw.weight === 'number' && Number.isFinite(raw.weight) ? raw.weight : 100,
      default: raw.default === true,
      plugin: raw.plugin,
      compatible: [],
      incompatible: [],
      source: raw,
    });
  });

  const n = components.length;
  const patterns: PatternEntry[] = [];
  const patternIds = new Map<string, number>();
  function pattern(value: string, where: Partial<SourcePosition> | undefined, component: number, list: PatternEntry['usedBy'][number]['list']): number | undefined {
    // A catalog repeats a few patterns thousands of times: look it up before checking it.
    let id = patternIds.get(value);
    if (id === undefined) {
      const problem = patternProblem(value);
      if (problem) {
        findings.push(finding('component/bad-wildcard', 'error', `"${value}" in the ${list} list of ${components[component].name}: ${problem}.`, where, 'Write a full name, or end it with a `*` segment.'));
        return undefined;
      }
      const p = parsePattern(value);
      let expansion: Int32Array;
      if (!p.wildcard) {
        const hit = byName.get(value);
        expansion = Int32Array.from(hit === undefined ? [] : [hit]);
      } else {
        // Only names sharing the literal segments before the first `*` can match.
        const literal = p.segments.slice(0, p.segments.indexOf('*'));
        const prefix = literal.length > 0 ? `${literal.join(':')}:` : '';
        const hits: number[] = [];
        for (const c of components) if (c.name.startsWith(prefix) && matches(p, c.name)) hits.push(c.index);
        expansion = Int32Array.from(hits);
      }
      id = patterns.length;
      patternIds.set(value, id);
      patterns.push({ id, text: value, wildcard: p.wildcard, expansion, where: where as SourcePosition | undefined, usedBy: [] });
    }
    patterns[id].usedBy.push({ component, list });
    return id;
  }

  const constraints: Constraint[] = [];
  const mixedRequires = new Set<number>();
  // Plain arrays, sorted and deduplicated at the end: `storage:object:*` on every 20th component
  // makes hundreds of thousands of pairs at 10,000 components, too many for Sets.
  const neighbourLists: number[][] = Array.from({ length: n }, () => []);

  for (const c of components) {
    const raw = c.source as Record<string, unknown>;
    for (const list of ['compatible', 'incompatible'] as const) {
      const entries = raw[list];
      if (entries === undefined || entries === null) continue;
      if (!Array.isArray(entries)) {
        findings.push(finding('component/invalid-rule', 'error', `The ${list} list of ${c.name} is not a list.`, at(raw, list), `Write \`${list}:\` as a list of \`- name: …\` entries.`));
        continue;
      }
      entries.forEach((entry, k) => {
        const name = isRecord(entry) ? text(entry.name) : text(entry);
        if (name === undefined) {
          findings.push(finding('component/invalid-rule', 'error', `Entry ${k + 1} of the ${list} list of ${c.name} has no name.`, at(entries, k), 'Each entry is `- name: type:subtype:name`.'));
          return;
        }
        const id = pattern(name, at(isRecord(entry) ? entry : entries, isRecord(entry) ? 'name' : k), c.index, list);
        if (id === undefined) return;
        if (list === 'compatible') c.compatible.push(id);
        else {
          // Fuel's spec calls it `description` in places; plugins (calico) followed it.
          const message = isRecord(entry) ? (text(entry.message) ?? text(entry.description)) : undefined;
          c.incompatible.push({ pattern: id, message });
          // A component matching its own pattern (`storage:object:*` on an object storage) means "any other".
          for (const other of patterns[id].expansion) {
            if (other === c.index) continue;
            neighbourLists[c.index].push(other);
            neighbourLists[other].push(c.index);
          }
        }
      });
    }
    compileRequires(c, raw);
  }

  function compileRequires(c: CompiledComponent, raw: Record<string, unknown>): void {
    const requires = raw.requires;
    if (requires === undefined || requires === null) return;
    if (!Array.isArray(requires)) {
      findings.push(finding('component/invalid-rule', 'error', `The requires list of ${c.name} is not a list.`, at(raw, 'requires'), 'Write `requires:` as a list of `- name: …` entries or of predicates (`- one_of: {items: […]}`).'));
      return;
    }
    if (requires.length === 0) return;
    const named = requires.filter((r) => isRecord(r) && text(r.name) !== undefined);
    if (named.length > 0 && named.length < requires.length) {
      mixedRequires.add(c.index);
      findings.push(
        finding('component/requires-mixed-format', 'error', `The requires list of ${c.name} mixes plain names with predicates (one_of, any_of, …); it cannot be read.`, at(raw, 'requires'), 'Use one form: either `- name: …` entries, or predicates like `- any_of: {items: […]}`.'),
      );
      return;
    }
    if (named.length > 0) {
      // Plain form, as Nailgun reads it: OR among names of one type, AND across types.
      const byType = new Map<string, { names: string[]; items: Set<number>; message?: string; where?: Partial<SourcePosition> }>();
      requires.forEach((r, k) => {
        const entry = r as Record<string, unknown>;
        const name = text(entry.name) as string;
        const id = pattern(name, at(entry, 'name'), c.index, 'requires');
        const t = typeOf(name);
        let g = byType.get(t);
        if (!g) {
          g = { names: [], items: new Set(), where: at(requires, k) };
          byType.set(t, g);
        }
        g.names.push(name);
        if (id !== undefined) for (const x of patterns[id].expansion) g.items.add(x);
        const message = text(entry.message);
        if (message) g.message = message;
      });
      for (const g of byType.values()) {
        add({ kind: 'requires', trigger: c.index, items: g.items, min: 1, max: Infinity, names: g.names, message: g.message, where: g.where });
      }
      return;
    }
    requires.forEach((r, k) => {
      if (!isRecord(r)) {
        findings.push(finding('component/invalid-rule', 'error', `Entry ${k + 1} of the requires list of ${c.name} is neither a name nor a predicate.`, at(requires, k), 'Write `- name: …` or `- one_of: {items: […]}`.'));
        return;
      }
      const keys = Object.keys(r);
      const unknown = keys.filter((key) => !(PREDICATES as readonly string[]).includes(key));
      if (unknown.length > 0 || keys.length === 0) {
        findings.push(
          finding('component/invalid-rule', 'error', `Entry ${k + 1} of the requires list of ${c.name} has ${keys.length === 0 ? 'no predicate' : `unknown key(s) ${unknown.join(', ')}`}.`, at(r), `A predicate is one of ${PREDICATES.join(', ')} with \`items\`.`),
        );
      }
      for (const key of keys) {
        if (!(PREDICATES as readonly string[]).includes(key)) continue;
        const body = r[key];
        const items = isRecord(body) ? body.items : undefined;
        if (!Array.isArray(items)) {
          findings.push(finding('component/invalid-rule', 'error', `The ${key} predicate of ${c.name} has no \`items\` list.`, at(r, key), `Write \`${key}: {items: [name, …]}\`.`));
          continue;
        }
        const set = new Set<number>();
        const names: string[] = [];
        items.forEach((item, j) => {
          const name = text(item);
          if (name === undefined) {
            findings.push(finding('component/invalid-rule', 'error', `Item ${j + 1} of the ${key} predicate of ${c.name} is not a name.`, at(items, j), 'Items are component names.'));
            return;
          }
          names.push(name);
          const id = pattern(name, at(items, j), c.index, 'requires');
          if (id !== undefined) for (const x of patterns[id].expansion) set.add(x);
        });
        const b = body as Record<string, unknown>;
        const pred = key as PredicateName;
        const bounds: Record<PredicateName, [number, number]> = { one_of: [1, 1], any_of: [1, Infinity], none_of: [0, 0], all_of: [set.size, Infinity] };
        const [min, max] = bounds[pred];
        add({ kind: pred, trigger: c.index, items: set, min, max, names, message: text(b.message), messageInvalid: text(b.message_invalid), where: at(r, key) });
      }
    });
  }

  function add(spec: Omit<Constraint, 'id' | 'items' | 'where'> & { items: Iterable<number>; where?: Partial<SourcePosition> }): void {
    const items = Int32Array.from([...spec.items].sort((a, b) => a - b));
    // A rule nothing can break (all_of over nothing, none_of over nothing) is left out of the solver.
    if (spec.min === 0 && spec.max >= items.length) return;
    constraints.push({ ...spec, id: constraints.length, items, where: spec.where as SourcePosition | undefined });
  }

  const requiredTypes = [...new Set(options.requiredTypes ?? [])];
  for (const t of requiredTypes) {
    const items = components.filter((c) => c.type === t).map((c) => c.index);
    add({ kind: 'required-type', trigger: -1, items, min: 1, max: Infinity, names: [`${t}:*`], type: t });
  }
  // At most one network core; exactly one only when the release requires a network component
  // (issue 28: with `required_component_types: [hypervisor]` no core is forced, as Nailgun reads it).
  const coreRequired = requiredTypes.includes('network');
  for (const group of RADIO_GROUPS) {
    const items = components.filter((c) => c.group === group).map((c) => c.index);
    if (items.length > 0) add({ kind: 'radio', trigger: -1, items, min: coreRequired ? 1 : 0, max: 1, names: items.map((i) => components[i].name), type: group });
  }
  // ML2 without a mechanism driver moves no packet: when the catalog offers drivers, choosing
  // ML2 needs at least one of them (issue 28). Not a gate (gates.ts): the drivers sit on ML2's
  // pane and wait for it, so the wizard lets ML2 be chosen first, and disables it only when no
  // driver could follow (state.ts).
  const drivers = components.filter((c) => c.group === 'network:ml2').map((c) => c.index);
  if (drivers.length > 0) {
    for (const core of components) {
      if (isMl2Core(core.name)) add({ kind: 'ml2-drivers', trigger: core.index, items: drivers, min: 1, max: Infinity, names: ['network:*:ml2:*'] });
    }
  }

  const triggered: number[][] = Array.from({ length: n }, () => []);
  const occurs: number[][] = Array.from({ length: n }, () => []);
  const global: number[] = [];
  for (const k of constraints) {
    if (k.trigger < 0) global.push(k.id);
    else triggered[k.trigger].push(k.id);
    for (const x of k.items) occurs[x].push(k.id);
  }
  const matchedBy: number[][] = Array.from({ length: n }, () => []);
  for (const p of patterns) for (const x of p.expansion) matchedBy[x].push(p.id);

  return {
    components,
    byName,
    requiredTypes,
    conflicts: neighbourLists.map(uniqueSorted),
    constraints,
    triggeredBy: triggered.map((l) => Int32Array.from(l)),
    occurrences: occurs.map((l) => Int32Array.from(l)),
    global,
    patterns,
    matchedBy: matchedBy.map((l) => Int32Array.from(l)),
    mixedRequires,
    findings,
  };
}

function uniqueSorted(list: number[]): Int32Array {
  const sorted = Int32Array.from(list).sort();
  let k = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[k++] = sorted[i];
  return sorted.slice(0, k);
}

/** The rule behind an incompatibility between two components: who declared it, with its message. */
export function incompatibilityBetween(catalog: Catalog, a: number, b: number): { declarer: number; other: number; message?: string } | undefined {
  // a's side first, then b's (a click tells a thousand pairs: no arrays made to loop over the two).
  return declaredBy(catalog, a, b) ?? declaredBy(catalog, b, a);
}

function declaredBy(catalog: Catalog, declarer: number, other: number): { declarer: number; other: number; message?: string } | undefined {
  const rules = catalog.components[declarer].incompatible;
  // The patterns matching `other` (a handful) rather than each rule's expansion: a click tells a
  // thousand pairs, and a search through each rule's pattern and expansion missed the cache at
  // every step (2 µs a pair); the other side's list stays in cache across them.
  const matching = catalog.matchedBy[other];
  for (let i = 0; i < rules.length; i++) {
    const p = rules[i].pattern;
    for (let j = 0; j < matching.length; j++) if (matching[j] === p) return { declarer, other, message: rules[i].message };
  }
  return undefined;
}

/** Is `x` in the ascending `list`? */
export function sortedHas(list: Int32Array, x: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] === x) return true;
    if (list[mid] < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
