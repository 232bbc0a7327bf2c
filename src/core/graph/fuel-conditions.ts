/**
 * Conditions as Fuel wrote them: `{yaql_exp}` (YAQL over the node's deployment data, with the
 * lifecycle functions) and plain strings (the restriction language, over the same data as Nailgun's
 * LCM serializer gave it). Each expression is parsed and planned once (condition-plan.ts): what is
 * the same for the whole cluster is evaluated once, what depends on the node's class once per class,
 * and only what reads a node's identity (uid, fqdn, ...) once per node.
 */
import { finding, type Finding } from '../findings.js';
import { evaluateExpressionDetailed, isTruthy, parseExpression, type Expr } from '../expressions/index.js';
import { evaluateYaqlCondition, evaluateYaqlValue, memoizedEqual, parseYaql } from '../yaql/index.js';
import type { Task } from '../tasks/model.js';
import type { Condition, ConditionEvaluator, ConditionScope } from './conditions.js';
import { HOISTED_PREFIX, planCondition, type ConditionPlan } from './condition-plan.js';
import type { GraphNode, NodeInput } from './model.js';

/** The previously deployed state: its common part, and each node's own keys then. */
export interface PreviousDeployment {
  common: Record<string, unknown>;
  nodes: ReadonlyMap<string, { overlay: Record<string, unknown>; labels: readonly string[] }>;
}

export interface FuelConditionOptions {
  /** The cluster-wide part of the deployment data (`$` before the node's own keys are added). */
  common?: Record<string, unknown>;
  /** A node's own keys (deployment-info.ts); by default uid, roles and the node's `attributes`. */
  nodeData?: (node: GraphNode, input: NodeInput | undefined) => Record<string, unknown>;
  /** Keys `nodeData` sets, and those of them that are equal on nodes of one class. */
  nodeKeys?: ReadonlySet<string>;
  classKeys?: ReadonlySet<string>;
  /** The previous deployment, node by node; a node absent from it is new: everything changed for it. */
  previous?: PreviousDeployment;
  /** One old state for every node (tests, or a caller without per-node history). */
  old?: Record<string, unknown>;
  /** Models for restriction-language strings; Fuel's LCM gave `{cluster: $.cluster, settings: $}`. */
  models?: Record<string, unknown>;
}

/**
 * A node's old state when it was never deployed: Nailgun's LCM gave such nodes `{}`, so `old($.x)`
 * fails (and counts as changed) and `len(old($))` is 0.
 */
const NOTHING_DEPLOYED: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

type Parsed = { ok: true; plan: ConditionPlan } | { ok: false; message: string };

const DEFAULT_NODE_KEYS: ReadonlySet<string> = new Set(['uid', 'roles', 'node_roles']);
const DEFAULT_CLASS_KEYS: ReadonlySet<string> = new Set(['roles', 'node_roles']);

const planCache = new WeakMap<ReadonlySet<string>, WeakMap<ReadonlySet<string>, Map<string, Parsed>>>();
const MAX_CACHED_PLANS = 10_000;
function plansFor(nodeKeys: ReadonlySet<string>, classKeys: ReadonlySet<string>): Map<string, Parsed> {
  const byClass = planCache.get(nodeKeys) ?? planCache.set(nodeKeys, new WeakMap()).get(nodeKeys)!;
  let plans = byClass.get(classKeys);
  if (!plans || plans.size > MAX_CACHED_PLANS) {
    plans = new Map();
    byClass.set(classKeys, plans);
  }
  return plans;
}

/** Nailgun's LCM rewrote legacy conditions before evaluating them on the deployment data (research/nailgun.md §3.8). */
export function rewriteLegacyCondition(text: string): string {
  return text
    .replace(/settings:additional_components\.(\w+)(\.value)?/g, 'settings:$1.enabled')
    .replace(/settings:common\.(.+?)(.value)?/g, 'settings:$1')
    .replace(/settings:(.+?)(.value)(?!\.)/g, 'settings:$1');
}

const hasOwn = (o: object, k: PropertyKey) => Object.prototype.hasOwnProperty.call(o, k);

/**
 * The traps of a layered() view, as methods on one object per view (ten thousand views, each
 * read many times: no closures per view, and one descriptor per key however often it is asked).
 */
class LayeredView implements ProxyHandler<Record<string, unknown>> {
  private keys: string[] | undefined;
  private descriptors: Map<PropertyKey, PropertyDescriptor> | undefined;

  constructor(
    private readonly own: Record<string, unknown>,
    private readonly common: Record<string, unknown> | undefined,
    private readonly identity: (key: string) => boolean,
    private readonly onIdentity: () => void,
  ) {}

  private read(k: PropertyKey): unknown {
    if (hasOwn(this.own, k)) {
      if (typeof k === 'string' && this.identity(k)) this.onIdentity();
      return this.own[k as string];
    }
    return this.common ? this.common[k as string] : this.own[k as string];
  }

  get(_t: object, k: PropertyKey): unknown {
    return this.read(k);
  }

  has(_t: object, k: PropertyKey): boolean {
    return hasOwn(this.own, k) || (this.common !== undefined && k in this.common) || k in this.own;
  }

  ownKeys(): string[] {
    if (!this.keys) {
      // An object with the same keys set in the same order lists them as the spread would (integer-like keys first).
      const order: Record<string, 0> = {};
      if (this.common) for (const k of Object.keys(this.common)) order[k] = 0;
      for (const k of Object.keys(this.own)) order[k] = 0;
      this.keys = Object.keys(order);
    }
    return this.keys;
  }

  getOwnPropertyDescriptor(_t: object, k: PropertyKey): PropertyDescriptor | undefined {
    if (!(hasOwn(this.own, k) || (this.common !== undefined && hasOwn(this.common, k)))) return undefined;
    // An accessor: asking whether a key exists (Object.keys, hasOwnProperty) reads no value.
    let descriptor = this.descriptors?.get(k);
    if (!descriptor) {
      descriptor = { get: () => this.read(k), enumerable: true, configurable: true };
      (this.descriptors ??= new Map()).set(k, descriptor);
    }
    return descriptor;
  }

  set(): boolean {
    return false;
  }

  defineProperty(): boolean {
    return false;
  }

  deleteProperty(): boolean {
    return false;
  }
}

/**
 * A node's data as `{...common, ...own}` would be, without copying either: ten thousand nodes each
 * copying the common part (hundreds of keys) and, through the spread, building their lazy
 * `network_scheme` cost most of a graph's build. Reads go to own, then common; the key list is
 * made, in the spread's order, only when something lists keys. `onIdentity` is told each read of an
 * own key that `identity` names (listing keys or asking whether one exists reads no value).
 */
function layered(own: Record<string, unknown>, common: Record<string, unknown> | undefined, identity: (key: string) => boolean, onIdentity: () => void): Record<string, unknown> {
  return new Proxy<Record<string, unknown>>({}, new LayeredView(own, common, identity, onIdentity));
}

export function fuelConditions(options: FuelConditionOptions = {}): ConditionEvaluator {
  const common = options.common ?? {};
  const nodeKeys = options.nodeKeys ?? DEFAULT_NODE_KEYS;
  const classKeys = options.classKeys ?? DEFAULT_CLASS_KEYS;
  const nodeData = options.nodeData ?? ((node: GraphNode, input: NodeInput | undefined) => ({ uid: node.id, roles: node.labels, node_roles: node.roles, ...(input?.attributes ?? {}) }));
  const oldCommon = options.previous?.common ?? options.old;
  const models = options.models ?? { cluster: common.cluster ?? {}, settings: common };
  // Old and new data share their cluster-wide containers across nodes and nothing mutates them
  // during a build: one memo of comparisons keeps `changed($)` on every node from re-walking the
  // cluster's node list per node.
  const equal = memoizedEqual();

  // Plans depend only on the text and the key sets: shared by every evaluator with the same sets,
  // so a server computing many graphs parses and plans each expression once.
  const yaql = plansFor(nodeKeys, classKeys);
  const parsedYaql = (text: string): Parsed => {
    let hit = yaql.get(text);
    if (!hit) {
      const result = parseYaql(text);
      hit = result.ast ? { ok: true, plan: planCondition(result.ast, nodeKeys, classKeys) } : { ok: false, message: result.findings.map((f) => f.message).join('; ') };
      yaql.set(text, hit);
    }
    return hit;
  };

  // Hoisted values, per expression and per old-state variant, computed on first use (lazily, so
  // `a and b` still skips `b`), errors included: a getter rethrows what evaluating it threw.
  const variableSets = new Map<ConditionPlan, [Record<string, unknown>, Record<string, unknown>]>();
  const variablesOf = (plan: ConditionPlan, hasOld: boolean): Record<string, unknown> => {
    let sets = variableSets.get(plan);
    if (!sets) {
      const make = (withOld: boolean) => {
        const vars: Record<string, unknown> = {};
        plan.hoisted.forEach((ast, i) => {
          let memo: { value: unknown } | { error: unknown } | undefined;
          Object.defineProperty(vars, `${HOISTED_PREFIX}${i}`, {
            enumerable: true,
            get() {
              if (!memo) {
                try {
                  memo = { value: evaluateYaqlValue(ast, { data: common, old: withOld && oldCommon ? oldCommon : NOTHING_DEPLOYED, equal }) };
                } catch (error) {
                  memo = { error };
                }
              }
              if ('error' in memo) throw memo.error;
              return memo.value;
            },
          });
        });
        return vars;
      };
      sets = [make(false), make(true)];
      variableSets.set(plan, sets);
    }
    return sets[hasOld ? 1 : 0];
  };

  // A condition that reads a node's identity (uid, fqdn, network_scheme, ...) may still not read it
  // on a given evaluation: `changed($.network_scheme)` on a node never deployed answers from the
  // missing old value alone, `changed($)` from the key counts. Reads of a node's data go through a
  // view that counts reads of identity keys; a verdict reached without any is the class's verdict
  // (nodes of a class differ in nothing else, so they take the same path to the same answer).
  let identityReads = 0;
  const countIdentity = () => {
    identityReads++;
  };
  const identity = (key: string) => nodeKeys.has(key) && !classKeys.has(key);

  // A node's own keys and old keys, built once per node; its whole `$` (own keys over the shared
  // common part, as a view: no per-node copy) only for the residues that read more than the node's keys.
  interface NodeState {
    own: Record<string, unknown>;
    ownOld: Record<string, unknown>;
    view?: Record<string, unknown>;
    full?: { data: Record<string, unknown>; old: Record<string, unknown> };
    oldView?: Record<string, unknown>;
    classKey: string;
    hasOld: boolean;
    /** The caller's attributes set cluster-wide keys: hoisted values would be wrong for this node. */
    overrides: boolean;
  }
  const dataOf = new WeakMap<GraphNode, NodeState>();
  // `node_volumes` is a class key, yet two nodes of a class may have different disks: their layout
  // (one shared value per distinct layout, by identity) is part of the class.
  const layouts = new Map<unknown, number>();
  const layoutKey = (input: NodeInput | undefined): string => {
    if (!input?.node_volumes) return '';
    let key = layouts.get(input.node_volumes);
    if (key === undefined) layouts.set(input.node_volumes, (key = layouts.size));
    return String(key);
  };
  const nodeState = (node: GraphNode, input: NodeInput | undefined): NodeState => {
    let hit = dataOf.get(node);
    if (!hit) {
      const before = options.previous?.nodes.get(node.id);
      // Nodes of a class share a verdict only if they also share their history (and their roles:
      // two role lists can give one label set, and `node_roles` is read as a class key).
      const history = options.previous ? (before ? `was:${before.labels.join(',')}` : 'new') : '';
      const attributes = input?.attributes ? Object.keys(input.attributes) : [];
      hit = { own: nodeData(node, input), ownOld: before?.overlay ?? (options.previous ? NOTHING_DEPLOYED : (options.old ?? NOTHING_DEPLOYED)), classKey: `${node.classIndex}|${node.roles.join(',')}|${history}|${layoutKey(input)}`, hasOld: before !== undefined || (!options.previous && options.old !== undefined), overrides: attributes.some((k) => !nodeKeys.has(k)) };
      dataOf.set(node, hit);
    }
    return hit;
  };
  const ownView = (state: NodeState) => (state.view ??= layered(state.own, undefined, identity, countIdentity));
  const ownOldView = (state: NodeState) => (state.ownOld === NOTHING_DEPLOYED || !options.previous ? state.ownOld : (state.oldView ??= layered(state.ownOld, undefined, identity, countIdentity)));
  const fullState = (state: NodeState) => {
    if (!state.full) {
      const old = options.previous ? (state.ownOld !== NOTHING_DEPLOYED ? layered(state.ownOld, options.previous.common, identity, countIdentity) : NOTHING_DEPLOYED) : (options.old ?? NOTHING_DEPLOYED);
      state.full = { data: state.overrides ? { ...common, ...state.own } : layered(state.own, common, identity, countIdentity), old };
    }
    return state.full;
  };

  const reported = new Set<string>();
  const failed = (task: Task, message: string) => {
    if (reported.has(task.id)) return { value: true };
    reported.add(task.id);
    return { value: true, finding: finding('graph/condition-failed', 'warning', `task '${task.id}': its condition could not be evaluated (${message}); the task is kept as running`, task.origin, 'fix the expression, or check the deployment data it reads (--settings, the nodes file)') };
  };

  const byClass = new Map<ConditionPlan, Map<string, { value: boolean; message?: string }>>();
  const evaluateYaqlFor = (plan: ConditionPlan, scope: ConditionScope): { value: boolean; message?: string } => {
    if (!scope.node) {
      const result = evaluateYaqlCondition(plan.residue, { data: common, old: options.previous ? NOTHING_DEPLOYED : (options.old ?? NOTHING_DEPLOYED), equal });
      return result.error ? { value: true, message: result.error.message } : { value: result.value };
    }
    const state = nodeState(scope.node, scope.input);
    const cacheable = !scope.input?.attributes;
    const perClass = cacheable ? (byClass.get(plan) ?? byClass.set(plan, new Map()).get(plan)!) : undefined;
    const known = perClass?.get(state.classKey);
    if (known) return known;
    identityReads = 0;
    let result;
    if (state.overrides) {
      const full = fullState(state);
      result = evaluateYaqlCondition(plan.ast, { data: full.data, old: full.old, equal });
    } else if (plan.needsCommon) {
      const full = fullState(state);
      result = evaluateYaqlCondition(plan.residue, { data: full.data, old: full.old, variables: variablesOf(plan, state.hasOld), equal });
    } else {
      result = evaluateYaqlCondition(plan.residue, { data: ownView(state), old: ownOldView(state), variables: variablesOf(plan, state.hasOld), equal });
    }
    const verdict = result.error ? { value: true, message: result.error.message } : { value: result.value };
    if (identityReads === 0) perClass?.set(state.classKey, verdict);
    return verdict;
  };

  const restriction = new Map<string, { ast?: Expr; message?: string }>();
  const unresolvedSeen = new Set<string>();
  const evaluateRestriction = (text: string, task: Task): { value: boolean; finding?: Finding } => {
    let entry = restriction.get(text);
    if (!entry) {
      const parsed = parseExpression(rewriteLegacyCondition(text));
      entry = parsed.ast ? { ast: parsed.ast } : { message: parsed.findings.map((f) => f.message).join('; ') };
      restriction.set(text, entry);
    }
    if (!entry.ast) return failed(task, entry.message ?? 'syntax error');
    const result = evaluateExpressionDetailed(entry.ast, models);
    if (result.unresolved.length > 0 && !unresolvedSeen.has(task.id)) {
      unresolvedSeen.add(task.id);
      const names = result.unresolved.map((u) => u.reference).join(', ');
      return { value: isTruthy(result.value), finding: finding('graph/condition-unresolved', 'warning', `task '${task.id}': its condition reads ${names}, which the deployment data does not have; taken as null, as Fuel did`, task.origin, 'check the setting name (sections and attributes of the release and its plugins), or pass it with --settings') };
    }
    return { value: isTruthy(result.value) };
  };

  return {
    perNode(condition: Condition): boolean {
      if (typeof condition !== 'object') return false;
      const parsed = parsedYaql(condition.yaql_exp);
      if (!parsed.ok) return false;
      // With a previous deployment, new and re-deployed nodes answer lifecycle functions differently.
      return !parsed.plan.clusterWide || (parsed.plan.lifecycle && options.previous !== undefined);
    },
    evaluate(condition: Condition, task: Task, scope: ConditionScope) {
      if (typeof condition === 'boolean') return { value: condition };
      if (typeof condition === 'string') return evaluateRestriction(condition, task);
      const parsed = parsedYaql(condition.yaql_exp);
      if (!parsed.ok) return failed(task, parsed.message);
      const verdict = evaluateYaqlFor(parsed.plan, scope);
      return verdict.message === undefined ? { value: verdict.value } : failed(task, verdict.message);
    },
    value(expression: string, _task: Task, scope: ConditionScope) {
      const parsed = parsedYaql(expression);
      if (!parsed.ok) return { error: parsed.message };
      const state = scope.node ? fullState(nodeState(scope.node, scope.input)) : { data: common, old: options.previous ? NOTHING_DEPLOYED : (options.old ?? NOTHING_DEPLOYED) };
      try {
        return { value: evaluateYaqlValue(parsed.plan.ast, { data: state.data, old: state.old, equal }) };
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
  };
}

