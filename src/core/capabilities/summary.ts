/**
 * The capabilities summary (`template capabilities -f …`): which tags and which types a set of
 * templates declares. Values appear in first-seen order following the order of the files, without
 * repeats, as in the design's `{'deployment': ['puppet', 'docker']}`.
 */
import { capabilityText, type Capabilities } from './match.js';

export interface CapabilitiesSummary {
  /** Every capability key but `resource_type`: its values. */
  tags: Record<string, string[]>;
  /** Every type named in a `resource_type`: the templates that declare it. */
  types: Record<string, string[]>;
}

export interface SummaryEntry {
  /** The template as the user should see it. */
  template: string;
  capabilities?: Capabilities;
  resourceTypes: readonly string[];
}

function append(target: Record<string, string[]>, key: string, value: string): void {
  const list = Object.prototype.hasOwnProperty.call(target, key) ? target[key] : (target[key] = []);
  if (!list.includes(value)) list.push(value);
}

export function summariseCapabilities(entries: readonly SummaryEntry[]): CapabilitiesSummary {
  const summary: CapabilitiesSummary = { tags: Object.create(null) as Record<string, string[]>, types: Object.create(null) as Record<string, string[]> };
  for (const entry of entries) {
    if (!entry.capabilities) continue;
    for (const type of entry.resourceTypes) append(summary.types, type, entry.template);
    for (const [key, value] of Object.entries(entry.capabilities)) {
      if (key === 'resource_type') continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        const text = capabilityText(item);
        if (text !== undefined) append(summary.tags, key, text);
      }
    }
  }
  return { tags: { ...summary.tags }, types: { ...summary.types } };
}
