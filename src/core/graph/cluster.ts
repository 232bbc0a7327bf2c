/**
 * The deployment graph of a cluster, as both faces compute it: the CLI (`hearth graph`) and the
 * server call this one function, so they cannot disagree. Conditions are evaluated on the deployment
 * data built from the composed release, the cluster's settings and its nodes (deployment-info.ts),
 * and lifecycle functions compare with the previous deployment when there was one.
 */
import { finding, type Finding } from '../findings.js';
import type { ComposedRelease } from '../release/compose.js';
import { buildDeploymentGraph } from './build.js';
import { allConditionsHold, type ConditionEvaluator, type ConditionScope } from './conditions.js';
import { CLASS_KEYS, NODE_KEYS, deploymentCommon, nodeDeploymentInfo, shareUnchanged, type SettingsValues } from './deployment-info.js';
import type { DeploymentNetworks } from './deployment-networks.js';
import { fuelConditions, type PreviousDeployment } from './fuel-conditions.js';
import { labelNodes } from './labels.js';
import type { Task } from '../tasks/model.js';
import type { DeploymentGraph, GraphInput, GraphNode, NodeInput, RoleInfo } from './model.js';

/** What of a composed release the graph reads. */
export type GraphRelease = Pick<ComposedRelease, 'graphs' | 'roles_metadata' | 'tags_metadata' | 'attributes_metadata' | 'name' | 'version'> & Partial<Pick<ComposedRelease, 'applied_plugins' | 'networks_metadata' | 'network_roles_metadata'>>;

/** A deployed state: the nodes as they were and the settings they were deployed with. */
export interface ClusterState {
  nodes: NodeInput[];
  settings?: SettingsValues;
}

export interface ClusterGraphInput {
  composed: GraphRelease;
  nodes: NodeInput[];
  /** Overrides of the release's default settings, `{section: {attribute: value}}`. */
  settings?: SettingsValues;
  /** The last deployed state; absent on a first deployment, where everything has changed. */
  previous?: ClusterState;
  /** Graph type: `default` unless given. */
  type?: string;
  /** False takes every condition as true (as on a first deployment, without evaluating anything). */
  evaluateConditions?: boolean;
  defaultDuration?: number;
  /** The environment; `networks` is its stored network plan (without it, the release's defaults for these nodes). */
  cluster?: { id?: number; name?: string; networks?: DeploymentNetworks };
}

/**
 * Told before each condition (or YAQL amount) is evaluated, with the task and the node (absent for
 * a cluster-wide one). Core keeps no clock: a caller with a time limit checks it here, and throws to
 * end the build naming the task (the server's deploy-time graphs, graph-build.ts).
 */
export type ConditionWatch = (task: string, node?: string) => void;

export function graphForCluster(input: ClusterGraphInput, watch?: ConditionWatch): DeploymentGraph {
  return clusterGraphWithData(input, watch).graph;
}

/** The deployment data conditions were evaluated on: what a plan (plan.ts) explains verdicts with. */
export interface ConditionData {
  /** The cluster-wide part of every node's `$`. */
  common: Record<string, unknown>;
  /** A node's own keys (laid over `common`). */
  nodeData: (node: GraphNode) => Record<string, unknown>;
  /** The last deployed state, absent on a first deployment. */
  previous?: PreviousDeployment;
}

/** The graph and, when conditions were evaluated, the data they read. */
export function clusterGraphWithData(input: ClusterGraphInput, watch?: ConditionWatch): { graph: DeploymentGraph; data?: ConditionData } {
  const findings: Finding[] = [];
  const type = input.type ?? 'default';
  const { composed } = input;
  const graph = composed.graphs[type];
  if (!graph) findings.push(finding('graph/unknown-type', 'error', `the release has no '${type}' graph (it has: ${Object.keys(composed.graphs).sort().join(', ') || 'none'})`, undefined, 'pick one of those graph types'));
  const base: GraphInput = {
    tasks: graph?.tasks ?? [],
    nodes: input.nodes,
    roles: composed.roles_metadata as Record<string, RoleInfo>,
    tagsMetadata: composed.tags_metadata as Record<string, { has_primary?: boolean }>,
    ...(input.defaultDuration !== undefined ? { defaultDuration: input.defaultDuration } : {}),
    // Only the default graph deploys roles; provisioning and the others run the same on every node.
    checkRoleTasks: type === 'default',
  };
  let data: ConditionData | undefined;
  if (input.evaluateConditions !== false) {
    // Labels (primary roles) as the graph will assign them; the build reports their findings about bad nodes.
    const labelFindings: Finding[] = [];
    const labelled = labelNodes(base, labelFindings);
    base.labelled = { nodes: labelled, findings: labelFindings };
    const info = deploymentCommon(composed, labelled, input.settings, input.cluster);
    findings.push(...info.findings);
    const previous = input.previous ? previousDeployment(composed, base, input.previous, input.cluster, findings) : undefined;
    if (previous) previous.common = shareUnchanged(previous.common, info.common);
    const index = new Map(labelled.map((l, i) => [l.input.id, i]));
    const inputs = new Map(input.nodes.map((n) => [n.id, n]));
    const nodeData = (node: GraphNode, nodeInput?: NodeInput) => nodeDeploymentInfo(node, nodeInput ?? inputs.get(node.id), index.get(node.id) ?? 0, info.networks);
    base.conditions = fuelConditions({
      common: info.common,
      nodeData,
      nodeKeys: NODE_KEYS,
      classKeys: CLASS_KEYS,
      ...(previous ? { previous } : {}),
    });
    data = { common: info.common, nodeData, ...(previous ? { previous } : {}) };
  } else base.conditions = allConditionsHold;
  if (watch) base.conditions = watched(base.conditions, watch);
  const built = buildDeploymentGraph(base);
  built.findings.unshift(...findings);
  return { graph: built, ...(data ? { data } : {}) };
}

function watched(inner: ConditionEvaluator, watch: ConditionWatch): ConditionEvaluator {
  const value = inner.value?.bind(inner);
  return {
    ...(inner.placeholder ? { placeholder: true } : {}),
    perNode: (condition, task) => inner.perNode(condition, task),
    evaluate: (condition, task, scope) => {
      watch(task.id, scope.node?.id);
      return inner.evaluate(condition, task, scope);
    },
    ...(value
      ? {
          value: (expression: string, task: Task, scope: ConditionScope) => {
            watch(task.id, scope.node?.id);
            return value(expression, task, scope);
          },
        }
      : {}),
  };
}

function previousDeployment(composed: GraphRelease, base: GraphInput, state: ClusterState, cluster: ClusterGraphInput['cluster'], findings: Finding[]): PreviousDeployment {
  const labelled = labelNodes({ ...base, nodes: state.nodes }, []);
  const info = deploymentCommon(composed, labelled, state.settings, cluster);
  findings.push(...info.findings.map((f) => ({ ...f, message: `previous state: ${f.message}` })));
  const nodes = new Map<string, { overlay: Record<string, unknown>; labels: string[] }>();
  labelled.forEach(({ input, labels }, i) => {
    const node = { id: input.id, roles: [...input.roles], labels, classIndex: -1, base: 0 };
    nodes.set(input.id, { overlay: nodeDeploymentInfo(node, input, i, info.networks), labels });
  });
  return { common: info.common, nodes };
}
