/**
 * Role limits: `{min, max, recommended, overrides: [{condition, min?, max?, recommended?, message?}]}`.
 * Each value is a number or an expression (`settings:storage.osd_pool_size.value`); an expression's
 * value is read as an integer, as Fuel's `parseInt` did. Semantics (Fuel UI and Nailgun's
 * `LimitsMixin` agreed):
 * - overrides whose condition holds win for the limit types they set; when several set the same type
 *   the strictest wins (the highest `min`/`recommended`, the lowest `max`), with its message;
 * - a limit that is 0 or missing is no limit (Nailgun: `if not obj.get(type)`); an override of 0
 *   still replaces the base limit, which is how a condition lifts a limit;
 * - given a node count: `min` fails when count < min, `max` when count > max, `recommended` when
 *   count < recommended (a warning, not a blocker).
 */
import { finding, type Finding } from '../findings.js';
import { evaluateExpressionDetailed, isTruthy, type ExpressionContext } from './evaluate.js';
import { parseExpression } from './parser.js';

export type LimitType = 'min' | 'max' | 'recommended';
const limitTypes: readonly LimitType[] = ['min', 'max', 'recommended'];

export interface EffectiveLimit {
  value: number;
  /** The override's message, when an override set this limit. */
  message?: string;
  /** Index of the override that set it; absent for the base limit. */
  override?: number;
}

export interface LimitFailure {
  type: LimitType;
  limit: number;
  severity: 'error' | 'warning';
  message: string;
}

export interface LimitsEvaluation {
  limits: Partial<Record<LimitType, EffectiveLimit>>;
  /** Present when a count was given. */
  count?: number;
  failures: LimitFailure[];
  /** False when a `min` or `max` fails; `recommended` only warns. */
  valid: boolean;
  findings: Finding[];
}

function limitValue(raw: unknown, where: string, context: ExpressionContext, findings: Finding[]): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const parsed = parseExpression(raw);
    if (!parsed.ast) {
      findings.push(...parsed.findings.map((f) => ({ ...f, message: `${where}: ${f.message}` })));
      return undefined;
    }
    const evaluation = evaluateExpressionDetailed(parsed.ast, context);
    for (const u of evaluation.unresolved) {
      findings.push(finding('limits/unknown-reference', 'warning', `${where}: '${u.reference}' does not exist; the limit is ignored.`, { column: u.column }, 'Fix the path.'));
    }
    value = evaluation.value;
  }
  const n = typeof value === 'number' ? Math.trunc(value) : typeof value === 'string' ? Number.parseInt(value, 10) : Number.NaN;
  if (Number.isNaN(n)) {
    findings.push(finding('limits/not-a-number', 'error', `${where} is ${JSON.stringify(value)}, not a number.`, undefined, 'Write a whole number or an expression whose value is one.'));
    return undefined;
  }
  // 0 is kept (an override of 0 lifts the base limit, as in Fuel's UI); checks treat 0 as no limit.
  return n;
}

/** 0 is no limit, so it is the least strict of all. */
const stricter = (type: LimitType, a: number, b: number): boolean => (type === 'max' ? a !== 0 && (b === 0 || a < b) : a > b);

export function evaluateLimits(limits: unknown, context: ExpressionContext, options: { count?: number; role?: string } = {}): LimitsEvaluation {
  const findings: Finding[] = [];
  const effective: Partial<Record<LimitType, EffectiveLimit>> = {};
  if (limits !== undefined && limits !== null && (typeof limits !== 'object' || Array.isArray(limits))) {
    findings.push(finding('limits/invalid-format', 'error', '`limits` must be a map of min, max, recommended and overrides.', undefined, 'Write limits: {min: 1, max: 3}.'));
    return { limits: effective, failures: [], valid: true, findings };
  }
  const map = (limits ?? {}) as Record<string, unknown>;
  const overrides = map.overrides;
  if (overrides !== undefined && overrides !== null && !Array.isArray(overrides)) {
    findings.push(finding('limits/invalid-format', 'error', '`limits.overrides` must be a list.', undefined, 'Write overrides: [{condition: ..., max: 1}].'));
  }
  (Array.isArray(overrides) ? overrides : []).forEach((override, index) => {
    if (override === null || typeof override !== 'object' || Array.isArray(override)) {
      findings.push(finding('limits/invalid-format', 'error', `limits.overrides[${index}] must be a map.`, undefined, 'Write {condition: ..., max: 1, message: ...}.'));
      return;
    }
    const o = override as Record<string, unknown>;
    if (typeof o.condition !== 'string' && typeof o.condition !== 'boolean') {
      findings.push(finding('limits/missing-condition', 'error', `limits.overrides[${index}] has no condition.`, undefined, 'Every override needs a condition.'));
      return;
    }
    const parsed = parseExpression(String(o.condition));
    if (!parsed.ast) {
      findings.push(...parsed.findings.map((f) => ({ ...f, message: `limits.overrides[${index}].condition: ${f.message}` })));
      return;
    }
    if (!isTruthy(evaluateExpressionDetailed(parsed.ast, context).value)) return;
    for (const type of limitTypes) {
      const value = limitValue(o[type], `limits.overrides[${index}].${type}`, context, findings);
      if (value === undefined) continue;
      const current = effective[type];
      if (!current || current.override === undefined || stricter(type, value, current.value)) {
        const entry: EffectiveLimit = { value, override: index };
        if (typeof o.message === 'string') entry.message = o.message;
        effective[type] = entry;
      }
    }
  });
  for (const type of limitTypes) {
    if (effective[type]) continue;
    const value = limitValue(map[type], `limits.${type}`, context, findings);
    if (value === undefined) continue;
    // A role's own `message` says why its bounds are what they are (Ceph OSD: "as many as the replication factor").
    effective[type] = typeof map.message === 'string' && type !== 'recommended' ? { value, message: map.message } : { value };
  }
  const result: LimitsEvaluation = { limits: effective, failures: [], valid: true, findings };
  if (options.count === undefined) return result;
  const count = options.count;
  const role = options.role ?? 'this role';
  result.count = count;
  const { min, max, recommended } = effective;
  if (min && min.value && count < min.value) {
    result.failures.push({ type: 'min', limit: min.value, severity: 'error', message: min.message ?? `At least ${nodes(min.value, role)} ${min.value === 1 ? 'is' : 'are'} required (${count} selected currently).` });
  }
  if (max && max.value && count > max.value) {
    result.failures.push({ type: 'max', limit: max.value, severity: 'error', message: max.message ?? `At most ${nodes(max.value, role)} ${max.value === 1 ? 'is' : 'are'} allowed.` });
  }
  if (recommended && recommended.value && count < recommended.value) {
    result.failures.push({
      type: 'recommended',
      limit: recommended.value,
      severity: 'warning',
      message: recommended.message ?? `At least ${nodes(recommended.value, role)} ${recommended.value === 1 ? 'is' : 'are'} recommended (${count} selected currently).`,
    });
  }
  result.valid = !result.failures.some((f) => f.severity === 'error');
  return result;
}

/** "1 Database node", "3 Database nodes". */
const nodes = (n: number, role: string) => `${n} ${role} node${n === 1 ? '' : 's'}`;
