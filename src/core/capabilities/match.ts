/**
 * Matching a template's capabilities against wanted key/values (a `requires:` section, or the
 * `-c key=value` options of `template find`). Strict, as the corpus decides: every wanted key must be
 * present, and equal when both are written as text, or be an item of a list-valued capability.
 */

/** A template's `capabilities:` mapping, as parsed. Values are scalars or lists of scalars. */
export type Capabilities = Readonly<Record<string, unknown>>;

/** Wanted values, already as text (`requires:` values and `-c` options are both turned into text). */
export type Requirements = Readonly<Record<string, string>>;

export type KeyFailure =
  | { key: string; wanted: string; reason: 'missing' }
  | { key: string; wanted: string; reason: 'different'; found: string }
  | { key: string; wanted: string; reason: 'not-in-list'; found: string[] };

export interface MatchExplanation {
  fits: boolean;
  /** Every key that failed, in the order of the requirements (empty when it fits). */
  failures: KeyFailure[];
}

/**
 * A scalar as text, the way YAML wrote it for the usual cases: `6` and `"6"` are the same, `true`
 * (or YAML 1.1 `yes`) is `true`. Null, mappings and lists have no text form and match nothing.
 */
export function capabilityText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return undefined;
}

/** Does one capability value satisfy one wanted value? */
function explainKey(key: string, wanted: string, value: unknown): KeyFailure | undefined {
  if (Array.isArray(value)) {
    const items = value.map(capabilityText).filter((text): text is string => text !== undefined);
    return items.includes(wanted) ? undefined : { key, wanted, reason: 'not-in-list', found: items };
  }
  const text = capabilityText(value);
  if (text === wanted) return undefined;
  return { key, wanted, reason: 'different', found: text ?? JSON.stringify(value) };
}

/** Why a template fits or does not. `undefined` capabilities (a type, or a template without any) fit only no requirements. */
export function explainMatch(capabilities: Capabilities | undefined, required: Requirements): MatchExplanation {
  const failures: KeyFailure[] = [];
  for (const [key, wanted] of Object.entries(required)) {
    if (!capabilities || !Object.prototype.hasOwnProperty.call(capabilities, key) || capabilities[key] === null) {
      failures.push({ key, wanted, reason: 'missing' });
      continue;
    }
    const failure = explainKey(key, wanted, capabilities[key]);
    if (failure) failures.push(failure);
  }
  return { fits: failures.length === 0, failures };
}

export function matchesCapabilities(capabilities: Capabilities | undefined, required: Requirements): boolean {
  return explainMatch(capabilities, required).fits;
}

/** One failure in plain words: `name is 'x', not 'y'`. */
export function describeFailure(failure: KeyFailure): string {
  switch (failure.reason) {
    case 'missing':
      return `has no '${failure.key}' capability (wanted '${failure.wanted}')`;
    case 'different':
      return `has ${failure.key} '${failure.found}', not '${failure.wanted}'`;
    case 'not-in-list':
      return `has ${failure.key} [${failure.found.map((f) => `'${f}'`).join(', ')}], which does not include '${failure.wanted}'`;
  }
}
