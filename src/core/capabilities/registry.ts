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

/**
 * The registry's wildcard keys by their prefix, with the prefix lengths longest first: a type's
 * wildcards are found by slicing it at those lengths, not by scanning every key at every alias
 * step (10,000 chained aliases once took 78 s of the server's only thread to check).
 */
interface GlobIndex {
  byPrefix: Map<string, ResolvedEntry>;
  lengths: number[];
}
const globIndexes = new WeakMap<Resolution, GlobIndex>();

function globIndex(resolution: Resolution): GlobIndex {
  let index = globIndexes.get(resolution);
  if (!index) {
    const byPrefix = new Map<string, ResolvedEntry>();
    for (const entry of resolution.entries.values()) if (entry.key.endsWith('*')) byPrefix.set(entry.key.slice(0, -1), entry);
    const lengths = [...new Set([...byPrefix.keys()].map((prefix) => prefix.length))].sort((a, b) => b - a);
    index = { byPrefix, lengths };
    globIndexes.set(resolution, index);
  }
  return index;
}

/** The first mapping Heat would use for `type`: per-resource, exact, then the longest wildcard. */
function firstCandidate(resolution: Resolution, type: string, options: LookupOptions): { entry: ResolvedEntry; glob?: string } | undefined {
  const excluded = options.excluded;
  const perResource = options.resource ? resolution.resourceEntries.get(options.resource)?.get(type) : undefined;
  if (perResource && !excluded?.has(type)) return { entry: perResource };
  const exact = resolution.entries.get(type);
  if (exact && !excluded?.has(type)) return { entry: exact };
  const { byPrefix, lengths } = globIndex(resolution);
  for (const length of lengths) {
    if (length > type.length) continue;
    const glob = type.slice(0, length);
    const entry = byPrefix.get(glob);
    if (!entry || excluded?.has(entry.key)) continue;
    // Heat skips a wildcard whose target is the type itself (`OS::*: OS::Heat::None` for OS::Heat::None).
    if (entry.target?.kind === 'type' && entry.target.type === type) continue;
    return { entry, glob };
  }
  return undefined;
}

export function lookupType(resolution: Resolution, type: string, options: LookupOptions = {}): Lookup {
  return walkAliases(resolution, type, options) as Lookup;
}

/**
 * Follow aliases from `type`. With `settled` (types an earlier walk has judged), a walk that
 * reaches one stops there: what lies beyond is known, so every entry is walked past once.
 */
function walkAliases(resolution: Resolution, type: string, options: LookupOptions, settled?: ReadonlySet<string>): Lookup | { kind: 'settled'; chain: string[] } {
  const chain: string[] = [];
  const inChain = new Set<string>();
  let current = type;
  for (;;) {
    if (inChain.has(current) || chain.length >= MAX_ALIAS_STEPS) return { kind: 'loop', chain: [...chain, current] };
    if (settled?.has(current)) return { kind: 'settled', chain };
    chain.push(current);
    inChain.add(current);
    const first = firstCandidate(resolution, current, options);
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
  // Types some walk has passed: a later walk that reaches one stops, so the check is linear.
  const settled = new Set<string>();
  for (const entry of resolution.entries.values()) {
    if (entry.target?.kind !== 'type') continue;
    // A wildcard key is probed with a made-up name under its prefix.
    const start = entry.key.endsWith('*') ? entry.key.slice(0, -1) + PROBE : entry.key;
    const found = walkAliases(resolution, start, {}, settled);
    for (const type of found.chain) settled.add(type);
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
          ? `the aliases starting at '${entry.key}' never end (or go on past ${MAX_ALIAS_STEPS} steps): ${shown.slice(0, 6).join(' → ')} → …`
          : `the aliases loop: ${shown.slice(repeatAt).join(' → ')}; Heat would recurse until it fails`,
        entry.entry.position,
        'map one of these types to a template or a built-in type',
      ),
    );
  }
  return findings;
}
