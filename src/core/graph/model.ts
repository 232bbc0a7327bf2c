/**
 * The deployment graph's input and output. The output is compact on purpose: nodes with identical
 * labels share one task list (a "node class"), dependencies live in typed arrays of vertex ids, and
 * a cross-node dependency on "every node of role R" goes through one barrier vertex instead of an
 * edge per pair of nodes. Helpers in `vertices.ts` turn vertex ids back into `(node, task)` pairs.
 */
import type { Finding } from '../findings.js';
import type { Task } from '../tasks/model.js';
import type { ConditionEvaluator } from './conditions.js';
import type { LabelledNode } from './labels.js';

/** A cluster node as the caller knows it. */
export interface NodeInput {
  id: string;
  roles: string[];
  /** Extra tags; the roles' own tags come from `roles` metadata in the graph input. */
  tags?: string[];
  /** Anything per-node a condition evaluator may read (deployment info, status, ...). */
  attributes?: Record<string, unknown>;
  /**
   * astute.yaml's `node_volumes`: the node's disk layout (core/disks). Nodes with the same layout
   * should share one value: conditions reading it are then still evaluated once per node class.
   */
  node_volumes?: unknown[];
}

/** What the graph needs to know of a role (a subset of the release's roles metadata). */
export interface RoleInfo {
  has_primary?: boolean;
  tags?: string[];
}

export interface GraphInput {
  tasks: Task[];
  nodes: NodeInput[];
  /** Roles metadata (and tags metadata) of the release: primary roles and the tags each role brings. */
  roles?: Record<string, RoleInfo>;
  tagsMetadata?: Record<string, { has_primary?: boolean }>;
  settings?: Record<string, unknown>;
  context?: Record<string, unknown>;
  /** The previously deployed state, for lifecycle conditions (`changed`, `new`, `old`, ...). */
  previous?: Record<string, unknown>;
  conditions?: ConditionEvaluator;
  /** Seconds for a task with no `parameters.timeout`. */
  defaultDuration?: number;
  /** Warn about nodes that run none of a role's own tasks (set for the default deployment graph). */
  checkRoleTasks?: boolean;
  /**
   * The nodes already labelled (labels.ts) with the findings that labelling made, when the caller
   * needed the labels first: cluster.ts does, to evaluate conditions, and labelling 10,000 nodes
   * twice cost the graph 6-20 ms. Must be the labelling of `nodes` as given here.
   */
  labelled?: { nodes: LabelledNode[]; findings: Finding[] };
}

/** Reserved node ids: the Fuel master, and the cluster-wide sync node that holds stage tasks. */
export const MASTER_NODE = 'master';
export const SYNC_NODE = 'sync';

export interface GraphNode {
  id: string;
  roles: string[];
  /** Roles and tags after primary assignment: the first node of a role with a primary is labelled `primary-<role>` (labels.ts says which tasks reach it). */
  labels: string[];
  classIndex: number;
  /** First vertex id of this node's tasks. */
  base: number;
}

export interface Slot {
  id: string;
  task: Task;
  /** Estimated seconds (0 for stages, groups, skipped tasks). */
  duration: number;
}

/** Nodes with identical labels run identical tasks: one template, shared. */
export interface NodeClass {
  labels: string[];
  slots: Slot[];
  slotOf: Map<string, number>;
  /** Indices into `DeploymentGraph.nodes`. */
  nodes: number[];
}

export interface Barrier {
  /** `after` = waits for tasks on other nodes (cross-depends); `before` = others wait for it (cross-depended-by). */
  kind: 'after' | 'before';
  /** Task name or /regex/ on the other side. */
  name: string;
  role: string;
  policy: 'all' | 'any';
}

export interface TaskPair {
  node: string;
  task: string;
}

export interface GraphCounts {
  /** Cluster nodes (without `master` and `sync`). */
  nodes: number;
  /** (node, task) pairs that run or are skipped, without the internal group and barrier vertices. */
  tasks: number;
  skipped: number;
  /** Edges of the compact graph (barriers count once per side). */
  edges: number;
  barriers: number;
}

export interface DeploymentGraph {
  nodes: GraphNode[];
  classes: NodeClass[];
  barriers: Barrier[];
  vertexCount: number;
  /** First vertex id of the barriers (they come after every node's vertices). */
  barrierBase: number;
  /** Edges `from[i] → to[i]`: `from` must finish before `to` starts. */
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  /** 1 where a vertex's condition was false: it keeps its place and edges, and takes no time. */
  skipped: Uint8Array;
  /** A valid execution order (every vertex), or undefined when the graph has a cycle. */
  order?: Int32Array;
  /** Estimated start and finish (seconds) of each vertex. */
  start?: Float64Array;
  finish?: Float64Array;
  criticalPath: TaskPair[];
  makespan: number;
  /** The first cycle found, node by node, task by task (first pair repeated at the end). */
  cycle?: TaskPair[];
  counts: GraphCounts;
  findings: Finding[];
}
