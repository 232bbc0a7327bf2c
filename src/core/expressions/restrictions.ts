/**
 * Restrictions: the lists Fuel attached to roles, settings and components saying when something
 * is disabled or hidden. Three spellings were in use, all kept here:
 * - a bare string: the condition;
 * - `{condition, message?, action?, strict?}`;
 * - `{"<condition>": "<message>"}` (a map without `condition`: its first key and value).
 * `action` defaults to `disable` (`hide` and `none` are the others); `strict` defaults to true,
 * as on Nailgun's role checks. Results say which restrictions are met; callers decide what a met
 * `disable` or `hide` means in their face.
 */
import { finding, type Finding } from '../findings.js';
import type { Expr } from './ast.js';
import { evaluateExpressionDetailed, isTruthy, type ExpressionContext, type UnresolvedReference } from './evaluate.js';
import { parseExpression } from './parser.js';

export type RestrictionAction = 'disable' | 'hide' | 'none';
const actions: readonly string[] = ['disable', 'hide', 'none'];

export interface Restriction {
  condition: string;
  message: string | null;
  action: RestrictionAction;
  strict: boolean;
  /** Absent when the condition does not parse (the reason is in the findings). */
  ast?: Expr;
}

export interface NormalizedRestriction {
  restriction?: Restriction;
  findings: Finding[];
}

const parsedByText = new Map<string, ReturnType<typeof parseExpression>>();
/** Conditions repeat across roles and settings; Fuel cached compiled expressions by text too. */
function parseCached(text: string): ReturnType<typeof parseExpression> {
  let parsed = parsedByText.get(text);
  if (!parsed) {
    parsed = parseExpression(text);
    if (parsedByText.size > 10_000) parsedByText.clear();
    parsedByText.set(text, parsed);
  }
  return parsed;
}

/** One restriction in any of Fuel's spellings → the canonical form, with findings for bad input. */
export function normalizeRestriction(item: unknown): NormalizedRestriction {
  const findings: Finding[] = [];
  let condition: unknown;
  let message: unknown = null;
  let action: unknown = 'disable';
  let strict: unknown = true;
  if (typeof item === 'string') condition = item;
  else if (typeof item === 'boolean') condition = String(item);
  else if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const map = item as Record<string, unknown>;
    if ('condition' in map) {
      condition = map.condition;
      if ('message' in map) message = map.message;
      if ('action' in map) action = map.action;
      if ('strict' in map) strict = map.strict;
    } else {
      const keys = Object.keys(map);
      if (keys.length === 0) {
        return { findings: [finding('restriction/invalid-format', 'error', 'A restriction is an empty map.', undefined, 'Write a condition string, {condition, message, action} or {"<condition>": "<message>"}.')] };
      }
      condition = keys[0];
      message = map[keys[0]];
      if (keys.length > 1) {
        findings.push(
          finding('restriction/extra-keys', 'warning', `A {"<condition>": "<message>"} restriction has ${keys.length} keys; only the first, '${keys[0]}', is used.`, undefined, 'Write one restriction per list item.'),
        );
      }
    }
  } else {
    return {
      findings: [
        finding('restriction/invalid-format', 'error', `A restriction must be a string or a map, not ${item === null ? 'null' : Array.isArray(item) ? 'a list' : typeof item}.`, undefined, 'Write a condition string, {condition, message, action} or {"<condition>": "<message>"}.'),
      ],
    };
  }
  if (typeof condition === 'boolean') condition = String(condition);
  if (typeof condition !== 'string') {
    return { findings: [...findings, finding('restriction/invalid-format', 'error', 'A restriction condition must be a string.', undefined, 'Quote the condition.')] };
  }
  if (message !== null && message !== undefined && typeof message !== 'string') {
    findings.push(finding('restriction/invalid-message', 'warning', 'A restriction message should be a string; it is ignored.', undefined, 'Quote the message.'));
    message = null;
  }
  if (typeof action !== 'string' || !actions.includes(action)) {
    findings.push(finding('restriction/unknown-action', 'error', `Unknown restriction action '${String(action)}'.`, undefined, 'Use disable, hide or none.'));
    action = 'disable';
  }
  if (typeof strict !== 'boolean') {
    findings.push(finding('restriction/invalid-strict', 'warning', '`strict` should be true or false; true is assumed.', undefined, 'Write strict: false or leave it out.'));
    strict = true;
  }
  const parsed = parseCached(condition);
  findings.push(...parsed.findings);
  const restriction: Restriction = { condition, message: (message as string | null | undefined) ?? null, action: action as RestrictionAction, strict: strict as boolean };
  if (parsed.ast) restriction.ast = parsed.ast;
  return { restriction, findings };
}

export interface RestrictionCheck {
  condition: string;
  message: string | null;
  action: RestrictionAction;
  /** True when the condition holds (the restriction applies). False when it cannot be evaluated. */
  met: boolean;
  unresolved: UnresolvedReference[];
  findings: Finding[];
}

/**
 * Normalises and evaluates a restriction list; one result per list item, in order. Items whose
 * action is not in `options.actions` are left out (Fuel's action filter); by default all are kept,
 * as Nailgun's role assignment did, whatever their action.
 */
export function checkRestrictions(list: unknown, context: ExpressionContext, options: { actions?: readonly RestrictionAction[] } = {}): RestrictionCheck[] {
  if (list === undefined || list === null) return [];
  const items = Array.isArray(list) ? list : [list];
  const results: RestrictionCheck[] = [];
  for (const item of items) {
    const { restriction, findings } = normalizeRestriction(item);
    if (!restriction) {
      results.push({ condition: '', message: null, action: 'disable', met: false, unresolved: [], findings });
      continue;
    }
    if (options.actions && !options.actions.includes(restriction.action)) continue;
    const base = { condition: restriction.condition, message: restriction.message, action: restriction.action };
    if (!restriction.ast) {
      results.push({ ...base, met: false, unresolved: [], findings });
      continue;
    }
    const { value, unresolved } = evaluateExpressionDetailed(restriction.ast, context);
    let met = isTruthy(value);
    for (const u of unresolved) {
      if (u.unknownModel) {
        findings.push(finding('expression/unknown-model', 'error', `'${u.reference}' names a model that is not available here.`, { column: u.column }, 'Use one of the models this condition is evaluated with (settings, cluster, version, ...).'));
      } else if (restriction.strict) {
        findings.push(finding('expression/unknown-reference', 'error', `'${u.reference}' does not exist, so the condition cannot be decided.`, { column: u.column }, 'Fix the path, or add strict: false to treat missing values as null.'));
      }
    }
    // Fuel refused to decide a strict restriction with a missing value (or any unknown model).
    if (unresolved.some((u) => u.unknownModel || restriction.strict)) met = false;
    results.push({ ...base, met, unresolved, findings });
  }
  return results;
}

/** The messages of the met restrictions, joined as Nailgun joined them. */
export function restrictionMessages(checks: readonly RestrictionCheck[]): string {
  return checks
    .filter((c) => c.met && c.message)
    .map((c) => c.message)
    .join('. ');
}
