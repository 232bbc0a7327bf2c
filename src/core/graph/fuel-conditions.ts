/**
 * Conditions as Fuel wrote them: `{yaql_exp}` (YAQL over the node's deployment data, with the
 * lifecycle functions) and plain strings (the restriction language over settings and cluster
 * models). Each expression is parsed once; a YAQL condition that reads nothing node-specific is
 * evaluated once for the whole cluster, which is what keeps a thousand nodes cheap.
 */
import { finding } from '../findings.js';
import { evaluateExpressionDetailed, isTruthy, parseExpression, type Expr } from '../expressions/index.js';
import { dependsOnNode, evaluateYaqlCondition, parseYaql, yaqlReads, type YaqlNode } from '../yaql/index.js';
import type { Task } from '../tasks/model.js';
import type { Condition, ConditionEvaluator, ConditionScope } from './conditions.js';

export interface FuelConditionOptions {
  /** The cluster-wide part of the deployment data (`$` before the node's own keys are added). */
  common?: Record<string, unknown>;
  /** The previously deployed data; absent on a first deployment, where everything has changed. */
  old?: Record<string, unknown>;
  /** Models for restriction-language strings: `{settings, cluster, release, ...}`. */
  models?: Record<string, unknown>;
}

type Parsed = { ok: true; ast: YaqlNode; perNode: boolean; readsIdentity: boolean } | { ok: false; message: string };

/** Keys that tell nodes of one class apart: an expression reading them must be evaluated per node. */
const IDENTITY_KEYS = new Set(['uid', 'fqdn', 'name', 'user_node_name', 'ip', 'mac', 'meta', 'hostname']);

export function fuelConditions(options: FuelConditionOptions = {}): ConditionEvaluator {
  const yaql = new Map<string, Parsed>();
  const restriction = new Map<string, { ast?: Expr; message?: string }>();
  const common = options.common ?? {};

  const parsedYaql = (text: string): Parsed => {
    let hit = yaql.get(text);
    if (!hit) {
      const result = parseYaql(text);
      if (result.ast) {
        const reads = yaqlReads(result.ast);
        // With an old state, `changed($)` compares each node's own data: treat it as identity-bound.
        const readsIdentity = reads.paths.some((p) => IDENTITY_KEYS.has(p[0])) || reads.variables.length > 0 || (reads.wholeData && options.old !== undefined);
        hit = { ok: true, ast: result.ast, perNode: dependsOnNode(result.ast), readsIdentity };
      } else hit = { ok: false, message: result.findings.map((f) => f.message).join('; ') };
      yaql.set(text, hit);
    }
    return hit;
  };

  // One message per task, however many nodes evaluate it.
  const reported = new Set<string>();
  const byClass = new Map<string, Map<number, boolean>>();
  const failed = (task: Task, message: string) => {
    if (reported.has(task.id)) return { value: true };
    reported.add(task.id);
    return { value: true, finding: failedFinding(task, message) };
  };
  const failedFinding = (task: Task, message: string) =>
    finding('graph/condition-failed', 'warning', `task '${task.id}': its condition could not be evaluated (${message}); the task is kept as running`, task.origin, 'fix the expression, or check the data it reads');

  const nodeData = (scope: ConditionScope): unknown => {
    if (!scope.node) return common;
    return { ...common, uid: scope.node.id, roles: scope.node.labels, node_roles: scope.node.roles, ...(scope.input?.attributes ?? {}) };
  };

  return {
    perNode(condition: Condition): boolean {
      if (typeof condition === 'object') {
        const parsed = parsedYaql(condition.yaql_exp);
        return parsed.ok && parsed.perNode;
      }
      return false;
    },
    evaluate(condition: Condition, task: Task, scope: ConditionScope) {
      if (typeof condition === 'boolean') return { value: condition };
      if (typeof condition === 'object') {
        const parsed = parsedYaql(condition.yaql_exp);
        if (!parsed.ok) return failed(task, parsed.message);
        // Nodes of one class with no data of their own see the same `$` but for their identity keys.
        const cacheable = scope.node !== undefined && !scope.input?.attributes && !parsed.readsIdentity;
        let perClass: Map<number, boolean> | undefined;
        if (cacheable) {
          perClass = byClass.get(condition.yaql_exp) ?? byClass.set(condition.yaql_exp, new Map()).get(condition.yaql_exp)!;
          const known = perClass.get(scope.node!.classIndex);
          if (known !== undefined) return { value: known };
        }
        const result = evaluateYaqlCondition(parsed.ast, { data: nodeData(scope), ...(options.old ? { old: options.old } : {}) });
        perClass?.set(scope.node!.classIndex, result.error ? true : result.value);
        if (result.error) return failed(task, result.error.message);
        return { value: result.value };
      }
      let entry = restriction.get(condition);
      if (!entry) {
        const parsed = parseExpression(condition);
        entry = parsed.ast ? { ast: parsed.ast } : { message: parsed.findings.map((f) => f.message).join('; ') };
        restriction.set(condition, entry);
      }
      if (!entry.ast) return failed(task, entry.message ?? 'syntax error');
      return { value: isTruthy(evaluateExpressionDetailed(entry.ast, options.models ?? {}).value) };
    },
  };
}
