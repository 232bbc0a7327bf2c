/**
 * Resolution of candidate lists: for every registry entry that lists several implementations, pick
 * the one whose capabilities fit the merged `requires`. A single value keeps today's meaning whatever
 * `requires` says. Exactly one fit resolves the entry; none ("zero") or several ("ambiguous") is an
 * error that lists every candidate and why each does or does not fit.
 */
import { finding, type Finding, type SourcePosition } from '../findings.js';
import type { MergedEnvironment } from './merge.js';
import { requirementsOf, type RegistryEntry, type RegistryTarget } from './environment.js';
import { describeFailure, explainMatch, type Capabilities, type KeyFailure } from './match.js';

/** What the caller could learn about a candidate file. */
export type CandidateCapabilities =
  | { readable: true; capabilities?: Capabilities }
  | { readable: false; reason: string };

export interface CandidateVerdict {
  candidate: string;
  fits: boolean;
  failures: KeyFailure[];
  /** Set when the candidate could not be read (missing, unparseable, not a template). */
  unreadable?: string;
  /** The candidate is a type (an alias, OS::Heat::None), which carries no capabilities. */
  isType?: boolean;
}

export interface ResolutionError {
  type: string;
  /** Set for a per-resource override (`resource_registry.resources.<name>`). */
  resource?: string;
  kind: 'zero' | 'ambiguous';
  candidates: string[];
  matching: string[];
  verdicts: CandidateVerdict[];
  message: string;
  position?: SourcePosition;
}

/** A registry entry after resolution: one target, or none when its list failed to resolve. */
export interface ResolvedEntry {
  key: string;
  target?: RegistryTarget;
  entry: RegistryEntry;
}

export interface Resolution {
  /** Every top-level registry key: the chosen value as shown to users (a template path or a type). */
  resolved: Record<string, string>;
  /** Per-resource overrides, resolved the same way: resource name → type → value. */
  resources: Record<string, Record<string, string>>;
  errors: ResolutionError[];
  findings: Finding[];
  /** The registry with lists replaced by their choice, for lookups (aliases, nested templates). */
  entries: Map<string, ResolvedEntry>;
  /** The same for per-resource overrides: resource path (`a/b` for nested stacks) → type → entry. */
  resourceEntries: Map<string, Map<string, ResolvedEntry>>;
}

export function targetText(target: RegistryTarget): string {
  switch (target.kind) {
    case 'template':
      return target.ref.display;
    case 'type':
      return target.type;
    case 'other':
      return target.written;
  }
}

function requirementText(requirements: Record<string, string>): string {
  const pairs = Object.entries(requirements).map(([k, v]) => `${k}: ${v}`);
  return pairs.length === 0 ? 'no requires' : `requires {${pairs.join(', ')}}`;
}

function verdictLine(verdict: CandidateVerdict): string {
  if (verdict.unreadable) return `  - ${verdict.candidate}: could not be read (${verdict.unreadable})`;
  if (verdict.fits) return `  - ${verdict.candidate}: fits`;
  if (verdict.isType) return `  - ${verdict.candidate}: a type, not a template, so it has none of the required capabilities`;
  return `  - ${verdict.candidate}: ${verdict.failures.map(describeFailure).join('; ')}`;
}

function typeCandidateFailures(required: Record<string, string>): KeyFailure[] {
  return Object.entries(required).map(([key, wanted]) => ({ key, wanted, reason: 'missing' as const }));
}

export function resolveEnvironment(env: MergedEnvironment, capabilitiesOf: (location: string) => CandidateCapabilities): Resolution {
  const required = requirementsOf(env.requires);
  const result: Resolution = { resolved: {}, resources: {}, errors: [], findings: [], entries: new Map(), resourceEntries: new Map() };

  const resolveEntry = (entry: RegistryEntry, resource?: string): RegistryTarget | undefined => {
    const value = entry.value;
    if (value.kind === 'single') return value.target;
    if (value.kind === 'delete') return undefined;
    const verdicts: CandidateVerdict[] = value.items.map((item) => {
      const candidate = targetText(item);
      if (item.kind !== 'template') {
        // A type has no capabilities: it fits only when nothing is required.
        const failures = typeCandidateFailures(required);
        return { candidate, fits: failures.length === 0, failures, isType: true };
      }
      const known = capabilitiesOf(item.ref.location);
      if (!known.readable) {
        result.findings.push(
          finding('template/unreadable-candidate', 'error', `the candidate '${candidate}' of '${entry.key}' could not be read: ${known.reason}`, entry.position, 'fix the path (it is relative to the environment file) or the file'),
        );
        return { candidate, fits: false, failures: [], unreadable: known.reason };
      }
      return { candidate, ...explainMatch(known.capabilities, required) };
    });
    const fitting = value.items.filter((_, index) => verdicts[index].fits);
    if (fitting.length === 1) return fitting[0];
    const kind = fitting.length === 0 ? 'zero' : 'ambiguous';
    const where = resource ? `'${entry.key}' of resource '${resource}'` : `'${entry.key}'`;
    const headline =
      value.items.length === 0
        ? `${where} lists no candidates`
        : kind === 'zero'
          ? `no candidate for ${where} fits ${requirementText(required)}`
          : `${fitting.length} candidates for ${where} fit ${requirementText(required)}; exactly one must`;
    const hint =
      kind === 'zero'
        ? 'add a capability to the template you want, change requires, or map the type to one template'
        : 'add a requires key that tells them apart (each template can declare its own value), or list fewer candidates';
    const message = `${headline}:\n${verdicts.map(verdictLine).join('\n')}`;
    result.errors.push({
      type: entry.key,
      ...(resource ? { resource } : {}),
      kind,
      candidates: verdicts.map((v) => v.candidate),
      matching: verdicts.filter((v) => v.fits).map((v) => v.candidate),
      verdicts,
      message,
      ...(entry.position ? { position: entry.position } : {}),
    });
    result.findings.push(finding(`resolve/${kind === 'zero' ? 'no-fit' : 'ambiguous'}`, 'error', message, entry.position, hint));
    return undefined;
  };

  for (const entry of env.registry.values()) {
    const target = resolveEntry(entry);
    result.entries.set(entry.key, { key: entry.key, target, entry });
    if (target) result.resolved[entry.key] = targetText(target);
  }
  const visitOverrides = (overrides: MergedEnvironment['resources'], prefix: string) => {
    for (const [name, override] of overrides) {
      const path = prefix ? `${prefix}/${name}` : name;
      for (const entry of override.types.values()) {
        const target = resolveEntry(entry, path);
        if (!result.resourceEntries.has(path)) result.resourceEntries.set(path, new Map());
        result.resourceEntries.get(path)?.set(entry.key, { key: entry.key, target, entry });
        if (target) (result.resources[path] ??= {})[entry.key] = targetText(target);
      }
      visitOverrides(override.nested, path);
    }
  };
  visitOverrides(env.resources, '');
  return result;
}
