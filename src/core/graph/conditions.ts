/**
 * The seam through which task conditions reach the graph. The graph asks once per task whether a
 * condition can differ between nodes; a cluster-wide condition is evaluated once, a per-node one
 * once per node. Expression languages (Fuel's restriction language, YAQL) plug in here; the graph
 * itself knows nothing of their syntax.
 */
import type { Finding } from '../findings.js';
import type { Task } from '../tasks/model.js';
import type { GraphNode, NodeInput } from './model.js';

export type Condition = NonNullable<Task['condition']>;

export interface ConditionScope {
  /** The node, for per-node conditions; absent for cluster-wide ones. */
  node?: GraphNode;
  input?: NodeInput;
  settings?: Record<string, unknown>;
  context?: Record<string, unknown>;
  previous?: Record<string, unknown>;
}

export interface ConditionEvaluator {
  /** Whether the value can differ from node to node (e.g. YAQL reading `$.roles`). */
  perNode(condition: Condition, task: Task): boolean;
  /** True: the task runs; false: it is kept as skipped. A finding explains an expression that failed. */
  evaluate(condition: Condition, task: Task, scope: ConditionScope): { value: boolean; finding?: Finding };
  /**
   * A YAQL expression's value over the data of `scope.node` (a strategy's `amount`); absent on
   * evaluators without deployment data. `error` says why it could not be evaluated.
   */
  value?(expression: string, task: Task, scope: ConditionScope): { value?: unknown; error?: string };
  /** Set on evaluators that do not really evaluate, so the graph can say so once. */
  readonly placeholder?: boolean;
}

/**
 * Every condition holds. This is what a first deployment sees for Fuel's lifecycle conditions
 * (`changed($)` is true when nothing was deployed before), and what Hearth uses until an
 * expression evaluator is passed in; a literal boolean is still honoured.
 */
export const allConditionsHold: ConditionEvaluator = {
  placeholder: true,
  perNode: () => false,
  evaluate: (condition) => ({ value: typeof condition === 'boolean' ? condition : true }),
};
