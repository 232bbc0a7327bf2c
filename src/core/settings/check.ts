/**
 * Whether a value fits its setting's definition, as Fuel's settings files define it: a `radio` or
 * `select` takes one of its `values`, a `regex` rule holds for text (each line of a list), a
 * `number` stays within `min`/`max`. The server checks every change with this, and the web UI
 * checks as the user types with the same function, so both give one answer. Values reach
 * deployment data (and, with real deployments, shells on the nodes): a radio's options and a
 * field's pattern are the whole of what the release and plugin authors allow.
 */
import { unsafePatternReason } from '../graph/selectors.js';

export interface SettingDefinition {
  type?: string;
  value?: unknown;
  label?: string;
  values?: Array<{ data?: unknown; label?: string }>;
  regex?: { source?: string; error?: string };
  min?: number;
  max?: number;
}

/** Text longer than this is refused before any pattern runs on it. */
export const MAX_SETTING_TEXT = 16 * 1024;

const patterns = new Map<string, RegExp | null>();

/** The compiled pattern; null when it cannot be used (invalid, or at risk of exponential backtracking on a value a user sends): such a rule is not enforced. */
function patternOf(source: string): RegExp | null {
  let re = patterns.get(source);
  if (re === undefined) {
    try {
      re = unsafePatternReason(source) ? null : new RegExp(source);
    } catch {
      re = null;
    }
    if (patterns.size > 500) patterns.clear();
    patterns.set(source, re);
  }
  return re;
}

const show = (v: unknown) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v));

/** Why `value` does not fit `definition`, as a sentence; null when it fits. */
export function settingValueProblem(definition: SettingDefinition, value: unknown): string | null {
  const { type } = definition;
  if ((type === 'radio' || type === 'select') && Array.isArray(definition.values) && definition.values.length > 0) {
    const choices = definition.values.map((v) => v?.data);
    if (!choices.some((c) => c === value)) {
      return `${show(value)} is not one of the choices (${definition.values.map((v) => v?.label ?? String(v?.data)).join(', ')}).`;
    }
    return null;
  }
  if (type === 'number' && typeof value === 'number') {
    if (!Number.isFinite(value)) return 'Write a number.';
    if (typeof definition.min === 'number' && value < definition.min) return `The smallest value is ${definition.min}.`;
    if (typeof definition.max === 'number' && value > definition.max) return `The largest value is ${definition.max}.`;
  }
  const texts = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : [];
  if (texts.some((t) => t.length > MAX_SETTING_TEXT)) return `Write at most ${MAX_SETTING_TEXT} characters.`;
  const source = definition.regex?.source;
  if (typeof source === 'string' && texts.length > 0) {
    const re = patternOf(source);
    if (re && texts.some((t) => !re.test(t))) return sentence(definition.regex?.error) ?? `The value does not have the form this setting needs (${source}).`;
  }
  return null;
}

/** Fuel's regex errors are fragments ("Invalid email"); shown as sentences. */
function sentence(text: string | undefined): string | null {
  if (!text || !text.trim()) return null;
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
