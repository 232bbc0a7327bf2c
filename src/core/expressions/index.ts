/** Fuel's restriction/condition language: parse, print, evaluate, restrictions and role limits. */
export type { BinaryOperator, Expr, Literal } from './ast.js';
export { referencesOf, withoutColumns } from './ast.js';
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_OPERATORS, parseExpression, type ParseResult } from './parser.js';
export { formatExpression } from './format.js';
export { deepEqual, evaluateExpression, evaluateExpressionDetailed, isTruthy, type Evaluation, type ExpressionContext, type UnresolvedReference } from './evaluate.js';
export { checkRestrictions, normalizeRestriction, restrictionMessages, type NormalizedRestriction, type Restriction, type RestrictionAction, type RestrictionCheck } from './restrictions.js';
export { evaluateLimits, type EffectiveLimit, type LimitFailure, type LimitType, type LimitsEvaluation } from './limits.js';
