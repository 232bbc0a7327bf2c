/** The YAQL subset of Fuel's deployment tasks: parse and validate once, evaluate many times. */
export type { YaqlArgument, YaqlBinaryOperator, YaqlNode, YaqlUnaryOperator } from './ast.js';
export { stripYaqlColumns } from './ast.js';
export { MAX_YAQL_DEPTH, MAX_YAQL_LENGTH, MAX_YAQL_OPERATORS, parseYaql, parseYaqlSyntax, type YaqlParseResult } from './parser.js';
export { validateYaql } from './validate.js';
export { evaluateYaql, evaluateYaqlCondition, evaluateYaqlValue, type YaqlContext, type YaqlResult } from './evaluate.js';
export { dependsOnNode, NODE_SPECIFIC_KEYS, readFlags, yaqlReads, type ReadFlags, type YaqlReads } from './dependencies.js';
export { formatYaql } from './format.js';
export { standardFunctionNames, yaqlFunctions, type FunctionSpec } from './functions.js';
export { YaqlSet, memoizedEqual, truthy as yaqlTruthy } from './values.js';
