/**
 * Looking a resource type up in a resolved registry, as Heat's ResourceRegistry does: a per-resource
 * override (exact resource name), then the exact key, then wildcard keys (a trailing `*` only), an
 * alias followed to its own mapping. Two deliberate departures from Heat: an exact key always beats
 * a wildcard (Heat sorts `OS::Net::*` before `OS::Net::FIP` by plain text), and a loop of aliases is
 * reported instead of recursing until Python's stack gives out.
 */
import { finding, type Finding } from '../findings.js';
import type { TemplateRef } from './environment.js';
import type { Resolution, ResolvedEntry } from './resolve.js';

export type Lookup =
  | { kind: 'template'; ref: TemplateRef; chain: string[] }
  /** Not mapped here: a built-in type, or one from Heat's global environment. */
  | { kind: 'unmapped'; type: string; chain: string[] }
  /** Mapped to a list that did not resolve (its error is reported already). */
  | { kind: 'unresolved'; chain: string[] }
  | { kind: 'loop'; chain: string[] };

export interface LookupOptions {
  /** The resource's name, for per-resource overrides. */
  resource?: string;
  /** Keys Heat removes inside a nested stack (the mapping that created it, and its parents'). */
  excluded?: ReadonlySet<string>;
}

/** Beyond this many alias steps the chain is growing without repeating (`A::*: A::B::*`). */
const MAX_ALIAS_STEPS = 64;

function candidatesFor(resolution: Resolution, type: string, options: LookupOptions): { entry: ResolvedEntry; glob?: string }[] {
  const found: { entry: ResolvedEntry; glob?: string }[] = [];
  const excluded = options.excluded;
  const perResource = options.resource ? resolution.resourceEntries.get(options.resource)?.get(type) : undefined;
  if (perResource && !excluded?.has(type)) found.push({ entry: perResource });
  const exact = resolution.entries.get(type);
  if (exact && !excluded?.has(type)) found.push({ entry: exact });
  const globs = [...resolution.entries.values()]
    .filter((e) => e.key.endsWith('*') && !excluded?.has(e.key) && type.startsWith(e.key.slice(0, -1)))
    .sort((a, b) => b.key.length - a.key.length || (a.key < b.key ? -1 : 1));
  for (const entry of globs) found.push({ entry, glob: entry.key.slice(0, -1) });
  return found;
}

export function lookupType(resolution: Resolution, type: string, options: LookupOptions = {}): Lookup {
  const chain: string[] = [];
  let current = type;
  for (;;) {
    if (chain.includes(current) || chain.length >= MAX_ALIAS_STEPS) return { kind: 'loop', chain: [...chain, current] };
    chain.push(current);
    // Heat skips a wildcard whose target is the type itself (`OS::*: OS::Heat::None` for OS::Heat::None).
    const options_ = candidatesFor(resolution, current, options).filter(
      ({ entry, glob }) => !(glob !== undefined && entry.target?.kind === 'type' && entry.target.type === current),
    );
    const first = options_[0];
    if (!first) return { kind: 'unmapped', type: current, chain };
    const target = first.entry.target;
    if (!target) return { kind: 'unresolved', chain };
    if (target.kind === 'template') return { kind: 'template', ref: target.ref, chain };
    if (target.kind === 'other') return { kind: 'unmapped', type: target.written, chain };
    const next = target.type;
    current = first.glob !== undefined && next.endsWith('*') ? next.slice(0, -1) + current.slice(first.glob.length) : next;
  }
}

const PROBE = '\u0000';

/** Every loop of aliases in the registry, once each, as findings at the entry that starts it. */
export function findAliasLoops(resolution: Resolution): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const entry of resolution.entries.values()) {
    if (entry.target?.kind !== 'type') continue;
    // A wildcard key is probed with a made-up name under its prefix.
    const start = entry.key.endsWith('*') ? entry.key.slice(0, -1) + PROBE : entry.key;
    const found = lookupType(resolution, start);
    if (found.kind !== 'loop') continue;
    const shown = found.chain.map((t) => t.replace(PROBE, '*'));
    const repeatAt = found.chain.indexOf(found.chain[found.chain.length - 1]);
    const members = repeatAt < found.chain.length - 1 ? found.chain.slice(repeatAt, -1) : found.chain;
    const id = [...members].sort().join('\n');
    if (seen.has(id)) continue;
    seen.add(id);
    const growing = repeatAt === found.chain.length - 1;
    findings.push(
      finding(
        'environment/alias-loop',
        'error',
        growing
          ? `the aliases starting at '${entry.key}' never end: ${shown.slice(0, 6).join(' → ')} → …`
          : `the aliases loop: ${shown.slice(repeatAt).join(' → ')}; Heat would recurse until it fails`,
        entry.entry.position,
        'map one of these types to a template or a built-in type',
      ),
    );
  }
  return findings;
}
